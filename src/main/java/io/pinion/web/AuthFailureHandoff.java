package io.pinion.web;

import java.util.function.BiConsumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.vertx.http.runtime.security.HttpSecurityRecorder.DefaultAuthFailureHandler;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Hands authentication failures to the REST layer's error mappers, as Quarkus REST's own filter does, without that
 * filter's cost on every request. Quarkus's authentication filter (route order -200) gives each request a default
 * failure handler; Quarkus REST's filter (order -199) replaces it by one that fails the routing context, and, with
 * metrics present, first matches the request against a request mapper it builds anew for every request (to name the
 * route template in case authentication fails): 11% of the service's CPU on GET pin and the follow check (JFR). This
 * route has the same order and is added before the filters are, so it runs between the two and leaves the REST
 * filter nothing to replace. The route template on failed requests only fed the per-route HTTP timer, which is off.
 * <p>
 * Quarkus REST takes its own handler out again when it begins processing a request, because from there on its abort
 * chain maps the failure: a handler left in would also fail the routing context, and the failure handlers would
 * answer a second time ("Response has already been written"). It only recognizes its own class, so a second route,
 * right after HTTP authorization has run ({@link #HANDED_BACK}), takes this one out the same way.
 */
@ApplicationScoped
public class AuthFailureHandoff {

    /** Quarkus REST's filter's order: the negated priority of its filter. */
    static final int ORDER = -199;

    /** Right after the HTTP authorization filter (order -100), the last one that may need the handler. */
    static final int HANDED_BACK = -99;

    /** What Quarkus REST's filter puts in: the failure goes to the routing context, and so to the error mappers. */
    private static final BiConsumer<RoutingContext, Throwable> TO_ERROR_MAPPERS = (context, failure) -> {
        DefaultAuthFailureHandler.markIfOtherAuthenticationFailure(context, failure);
        if (!context.failed()) {
            context.fail(DefaultAuthFailureHandler.extractRootCause(failure));
        }
    };

    void install(@Observes Router router) {
        router.route().order(ORDER).handler(AuthFailureHandoff::handOff);
        router.route().order(HANDED_BACK).handler(AuthFailureHandoff::handBack);
    }

    private static void handOff(RoutingContext context) {
        if (context.get(QuarkusHttpUser.AUTH_FAILURE_HANDLER) instanceof DefaultAuthFailureHandler) {
            context.put(QuarkusHttpUser.AUTH_FAILURE_HANDLER, TO_ERROR_MAPPERS);
        }
        context.next();
    }

    private static void handBack(RoutingContext context) {
        if (context.get(QuarkusHttpUser.AUTH_FAILURE_HANDLER) == TO_ERROR_MAPPERS) {
            context.remove(QuarkusHttpUser.AUTH_FAILURE_HANDLER);
        }
        context.next();
    }
}
