package io.pinion.mysql;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How the service connects to the MySQL hosts named in the topology.
 */
@ConfigMapping(prefix = "pinion.mysql")
public interface MysqlConfig {

    /** Account used on every host. */
    @WithDefault("pinion")
    String user();

    /** The password used when none is set (the local stack's); the {@code prod} profile refuses to start with it. */
    String LOCAL_PASSWORD = "pinion";

    /** Password of {@link #user()}; set it from the environment ({@code PINION_MYSQL_PASSWORD}) in production. */
    Optional<String> password();

    /** The password in force: the configured one, else {@link #LOCAL_PASSWORD}. */
    default String passwordInForce() {
        return password().orElse(LOCAL_PASSWORD);
    }

    /**
     * Account for operations on the servers (promotion, read-only fencing, pointing a server at a new master): it needs
     * every privilege, {@code READ_ONLY ADMIN} included, which the service's own account must not have.
     */
    @WithDefault("pinion_ops")
    String opsUser();

    /** The local stack's password of {@link #opsUser()}; the {@code prod} profile refuses to start with it. */
    String LOCAL_OPS_PASSWORD = "pinion_ops";

    /** Password of {@link #opsUser()} (the local stack's by default). */
    @WithDefault(LOCAL_OPS_PASSWORD)
    String opsPassword();

    /** Account replicas connect to their master as. */
    @WithDefault("pinion_repl")
    String replicationUser();

    /** The local stack's password of {@link #replicationUser()}; the {@code prod} profile refuses to start with it. */
    String LOCAL_REPLICATION_PASSWORD = "pinion_repl";

    /** Password of {@link #replicationUser()} (the local stack's by default). */
    @WithDefault(LOCAL_REPLICATION_PASSWORD)
    String replicationPassword();

    /**
     * Automatic failover: a host whose master has not answered for this long (while its replica does) has its replica
     * promoted, as {@code POST /v1/admin/mysql/hosts/{name}/promote} does. Off unless set.
     */
    Optional<Duration> failoverAfter();

    /** How often the masters are checked when {@link #failoverAfter()} is set. */
    @WithDefault("1s")
    Duration failoverCheckInterval();

    /**
     * Servers this instance reaches at another address, as {@code host:port=host:port} pairs (the topology's address,
     * then the one to connect to): where this instance sees a server through a NAT, a tunnel or a proxy. Only this
     * instance's own connections use it; the topology, the other instances and replication between the servers keep
     * the topology's addresses.
     */
    Optional<java.util.List<String>> connectVia();

    /** The address this instance connects to for {@code server} ({@link #connectVia()}). */
    default io.pinion.topology.HostPort reach(io.pinion.topology.HostPort server) {
        for (String pair : connectVia().orElse(java.util.List.of())) {
            int equals = pair.indexOf('=');
            if (equals > 0 && io.pinion.topology.HostPort.parse(pair.substring(0, equals).trim()).equals(server)) {
                return io.pinion.topology.HostPort.parse(pair.substring(equals + 1).trim());
            }
        }
        return server;
    }

    /** Maximum connections per host pool. */
    @WithDefault("16")
    int poolSize();

    /** Statements sent on one connection before their results come back (1 = no pipelining). */
    @WithDefault("1")
    int pipeliningLimit();

    /** Prepared statements cached per connection (shard-qualified SQL makes one statement per shard). */
    @WithDefault("1024")
    int preparedStatementCacheSize();

    /** Requests that may wait for a connection per host pool before failing fast. */
    @WithDefault("1024")
    int maxWaitQueue();

    /** Time allowed to open a connection. */
    @WithDefault("2s")
    Duration connectTimeout();

    /** Idle connections are closed after this long. */
    @WithDefault("5m")
    Duration idleTimeout();

    /**
     * Deadline of one query or transaction. A host that does not answer in time makes the request fail with 503
     * instead of waiting.
     */
    @WithDefault("1500ms")
    Duration queryTimeout();

    /** Apply pending shard-database migrations when the service starts. */
    @WithDefault("true")
    boolean migrateAtStart();

    /** Shard databases migrated at the same time on one host. */
    @WithDefault("8")
    int migrationConcurrency();

    /** Upper bound for the whole start-up migration. */
    @WithDefault("10m")
    Duration migrationTimeout();

    /**
     * How often a host that could not be reached at start-up is tried again; its shards answer 503 until it is
     * reached and migrated.
     */
    @WithDefault("2s")
    Duration migrationRetryInterval();
}
