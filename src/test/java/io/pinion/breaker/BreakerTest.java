package io.pinion.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * The breaker: an outage opens it, calls then fail at once without reaching the backend, one trial goes through
 * after the open time and closes it; a trial its caller gives up on does not leave it stuck open.
 */
class BreakerTest {

    private final AtomicInteger rejected = new AtomicInteger();
    private final Breaker breaker = new Breaker("redis-9", 50, rejected::incrementAndGet);

    @Test
    void anOutageOpensItCallsFailAtOnceAndATrialClosesIt() throws Exception {
        AtomicInteger reached = new AtomicInteger();
        call(() -> { reached.incrementAndGet(); return Uni.createFrom().failure(new ConnectException("refused")); })
                .assertFailedWith(ConnectException.class);
        assertTrue(breaker.isOpen());
        call(() -> { reached.incrementAndGet(); return Uni.createFrom().item("ok"); }).assertFailedWith(IllegalStateException.class);
        assertEquals(1, reached.get(), "an open breaker does not call the backend");
        assertEquals(1, rejected.get());
        Thread.sleep(60);
        call(() -> { reached.incrementAndGet(); return Uni.createFrom().item("ok"); }).assertItem("ok");
        assertFalse(breaker.isOpen(), "the trial closed it");
    }

    @Test
    void aCancelledTrialLetsTheNextCallTryAgain() throws Exception {
        call(() -> Uni.createFrom().failure(new ConnectException("refused")));
        Thread.sleep(60);
        UniAssertSubscriber<String> trial = call(() -> Uni.createFrom().<String>nothing());
        trial.cancel();
        call(() -> Uni.createFrom().item("ok")).assertItem("ok");
        assertFalse(breaker.isOpen());
    }

    @Test
    void aFailureThatIsNoOutageLeavesItClosed() {
        call(() -> Uni.createFrom().failure(new IllegalArgumentException("bad request"))).assertFailedWith(IllegalArgumentException.class);
        assertFalse(breaker.isOpen());
    }

    private UniAssertSubscriber<String> call(java.util.function.Supplier<Uni<String>> work) {
        return breaker.call(work, failure -> failure instanceof ConnectException, () -> new IllegalStateException("open"))
                .subscribe().withSubscriber(UniAssertSubscriber.create());
    }
}
