package io.pinion.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

import jakarta.ws.rs.core.Response;

import org.junit.jupiter.api.Test;

import io.pinion.breaker.Breaker;
import io.pinion.breaker.BreakerEvidence;
import io.pinion.failure.HostBusy;
import io.pinion.failure.Outages;
import io.pinion.failure.Unavailable;

class BackendFailuresTest {

    @Test
    void aRefusedConnectionDeepInTheCauseChainIsUnavailable() {
        Throwable failure = new CompletionException(
                new IllegalStateException("wrapped", new ConnectException("Connection refused")));
        assertTrue(Outages.isUnavailable(failure));
    }

    @Test
    void aTimeoutIsUnavailable() {
        assertTrue(Outages.isUnavailable(new io.smallrye.mutiny.TimeoutException()));
    }

    @Test
    void aProgrammingErrorIsNotUnavailable() {
        assertFalse(Outages.isUnavailable(new NullPointerException("bug")));
    }

    @Test
    void unavailableBackendsMapTo503InTheErrorShapeAndBugsTo500() {
        Response unavailable =
                new ErrorMappers().unexpected(new CompletionException(new ConnectException("Connection refused")));
        assertEquals(503, unavailable.getStatus());
        assertEquals("backend_unavailable", ((ErrorBody) unavailable.getEntity()).error());

        // a host that kept answering other statements: busy, not down, and no evidence against its breaker
        HostBusy busy = new HostBusy("mysql host for shard 3", new TimeoutException("no answer within 1500 ms"));
        Response overloaded = new ErrorMappers().failure(busy);
        assertEquals(503, overloaded.getStatus());
        assertEquals("overloaded", ((ErrorBody) overloaded.getEntity()).error());
        assertEquals("1", overloaded.getHeaderString("Retry-After"));
        assertTrue(Outages.isUnavailable(busy), "its outcome is unknown, as after any outage");
        assertEquals(Breaker.Evidence.NONE, BreakerEvidence.of(busy));
        assertEquals(Breaker.Evidence.SLOW, BreakerEvidence.of(
                new Unavailable("mysql host for shard 3", new TimeoutException("no answer within 1500 ms"))));

        Response bug = new ErrorMappers().unexpected(new NullPointerException("bug"));
        assertEquals(500, bug.getStatus());
        assertEquals("internal_error", ((ErrorBody) bug.getEntity()).error());
    }
}
