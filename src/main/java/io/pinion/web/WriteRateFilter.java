package io.pinion.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.jwt.JsonWebToken;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pinion.failure.RateLimited;
import io.pinion.ratelimit.RateLimits;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Applies the per-user write limit to every authenticated write of the public API (pins, boards, follows, likes,
 * profiles). Queue and job endpoints (workers, with queues' own rate limits), admin endpoints, sign-up and login
 * (limited per address and username where they are handled) are left out; so are requests without a valid token,
 * which their resources answer with 401.
 * <p>
 * A route on the router, after HTTP authentication and authorization ({@link #ORDER}), rather than a request filter
 * of Quarkus REST: reads skip it with one comparison, where a filter returning a {@code Uni} made every request of
 * the API, reads included, subscribe to it and suspend and resume the REST chain (with the response filter of
 * {@link QueryCountHeader}, 4–6% of the throughput of GET pin and the follow check, docs/benchmarks.md). Over
 * the limit it answers 429 {@code rate_limited} with {@code Retry-After}, the body in the one error shape
 * ({@link ErrorBody}), as the error mappers would.
 */
@ApplicationScoped
public class WriteRateFilter {

    /**
     * After Quarkus's HTTP authentication (order -200: the deferred identity is in the routing context) and
     * authorization (-100) and the auth failure handler's hand-back (-99), before Quarkus REST.
     */
    static final int ORDER = -98;

    private final RateLimits limits;
    private final ObjectMapper json;

    WriteRateFilter(RateLimits limits, ObjectMapper json) {
        this.limits = limits;
        this.json = json;
    }

    void install(@Observes Router router) {
        router.route().order(ORDER).handler(this::limit);
    }

    private void limit(RoutingContext context) {
        HttpMethod method = context.request().method();
        if (method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS
                || !limited(context.normalizedPath())) {
            context.next();
            return;
        }
        Context requestContext = Vertx.currentContext();
        // the body is not read yet: held while the identity resolves (at once for a JWT, unless it must be fetched)
        context.request().pause();
        QuarkusHttpUser.getSecurityIdentity(context, null).subscribe().with(
                identity -> onContext(requestContext, () -> admit(context, identity)),
                // no valid token: the resource answers 401 (the same failure, memoized, reaches it)
                failure -> onContext(requestContext, () -> proceed(context)));
    }

    private void admit(RoutingContext context, SecurityIdentity identity) {
        if (identity != null && !identity.isAnonymous() && identity.getPrincipal() instanceof JsonWebToken token) {
            try {
                limits.write(token.getSubject());
            } catch (RateLimited limited) {
                context.request().resume();
                refuse(context, limited);
                return;
            }
        }
        proceed(context);
    }

    private static void proceed(RoutingContext context) {
        context.request().resume();
        context.next();
    }

    private void refuse(RoutingContext context, RateLimited limited) {
        String body;
        try {
            body = json.writeValueAsString(new ErrorBody(limited.code(), limited.getMessage(),
                    RequestIds.of(context)));
        } catch (JsonProcessingException e) {
            context.fail(e);
            return;
        }
        context.response().setStatusCode(429)
                .putHeader("Content-Type", "application/json")
                .putHeader("Retry-After", Long.toString(limited.retryAfterSeconds()))
                .end(body);
    }

    /** Runs {@code step} on the request's context: the identity may have been resolved on another thread. */
    private static void onContext(Context requestContext, Runnable step) {
        if (requestContext == null || Vertx.currentContext() == requestContext) {
            step.run();
        } else {
            requestContext.runOnContext(ignored -> step.run());
        }
    }

    static boolean limited(String path) {
        return path.startsWith("/v1/") && !path.startsWith("/v1/queues") && !path.startsWith("/v1/jobs")
                && !path.startsWith("/v1/admin") && !path.equals("/v1/sessions") && !path.equals("/v1/users");
    }
}
