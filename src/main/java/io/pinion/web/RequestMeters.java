package io.pinion.web;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Request meters per {@link RequestGroup}, registered once: the timer {@code pinion_http_group_seconds{group}}
 * (its count is the number of requests; its p99 covers the last 20–30 s) and the counter
 * {@code pinion_http_group_errors_total{group}} of 5xx answers. Recording is a lookup in an array plus the meters'
 * own lock-free updates. The operator's overview finds them by name in the registry, as it finds every other meter.
 */
@ApplicationScoped
public class RequestMeters {

    static final String TIMER = "pinion.http.group";
    static final String ERRORS = "pinion.http.group.errors";

    private final Timer[] timers = new Timer[RequestGroup.values().length];
    private final Counter[] errors = new Counter[RequestGroup.values().length];

    RequestMeters(MeterRegistry registry) {
        for (RequestGroup group : RequestGroup.values()) {
            timers[group.ordinal()] = Timer.builder(TIMER)
                    .description("HTTP requests by endpoint group, until the response ended")
                    .tag("group", group.tag())
                    .publishPercentiles(0.99)
                    .distributionStatisticExpiry(Duration.ofSeconds(30))
                    .register(registry);
            errors[group.ordinal()] = Counter.builder(ERRORS)
                    .description("HTTP requests by endpoint group answered with a 5xx status")
                    .tag("group", group.tag())
                    .register(registry);
        }
    }

    /** Records one request that ended with {@code status} after {@code nanos}. */
    public void record(RequestGroup group, int status, long nanos) {
        timers[group.ordinal()].record(nanos, TimeUnit.NANOSECONDS);
        if (status >= 500) {
            errors[group.ordinal()].increment();
        }
    }
}
