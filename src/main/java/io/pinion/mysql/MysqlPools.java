package io.pinion.mysql;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.pinion.failure.NotFound;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HostPort;
import io.pinion.topology.MysqlHost;
import io.pinion.topology.TopologyChanged;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * One reactive connection pool per MySQL host of the topology, and routing from a logical shard to its host's pool.
 */
@ApplicationScoped
public class MysqlPools {

    private final Vertx vertx;
    private final MysqlConfig config;
    private final ActiveTopology topology;
    private final Map<String, Pool> pools = new LinkedHashMap<>();
    /** One connection per replica, for watching its replication; never used for the service's reads or writes. */
    private final Map<String, Pool> replicaPools = new LinkedHashMap<>();
    /** Pools closed by a topology change, forgotten once nothing refers to them. */
    private final io.pinion.breaker.Breakers breakers;
    private final Set<Pool> retired = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    MysqlPools(Vertx vertx, MysqlConfig config, ActiveTopology topology, io.pinion.breaker.Breakers breakers) {
        this.breakers = breakers;
        this.vertx = vertx;
        this.config = config;
        this.topology = topology;
    }

    /** The pool of the named host, created on first use. */
    public synchronized Pool forHost(String hostName) {
        return pools.computeIfAbsent(hostName, name -> create(host(name)));
    }

    /**
     * A one-connection pool to the host's replica, for watching its replication; empty when the host has none.
     */
    public synchronized Optional<Pool> replicaOf(String hostName) {
        MysqlHost host = host(hostName);
        if (host.replica() == null) {
            return Optional.empty();
        }
        return Optional.of(replicaPools.computeIfAbsent(hostName,
                name -> create("mysql-" + name + "-replica", host.replicaEndpoint(), 1)));
    }

    /** The pool of the host that serves the shard in the current topology. */
    public Pool forShard(int shard) {
        MysqlHost host = topology.get().mysql().hostOf(shard)
                .orElseThrow(() -> new NotFound("shard_not_found", "shard " + shard + " is not in the topology"));
        return forHost(host.name());
    }

    /** Pools of every host of the current topology, by host name, in topology order. */
    public Map<String, Pool> all() {
        Map<String, Pool> all = new LinkedHashMap<>();
        topology.get().mysql().hosts().forEach(host -> all.put(host.name(), forHost(host.name())));
        return all;
    }

    private MysqlHost host(String name) {
        return topology.get().mysql().hosts().stream()
                .filter(host -> host.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no MySQL host named " + name));
    }

    private Pool create(MysqlHost host) {
        return create("mysql-" + host.name(), host.masterEndpoint(), config.poolSize());
    }

    private Pool create(String name, HostPort server, int size) {
        HostPort endpoint = config.reach(server);
        MySQLConnectOptions connect = new MySQLConnectOptions()
                .setHost(endpoint.host())
                .setPort(endpoint.port())
                .setUser(config.user())
                .setPassword(config.passwordInForce())
                .setCachePreparedStatements(true)
                .setPreparedStatementCacheMaxSize(config.preparedStatementCacheSize())
                .setPreparedStatementCacheSqlLimit(4096)
                .setPipeliningLimit(config.pipeliningLimit())
                .setConnectTimeout((int) config.connectTimeout().toMillis())
                .setCharset("utf8mb4")
                .setCollation("utf8mb4_unicode_ci");
        PoolOptions options = new PoolOptions()
                .setName(name)
                .setMaxSize(size)
                .setMaxWaitQueueSize(config.maxWaitQueue())
                .setConnectionTimeout((int) config.connectTimeout().toMillis())
                .setIdleTimeout((int) config.idleTimeout().toSeconds())
                .setIdleTimeoutUnit(TimeUnit.SECONDS)
                .setShared(false);
        io.vertx.sqlclient.Pool pool = MySQLBuilder.pool()
                .with(options)
                .connectingTo(connect)
                .using(vertx.getDelegate())
                .build();
        return Pool.newInstance(pool);
    }

    /**
     * Closes the pools of hosts that left the topology or moved to another endpoint (and closes the breaker of a host
     * whose master changed); others keep serving. Statements
     * still running on a closed pool fail, and count as the host being unavailable (see {@link #retired}).
     */
    synchronized void onTopologyChange(@Observes TopologyChanged change) {
        Map<String, MysqlHost> hosts = new LinkedHashMap<>();
        change.current().mysql().hosts().forEach(host -> hosts.put(host.name(), host));
        change.previous().mysql().hosts().forEach(host -> {
            MysqlHost now = hosts.get(host.name());
            if (now == null || !host.master().equals(now.master())) {
                retire(pools.remove(host.name()));
                breakers.forBackend(host.name()).reset(); // the old master's outage says nothing of the new one
            }
            if (now == null || !Objects.equals(host.replica(), now.replica())) {
                retire(replicaPools.remove(host.name()));
            }
        });
    }

    private void retire(Pool pool) {
        if (pool != null) {
            retired.add(pool);
            pool.close().subscribe().with(ignored -> {
            }, failure -> {
            });
        }
    }

    /** Whether the pool was closed because its host left the topology or moved. */
    public boolean retired(Pool pool) {
        return retired.contains(pool);
    }

    @PreDestroy
    synchronized void close() {
        pools.values().forEach(pool -> pool.close().subscribe().with(ignored -> {
        }, failure -> {
        }));
        replicaPools.values().forEach(pool -> pool.close().subscribe().with(ignored -> {
        }, failure -> {
        }));
        pools.clear();
        replicaPools.clear();
    }
}
