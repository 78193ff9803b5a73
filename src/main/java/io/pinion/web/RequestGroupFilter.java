package io.pinion.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Times every HTTP request by endpoint group ({@link RequestMeters}), from the first route to the end of the
 * response, with its status. Runs on every request, so it only compares path prefixes and adds one end handler.
 * A route on the router rather than a {@code @RouteFilter}, as {@link RequestSizeFilter} is, which needs no
 * reactive-routes extension; it runs right after that filter (and {@link RequestIds}).
 */
@ApplicationScoped
public class RequestGroupFilter {

    private final RequestMeters meters;

    RequestGroupFilter(RequestMeters meters) {
        this.meters = meters;
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 2).handler(this::measure);
    }

    private void measure(RoutingContext context) {
        long start = System.nanoTime();
        RequestGroup group = RequestGroup.of(context.request().path());
        context.addEndHandler(
                ended -> meters.record(group, context.response().getStatusCode(), System.nanoTime() - start));
        context.next();
    }
}
