package io.pinion.web;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.MDC;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Gives every request an id: the caller's {@value #HEADER} when it is one (1 to {@value #MAX_LENGTH} characters of
 * letters, digits and {@code . _ : - / + = @}), else a new one (16 hex digits). The id goes back on the response's
 * {@value #HEADER} header, into every error body ({@link ErrorBody#requestId}) and into the logging context
 * ({@code %X{requestId}} in the text log format, the field {@code requestId} of the JSON one): the request runs on a
 * Vert.x context of its own, which carries the logging context across every Mutiny hop and worker of that request.
 * It is the router's first route, so even a request refused for its size has one.
 */
@ApplicationScoped
public class RequestIds {

    public static final String HEADER = "X-Request-Id";
    /** The logging context's key of the id. */
    public static final String KEY = "requestId";
    static final int MAX_LENGTH = 64;
    private static final HexFormat HEX = HexFormat.of();

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(RequestIds::assign);
    }

    private static void assign(RoutingContext context) {
        String id = accepted(context.request().getHeader(HEADER));
        if (id == null) {
            id = HEX.toHexDigits(ThreadLocalRandom.current().nextLong());
        }
        context.put(KEY, id);
        MDC.put(KEY, id);
        context.response().putHeader(HEADER, id);
        context.next();
    }

    /** The caller's id when it is acceptable, else null. */
    static String accepted(String header) {
        if (header == null || header.isEmpty() || header.length() > MAX_LENGTH) {
            return null;
        }
        for (int i = 0; i < header.length(); i++) {
            char c = header.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || ".:_-/+=@".indexOf(c) >= 0;
            if (!allowed) {
                return null;
            }
        }
        return header;
    }

    /** The id of the request being served in this context, or null outside one. */
    public static String current() {
        Object id = MDC.get(KEY);
        return id == null ? null : id.toString();
    }

    /** The id of the request of {@code context}. */
    static String of(RoutingContext context) {
        String id = context.get(KEY);
        return id == null ? current() : id;
    }
}
