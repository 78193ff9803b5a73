package io.pinion.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.pinion.Wait;
import io.pinion.failure.Overloaded;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * The breaker: a backend out of reach opens it, calls then fail at once without reaching the backend, one trial goes
 * through after the open time and closes it; a trial its caller gives up on does not leave it stuck open; one call
 * without an answer in time does not open it, three in a row do, and an answer in between starts the count again;
 * calls sent before an answer that time out after it do not count.
 */
class BreakerTest {

    private final AtomicInteger rejected = new AtomicInteger();
    private final Breaker breaker = new Breaker("redis-9", 50, 3, rejected::incrementAndGet);

    @Test
    void anOutageOpensItCallsFailAtOnceAndATrialClosesIt() throws Exception {
        AtomicInteger reached = new AtomicInteger();
        call(() -> { reached.incrementAndGet(); return Uni.createFrom().failure(new ConnectException("refused")); })
                .assertFailedWith(ConnectException.class);
        assertTrue(breaker.isOpen());
        call(() -> {
                    reached.incrementAndGet();
                    return Uni.createFrom().item("ok");
                })
                .assertFailedWith(IllegalStateException.class);
        assertEquals(1, reached.get(), "an open breaker does not call the backend");
        assertEquals(1, rejected.get());
        Wait.pause(Duration.ofMillis(60), "the open time (50 ms) before a trial");
        call(() -> { reached.incrementAndGet(); return Uni.createFrom().item("ok"); }).assertItem("ok");
        assertFalse(breaker.isOpen(), "the trial closed it");
    }

    @Test
    void aCancelledTrialLetsTheNextCallTryAgain() throws Exception {
        call(() -> Uni.createFrom().failure(new ConnectException("refused")));
        Wait.pause(Duration.ofMillis(60), "the open time (50 ms) before a trial");
        UniAssertSubscriber<String> trial = call(() -> Uni.createFrom().<String>nothing());
        trial.cancel();
        call(() -> Uni.createFrom().item("ok")).assertItem("ok");
        assertFalse(breaker.isOpen());
    }

    @Test
    void aFailureThatIsNoOutageLeavesItClosed() {
        call(() -> Uni.createFrom().failure(new IllegalArgumentException("bad request")))
                .assertFailedWith(IllegalArgumentException.class);
        assertFalse(breaker.isOpen());
    }

    @Test
    void oneSlowCallDoesNotOpenItSeveralInARowDo() throws InterruptedException {
        call(() -> Uni.createFrom().failure(new TimeoutException("slow"))).assertFailedWith(TimeoutException.class);
        call(() -> Uni.createFrom().failure(new TimeoutException("slow")));
        assertFalse(breaker.isOpen(), "two slow calls");
        call(() -> Uni.createFrom().item("ok")).assertItem("ok");
        call(() -> Uni.createFrom().failure(new TimeoutException("slow")));
        call(() -> Uni.createFrom().failure(new TimeoutException("slow")));
        assertFalse(breaker.isOpen(), "an answer in between started the count again");
        Wait.pause(Duration.ofMillis(60), "the open time (50 ms) with no answer");
        call(() -> Uni.createFrom().failure(new TimeoutException("slow")));
        assertTrue(breaker.isOpen(), "three slow calls in a row and no answer within the open time");
    }

    @Test
    void timeoutsWhileOtherCallsAreAnsweredDoNotOpenIt() {
        call(() -> Uni.createFrom().item("ok")).assertItem("ok");
        for (int i = 0; i < 10; i++) {
            call(() -> Uni.createFrom().failure(new TimeoutException("slow")));
            call(() -> Uni.createFrom().failure(new TimeoutException("slow")));
            call(() -> Uni.createFrom().failure(new TimeoutException("slow")));
            assertFalse(breaker.isOpen(), "a busy service: the backend answered a moment ago");
            call(() -> Uni.createFrom().item("ok")).assertItem("ok");
        }
    }

    @Test
    void callsStuckBehindAnOutageThatEndedDoNotOpenIt() {
        java.util.List<io.smallrye.mutiny.subscription.UniEmitter<? super String>> stuck = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            call(() -> Uni.createFrom().emitter(stuck::add));
        }
        call(() -> Uni.createFrom().item("ok")).assertItem("ok"); // sent after them, answered: the backend is back
        stuck.forEach(emitter -> emitter.fail(new TimeoutException("slow")));
        assertFalse(breaker.isOpen(), "three timeouts of calls sent before the answer");
    }

    @Test
    void aBusyPoolOrAnOverloadSaysNothingOfTheBackend() {
        for (int i = 0; i < 5; i++) {
            call(() -> Uni.createFrom().failure(new Overloaded("busy")));
            call(() -> Uni.createFrom().failure(new RuntimeException(new ConnectionPoolTooBusyException("busy"))));
        }
        assertFalse(breaker.isOpen());
    }

    private UniAssertSubscriber<String> call(java.util.function.Supplier<Uni<String>> work) {
        return breaker.call(work, BreakerEvidence::of, () -> new IllegalStateException("open"))
                .subscribe().withSubscriber(UniAssertSubscriber.create());
    }
}
