package io.pinion.ops;

import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.ConfigProvider;

import io.pinion.mysql.MysqlConfig;
import io.pinion.paging.CursorConfig;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HostPort;
import io.pinion.topology.MysqlHost;
import io.pinion.topology.Topology;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.config.SmallRyeConfig;

/**
 * The {@code prod} profile refuses to start with the defaults that only suit a laptop: the cursor and lease-token
 * secret ({@code PINION_CURSOR_SECRET}) must be set, and so must the service's MySQL password
 * ({@code PINION_MYSQL_PASSWORD}); and once any MySQL server of the topology is on another machine, none of the three
 * MySQL accounts the service uses may keep the local stack's password: the service's, the operations account's for
 * promotion and rejoin ({@code PINION_MYSQL_OPS_PASSWORD}) and the replication account's
 * ({@code PINION_MYSQL_REPLICATION_PASSWORD}). A deployment sets them ({@code docker/init-secrets.sh} makes random
 * ones); {@code bin/run}, {@code bin/seed} and {@code bin/admin} pass a secret generated once under {@code .stack/},
 * and run against the local stack's servers on the loopback interface, whose accounts keep the local passwords.
 */
@ApplicationScoped
class ProdChecks {

    private final CursorConfig cursors;
    private final MysqlConfig mysql;
    private final ActiveTopology topology;

    ProdChecks(CursorConfig cursors, MysqlConfig mysql, ActiveTopology topology) {
        this.cursors = cursors;
        this.mysql = mysql;
        this.topology = topology;
    }

    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent start) {
        if (LaunchMode.current() != LaunchMode.NORMAL
                || !ConfigProvider.getConfig()
                        .unwrap(SmallRyeConfig.class)
                        .getProfiles()
                        .contains("prod")) {
            return;
        }
        List<String> problems = problems(cursors.secret().orElse(null), mysql.password().orElse(null),
                mysql.opsPassword(), mysql.replicationPassword(), loopbackOnly(topology.get()));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the prod profile refuses to start: " + String.join("; ", problems));
        }
    }

    /** What is wrong with the settings (null: not set, so the local default would apply). */
    static List<String> problems(
            String cursorSecret,
            String mysqlPassword,
            String opsPassword,
            String replicationPassword,
            boolean loopbackOnly) {
        List<String> problems = new ArrayList<>();
        if (cursorSecret == null || cursorSecret.equals(CursorConfig.LOCAL_SECRET) || cursorSecret.length() < 16) {
            problems.add("set pinion.cursor.secret (PINION_CURSOR_SECRET) to a secret of at least 16 characters");
        }
        if (mysqlPassword == null) {
            problems.add("set pinion.mysql.password (PINION_MYSQL_PASSWORD)");
        }
        if (loopbackOnly) {
            return problems;
        }
        if (MysqlConfig.LOCAL_PASSWORD.equals(mysqlPassword)) {
            problems.add(
                    "set pinion.mysql.password (PINION_MYSQL_PASSWORD) to a password other than the local stack's");
        }
        if (opsPassword == null || opsPassword.equals(MysqlConfig.LOCAL_OPS_PASSWORD)) {
            problems.add("set pinion.mysql.ops-password (PINION_MYSQL_OPS_PASSWORD) to a password other than the local"
                    + " stack's");
        }
        if (replicationPassword == null || replicationPassword.equals(MysqlConfig.LOCAL_REPLICATION_PASSWORD)) {
            problems.add("set pinion.mysql.replication-password (PINION_MYSQL_REPLICATION_PASSWORD) to a password other"
                    + " than the local stack's");
        }
        return problems;
    }

    /** Whether every MySQL server of the topology is on this machine's loopback interface (the local stack). */
    static boolean loopbackOnly(Topology topology) {
        for (MysqlHost host : topology.mysql().hosts()) {
            if (!loopback(host.masterEndpoint()) || (host.replica() != null && !loopback(host.replicaEndpoint()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean loopback(HostPort endpoint) {
        String host = endpoint.host();
        return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]");
    }
}
