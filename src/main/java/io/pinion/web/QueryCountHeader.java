package io.pinion.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.mysql.QueryCount;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Reports how many MySQL statements a request of the API ran: the {@code X-Mysql-Queries} response header and the
 * {@code pinion_mysql_queries_per_request} summary. Application-layer joins should keep this to one query per
 * list plus one per shard touched.
 * <p>
 * A route that adds a headers-end handler, rather than a response filter of Quarkus REST: a filter is one more
 * handler, with its own request-scope check, in every request's REST chain. The count is read from the request's
 * Vert.x context, where the MySQL clients count their statements.
 */
@ApplicationScoped
public class QueryCountHeader {

    public static final String HEADER = "X-Mysql-Queries";

    private final DistributionSummary perRequest;

    QueryCountHeader(MeterRegistry registry) {
        this.perRequest = DistributionSummary.builder("pinion.mysql.queries.per.request")
                .description("MySQL statements run by one API request")
                .register(registry);
    }

    void install(@Observes Router router) {
        router.route("/v1/*").order(Integer.MIN_VALUE + 3).handler(this::report);
    }

    private void report(RoutingContext context) {
        Context requestContext = Vertx.currentContext();
        context.addHeadersEndHandler(ended -> {
            int count = QueryCount.in(requestContext);
            if (count >= 0) {
                context.response().putHeader(HEADER, Integer.toString(count));
                perRequest.record(count);
            }
        });
        context.next();
    }
}
