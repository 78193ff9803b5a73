package io.pinion.web;

import java.util.Map;
import java.util.stream.Collectors;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

import io.pinion.failure.Conflict;
import io.pinion.failure.Failure;
import io.pinion.failure.Forbidden;
import io.pinion.failure.HostBusy;
import io.pinion.failure.InvalidInput;
import io.pinion.failure.NotFound;
import io.pinion.failure.OutOfSpace;
import io.pinion.failure.Outages;
import io.pinion.failure.Overloaded;
import io.pinion.failure.RateLimited;
import io.pinion.failure.Refused;
import io.pinion.failure.TooLarge;
import io.pinion.failure.Unauthenticated;
import io.pinion.failure.Unavailable;
import io.pinion.topology.InvalidTopologyException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.UnauthorizedException;

/**
 * The one place where failures become HTTP responses. Every body is an {@link ErrorBody}.
 */
public class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class);

    /**
     * The HTTP status of each kind of failure (none is a subtype of another, but for {@link HostBusy}, an
     * {@link Unavailable}): the one place this mapping lives.
     */
    private static final Map<Class<? extends Failure>, Integer> STATUSES = Map.ofEntries(
            Map.entry(InvalidInput.class, 400), Map.entry(Unauthenticated.class, 401), Map.entry(Forbidden.class, 403),
            Map.entry(NotFound.class, 404), Map.entry(Conflict.class, 409), Map.entry(TooLarge.class, 413),
            Map.entry(RateLimited.class, 429), Map.entry(Unavailable.class, 503), Map.entry(Refused.class, 503),
            Map.entry(Overloaded.class, 503), Map.entry(OutOfSpace.class, 507));

    /** Server errors logged per second per code at most; a storm of them (an overload, an outage) logs a count. */
    private static final LogThrottle THROTTLE = new LogThrottle(1_000);

    @ServerExceptionMapper
    public Response failure(Failure e) {
        int status = statusOf(e);
        if (status >= 500) {
            long suppressed = THROTTLE.admit(e.code());
            if (suppressed >= 0) {
                LOG.warnf("%s: %s%s%s", e.code(), e.getMessage(),
                        e.getCause() == null ? "" : " (" + Outages.describe(e.getCause()) + ")",
                        suppressed == 0 ? "" : " [" + suppressed + " more " + e.code() + " since the last one logged]");
            }
        }
        long retryAfter = e instanceof RateLimited limited ? limited.retryAfterSeconds()
                : e instanceof Overloaded overloaded ? overloaded.retryAfterSeconds()
                : e instanceof HostBusy busy ? busy.retryAfterSeconds() : -1;
        if (retryAfter >= 0) {
            return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                    .header("Retry-After", Long.toString(retryAfter))
                    .entity(new ErrorBody(e.code(), e.getMessage())).build();
        }
        return respond(status, e.code(), e.getMessage());
    }

    /** The status of a failure: that of its kind, 500 for any other. */
    static int statusOf(Failure failure) {
        for (var kind : STATUSES.entrySet()) {
            if (kind.getKey().isInstance(failure)) {
                return kind.getValue();
            }
        }
        return 500;
    }

    @ServerExceptionMapper
    public Response invalidTopology(InvalidTopologyException e) {
        return respond(400, "invalid_topology", e.getMessage());
    }

    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e) {
        return respond(401, "unauthorized", "a valid bearer token is required");
    }

    @ServerExceptionMapper
    public Response authenticationFailed(AuthenticationFailedException e) {
        return respond(401, "unauthorized", "the bearer token is invalid or expired");
    }

    @ServerExceptionMapper
    public Response forbidden(io.quarkus.security.ForbiddenException e) {
        return respond(403, "forbidden", "not allowed for this user");
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonProcessingException json) {
                return json(json);
            }
        }
        return respond(status, HttpCodes.codeOf(status), HttpCodes.messageOf(status, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response violations(ConstraintViolationException e) {
        boolean returnValue = e.getConstraintViolations().stream()
                .anyMatch(v -> lastNode(v.getPropertyPath()).getKind() == ElementKind.RETURN_VALUE);
        if (returnValue) {
            LOG.errorf("response failed validation: %s", e.getMessage());
            return respond(500, "internal_error", "the service produced an invalid response");
        }
        String message = e.getConstraintViolations().stream()
                .map(ErrorMappers::describe)
                .sorted()
                .collect(Collectors.joining("; "));
        return respond(400, "validation_failed", message);
    }

    @ServerExceptionMapper
    public Response mismatchedJson(MismatchedInputException e) {
        String field = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining("."));
        return respond(400, "malformed_json",
                (field.isEmpty() ? "the body" : "field '" + field + "'") + " has the wrong type or shape");
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        return respond(
                400,
                "malformed_json",
                "the body is not valid JSON"
                        + (e.getLocation() == null
                                ? ""
                                : " (line " + e.getLocation().getLineNr() + ", column "
                                        + e.getLocation().getColumnNr() + ")"));
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (Outages.isUnavailable(e)) {
            if (THROTTLE.admit("backend_unavailable") >= 0) {
                LOG.warnf("backend unavailable: %s", Outages.describe(e));
            }
            return respond(503, "backend_unavailable", "a backend this request needs is unavailable; retry shortly");
        }
        LOG.error("unexpected failure", e);
        return respond(500, "internal_error", "unexpected failure; see the service log");
    }

    static Response respond(int status, String code, String message) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorBody(code, message))
                .build();
    }

    private static String describe(ConstraintViolation<?> violation) {
        return lastNode(violation.getPropertyPath()).getName() + ": " + violation.getMessage();
    }

    private static Path.Node lastNode(Path path) {
        Path.Node last = null;
        for (Path.Node node : path) {
            last = node;
        }
        return last;
    }
}
