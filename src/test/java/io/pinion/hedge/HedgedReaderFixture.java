package io.pinion.hedge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * A reader named {@code materialized_feed} with a 20 ms hedge delay, no warm-up reads, virtual time, and primary
 * and standby sources completed by hand.
 */
abstract class HedgedReaderFixture {

    static final Duration DELAY = Duration.ofMillis(20);

    final VirtualTimer timer = new VirtualTimer();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final HedgedReader reader = reader("materialized_feed");
    final FakeSource<String> primary = FakeSource.manual();
    final FakeSource<String> standby = FakeSource.manual();

    HedgedReader reader(String name) {
        HedgeSettings settings = new HedgeSettings(0.999, Duration.ofMillis(5), Duration.ofMillis(200), DELAY, 10_000,
                1_000, 0.0);
        return new HedgedReader(name, "feed_unavailable", settings, timer, registry);
    }

    UniAssertSubscriber<HedgedResult<String>> read() {
        return reader.readWithOutcome(primary, standby).subscribe().withSubscriber(UniAssertSubscriber.create());
    }

    double count(String name, HedgeOutcome outcome) {
        return registry.get("pinion.hedge.reads").tags("name", name, "outcome", outcome.tag()).counter().count();
    }

    /** The read was counted once, under {@code outcome} and nothing else. */
    void countedOnlyAs(HedgeOutcome outcome) {
        for (HedgeOutcome each : HedgeOutcome.values()) {
            assertEquals(each == outcome ? 1.0 : 0.0, count("materialized_feed", each), each.tag());
        }
    }
}
