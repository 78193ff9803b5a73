package io.pinion.mysql;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The MySQL hosts whose shard databases are known to be at the latest schema. Statements go only to those: a host
 * that could not be reached when the service started is migrated once it answers ({@link MigrateOnStart}), and until
 * then the requests that need it answer 503 like those of a host that is down, instead of meeting an older schema.
 *
 * <p>With {@code pinion.mysql.migrate-at-start=false} every host is taken as current: the schema is then another
 * instance's or the operator's business.
 */
@ApplicationScoped
public class SchemaGate {

    private final Set<String> verified = ConcurrentHashMap.newKeySet();
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private volatile boolean enforcing;

    SchemaGate(MeterRegistry registry) {
        registry.gauge("pinion.mysql.schema.unverified.hosts", pending, Set::size);
    }

    /** Whether statements may go to the host. */
    public boolean open(String host) {
        return !enforcing || verified.contains(host);
    }

    /** The hosts waiting to be migrated, for logs and the admin view. */
    public Set<String> pending() {
        return Set.copyOf(pending);
    }

    void enforce() {
        enforcing = true;
    }

    void verified(String host) {
        verified.add(host);
        pending.remove(host);
    }

    void waitFor(String host) {
        verified.remove(host);
        pending.add(host);
    }

    /** Forgets hosts that left the topology. */
    void retain(Collection<String> hosts) {
        verified.retainAll(hosts);
        pending.retainAll(hosts);
    }
}
