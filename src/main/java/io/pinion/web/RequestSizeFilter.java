package io.pinion.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Over-long request lines and headers get the one error shape: 414 {@code uri_too_long} past {@link #MAX_URI}
 * characters, 431 {@code headers_too_large} past {@link #MAX_HEADERS} bytes of headers. The HTTP layer itself
 * accepts up to 256 KiB of each ({@code quarkus.http.limits.*}) so that these answers come from here; beyond that
 * the connection is refused by the HTTP decoder itself.
 */
@ApplicationScoped
public class RequestSizeFilter {

    static final int MAX_URI = 8192;
    static final int MAX_HEADERS = 16384;

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 1).handler(context -> {
            HttpServerRequest request = context.request();
            if (request.uri().length() > MAX_URI) {
                reject(
                        context,
                        414,
                        "uri_too_long",
                        "the request line is longer than " + MAX_URI + " characters");
                return;
            }
            int headers = 0;
            for (var header : request.headers()) {
                headers += header.getKey().length() + header.getValue().length() + 4;
            }
            if (headers > MAX_HEADERS) {
                reject(
                        context,
                        431,
                        "headers_too_large",
                        "the request headers are larger than " + MAX_HEADERS + " bytes");
                return;
            }
            context.next();
        });
    }

    private static void reject(RoutingContext context, int status, String code, String message) {
        context.response().setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .putHeader("Connection", "close")
                .end("{\"error\":\"" + code + "\",\"message\":\"" + message + "\",\"requestId\":\""
                        + RequestIds.of(context) + "\"}");
    }
}
