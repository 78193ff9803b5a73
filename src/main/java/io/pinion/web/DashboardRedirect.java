package io.pinion.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.vertx.ext.web.Router;

/**
 * {@code /admin} → {@code /admin/}. The operator's dashboard is the static {@code META-INF/resources/admin/index.html},
 * which Quarkus serves at the directory's path with the slash only; without it the page's relative links would
 * resolve against {@code /} anyway.
 */
@ApplicationScoped
public class DashboardRedirect {

    void install(@Observes Router router) {
        // a Vert.x route path matches with and without its trailing slash: the page itself goes on
        router.get("/admin").handler(context -> {
            if (context.request().path().equals("/admin")) {
                context.redirect("/admin/");
            } else {
                context.next();
            }
        });
    }
}
