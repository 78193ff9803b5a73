package io.pinion.ops.failover;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * MySQL failover metrics: {@code pinion_mysql_promotions_seconds{host,trigger}} (a timer: how many promotions and how
 * long they took), {@code pinion_mysql_master_unreachable_seconds{host}} (how long the automatic mode has seen the
 * master down; 0 while it answers) and {@code pinion_mysql_diverged_transactions{host}} (what the last refused rejoin
 * found: transactions the old master holds that the new one never received).
 */
@ApplicationScoped
public class FailoverMetrics {

    private final MeterRegistry registry;
    private final Map<String, AtomicLong> unreachableMs = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> diverged = new ConcurrentHashMap<>();

    FailoverMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void promoted(String host, MysqlFailover.Trigger trigger, long tookMs) {
        Timer.builder("pinion.mysql.promotions").description("Promotions of a MySQL host's replica")
                .tag("host", host).tag("trigger", trigger.name().toLowerCase())
                .register(registry).record(Duration.ofMillis(tookMs));
    }

    void unreachableFor(String host, long ms) {
        unreachableMs.computeIfAbsent(host, name -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder("pinion.mysql.master.unreachable.seconds", value, v -> v.get() / 1000.0)
                    .description("How long the host's master has not answered the failover check").tag("host", name)
                    .register(registry);
            return value;
        }).set(ms);
    }

    void diverged(String host, long transactions) {
        diverged.computeIfAbsent(host, name -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder("pinion.mysql.diverged.transactions", value, AtomicLong::get)
                    .description("Transactions the host's replica holds that its master never received (last rejoin)")
                    .tag("host", name).register(registry);
            return value;
        }).set(transactions);
    }
}
