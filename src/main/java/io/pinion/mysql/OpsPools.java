package io.pinion.mysql;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.topology.HostPort;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * Small pools of the operations account per MySQL server (not per shard), for failover checks and operations
 * ({@link MysqlProbes}, {@link MysqlServers}). A pool keeps its connections for a while and opens new ones through
 * one connection factory: opening a connection through a new factory each time costs ~200 ms in the service (the
 * factory's set-up), which a promotion paid five times over, and liveness checks every few hundred milliseconds
 * could not afford. A connection the server closed (it was killed, or a proxy cut) leaves the pool, and the next
 * call opens a new one.
 */
@ApplicationScoped
public class OpsPools {

    /** Connections per server: a probe, an operation and a rejoin's checks may overlap. */
    static final int SIZE = 4;

    private final Vertx vertx;
    private final MysqlConfig config;
    private final Map<HostPort, Pool> pools = new ConcurrentHashMap<>();

    OpsPools(Vertx vertx, MysqlConfig config) {
        this.vertx = vertx;
        this.config = config;
    }

    /** The pool of the server (at the address this instance reaches it, {@link MysqlConfig#reach}). */
    Pool of(HostPort server) {
        return pools.computeIfAbsent(config.reach(server), this::open);
    }

    private Pool open(HostPort endpoint) {
        MySQLConnectOptions connect = new MySQLConnectOptions()
                .setHost(endpoint.host())
                .setPort(endpoint.port())
                .setUser(config.opsUser())
                .setPassword(config.opsPassword())
                .setConnectTimeout((int) config.connectTimeout().toMillis());
        PoolOptions options = new PoolOptions()
                .setName("ops-" + endpoint)
                .setMaxSize(SIZE)
                .setMaxWaitQueueSize(64)
                .setConnectionTimeout((int) config.connectTimeout().toMillis())
                .setIdleTimeout(30)
                .setIdleTimeoutUnit(TimeUnit.SECONDS)
                .setShared(false);
        return Pool.newInstance(MySQLBuilder.pool()
                .with(options)
                .connectingTo(connect)
                .using(vertx.getDelegate())
                .build());
    }

    @PreDestroy
    void close() {
        pools.values().forEach(pool -> pool.close().subscribe().with(ignored -> {
        }, failure -> {
        }));
        pools.clear();
    }
}
