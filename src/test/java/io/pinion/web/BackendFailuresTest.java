package io.pinion.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;

import jakarta.ws.rs.core.Response;

import org.junit.jupiter.api.Test;

import io.pinion.failure.Outages;

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

        Response bug = new ErrorMappers().unexpected(new NullPointerException("bug"));
        assertEquals(500, bug.getStatus());
        assertEquals("internal_error", ((ErrorBody) bug.getEntity()).error());
    }
}
