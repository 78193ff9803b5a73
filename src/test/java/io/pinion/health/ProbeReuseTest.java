package io.pinion.health;

import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The backends health group answers from probe results at most {@code pinion.health.probe-reuse} (1 s) old: fifty
 * requests in a burst cost each backend one probe, not fifty.
 */
@QuarkusTest
@StackTest
class ProbeReuseTest {

    @Inject
    BackendProbes probes;

    @Test
    void aBurstOfHealthRequestsProbesEachBackendOnce() {
        BackendProbe probe = probes.all().get(0);
        Set<Long> starts = new HashSet<>();
        long began = System.nanoTime();
        for (int i = 0; i < 50; i++) {
            // 200 or 503: the answer depends on the stack's state (an earlier test may have left a replica catching
            // up), the probe count does not
            TestApi.management().get("/q/health/group/backends").then().statusCode(anyOf(is(200), is(503)));
            ProbeResult result = probes.recent(probe).await().atMost(Duration.ofSeconds(5));
            starts.add(System.identityHashCode(result) * 1L);
        }
        long tookMs = (System.nanoTime() - began) / 1_000_000;
        // one result object per probe run: within 1 s of reuse, at most one run per started second (and one more)
        assertTrue(
                starts.size() <= tookMs / 1_000 + 2,
                starts.size() + " probe runs for 50 requests in " + tookMs + " ms");
        ProbeResult first = probes.recent(probe).await().atMost(Duration.ofSeconds(5));
        assertEquals(first, probes.recent(probe).await().atMost(Duration.ofSeconds(5)), "a result reused within 1 s");
    }
}
