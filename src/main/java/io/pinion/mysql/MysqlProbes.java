package io.pinion.mysql;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.topology.HostPort;
import io.smallrye.mutiny.Uni;

/**
 * Liveness checks of MySQL servers on kept connections ({@link OpsPools}): a check is one {@code SELECT 1} round
 * trip rather than a connection, a handshake and a statement, so checks every few hundred milliseconds stay on time
 * under load. A server that went away answers "no" at once (its connections close, a new one is refused); one that
 * hangs answers "no" after the connect timeout.
 */
@ApplicationScoped
public class MysqlProbes {

    private final OpsPools pools;
    private final MysqlConfig config;

    MysqlProbes(OpsPools pools, MysqlConfig config) {
        this.pools = pools;
        this.config = config;
    }

    /** Whether the server runs {@code SELECT 1} within the connect timeout (a new connection included). */
    public Uni<Boolean> answers(HostPort server) {
        return pools.of(server).query("SELECT 1").execute()
                .ifNoItem().after(config.connectTimeout()).fail()
                .replaceWith(true)
                .onFailure().recoverWithItem(false);
    }
}
