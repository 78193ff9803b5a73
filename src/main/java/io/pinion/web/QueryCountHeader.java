package io.pinion.web;

import jakarta.ws.rs.container.ContainerResponseContext;

import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.mysql.QueryCount;

/**
 * Reports how many MySQL statements a request ran: the {@code X-Mysql-Queries} response header and the
 * {@code pinion_mysql_queries_per_request} summary. Application-layer joins should keep this to one query per
 * list plus one per shard touched.
 */
public class QueryCountHeader {

    public static final String HEADER = "X-Mysql-Queries";

    private final DistributionSummary perRequest;

    QueryCountHeader(MeterRegistry registry) {
        this.perRequest = DistributionSummary.builder("pinion.mysql.queries.per.request")
                .description("MySQL statements run by one API request")
                .register(registry);
    }

    @ServerResponseFilter
    public void report(ContainerResponseContext response) {
        int count = QueryCount.current();
        if (count >= 0) {
            response.getHeaders().putSingle(HEADER, count);
            perRequest.record(count);
        }
    }
}
