package io.pinion.hedge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import io.pinion.failure.Outages;
import io.pinion.web.ErrorMappers;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * A hedged read when sides fail: immediate failover to the standby, and one 503 carrying both failures when both
 * sides fail.
 */
class HedgedReaderFailureTest extends HedgedReaderFixture {

    @Test
    void aFailingPrimaryFailsOverAtOnceWithoutWaitingForTheDelay() {
        var read = read();
        primary.call(0).fail(new IOException("connection reset"));

        assertEquals(1, standby.count());
        assertEquals(0, timer.pending());
        standby.call(0).succeed("s");

        read.assertItem(new HedgedResult<>("s", HedgeOutcome.FAILOVER));
        timer.advance(Duration.ofSeconds(1));
        assertEquals(1, standby.count());
        countedOnlyAs(HedgeOutcome.FAILOVER);
    }

    @Test
    void aPrimarySourceThatThrowsCountsAsAFailedPrimary() {
        var read = reader.<String>readWithOutcome(() -> {
            throw new IllegalStateException("no connection");
        }, standby).subscribe().withSubscriber(UniAssertSubscriber.create());
        standby.call(0).succeed("s");

        read.assertItem(new HedgedResult<>("s", HedgeOutcome.FAILOVER));
    }

    @Test
    void bothSidesFailingGivesOne503WithTheFeedCodeAndBothFailures() {
        IOException primaryDown = new IOException("primary down");
        TimeoutException standbyTimeout = new TimeoutException("standby timed out");
        var read = read();
        primary.call(0).fail(primaryDown);
        read.assertNotTerminated();
        standby.call(0).fail(standbyTimeout);

        var failure = (HedgedReadFailedException) read.assertFailedWith(HedgedReadFailedException.class).getFailure();
        assertEquals(503, new ErrorMappers().failure(failure).getStatus());
        assertEquals("feed_unavailable", failure.code());
        assertSame(primaryDown, failure.getCause());
        assertSame(primaryDown, failure.primaryFailure());
        assertSame(standbyTimeout, failure.standbyFailure());
        assertEquals("materialized_feed is unavailable on primary and standby; retry shortly", failure.getMessage(),
                "the message names the role, never a class: the failures stay on the exception, for logs");
        assertTrue(Outages.isUnavailable(failure));
        countedOnlyAs(HedgeOutcome.BOTH_FAILED);
    }

    @Test
    void bothSidesFailingAfterAHedgeAlsoGivesOne503() {
        var read = read();
        timer.advance(DELAY);
        standby.call(0).fail(new IOException("standby down"));
        read.assertNotTerminated();
        primary.call(0).fail(new IOException("primary down"));

        var failure = (HedgedReadFailedException) read.assertFailedWith(HedgedReadFailedException.class).getFailure();
        assertEquals("primary down", failure.getCause().getMessage());
        assertEquals("standby down", failure.standbyFailure().getMessage());
        countedOnlyAs(HedgeOutcome.BOTH_FAILED);
    }
}
