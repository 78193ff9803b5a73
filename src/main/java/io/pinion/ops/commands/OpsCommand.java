package io.pinion.ops.commands;

import java.io.PrintStream;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.pinion.id.PinionId;
import io.pinion.ops.CacheDrops;
import io.pinion.ops.failover.MysqlFailover;
import io.pinion.users.Grants;
import io.pinion.users.UserGrants;
import io.pinion.users.UserRepository;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;

/**
 * {@code bin/admin}: an operator's commands, run by the packaged service started in command mode
 * ({@code pinion.ops.command}) on the machine, with the stores' credentials — the only way to make the first admin.
 * It works while the service runs: the grants are rows in the user's shard, and a token issued afterwards carries
 * the roles. Exits 0 on success, 1 on failure, 2 on a usage error.
 */
@ApplicationScoped
class OpsCommand {

    private final OpsConfig config;
    private final UserRepository usernames;
    private final UserGrants grants;
    private final MysqlFailover failover;
    private final TopologyCommand topologyCommand;
    private final CacheDrops caches;

    OpsCommand(OpsConfig config, UserRepository usernames, UserGrants grants, MysqlFailover failover,
            TopologyCommand topologyCommand, CacheDrops caches) {
        this.caches = caches;
        this.topologyCommand = topologyCommand;
        this.config = config;
        this.usernames = usernames;
        this.grants = grants;
        this.failover = failover;
    }

    void onStart(@Observes StartupEvent start) {
        if (config.command().isEmpty()) {
            return;
        }
        Thread thread = new Thread(this::run, "pinion-ops");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        PrintStream out = System.out;
        int code;
        try {
            code = execute(
                    config.command().get(),
                    config.username().orElse(""),
                    config.values().orElse(List.of()),
                    out);
        } catch (Throwable failure) {
            out.println("bin/admin: " + failure.getMessage());
            code = 1;
        }
        out.flush();
        Quarkus.asyncExit(code);
    }

    private int execute(String command, String username, List<String> values, PrintStream out) {
        if (command.equals("promote") || command.equals("rejoin")) {
            return mysql(command, username, values.contains("--force"), out);
        }
        if (command.equals("topology")) {
            return topologyCommand.run(username, values, out);
        }
        if (command.equals("caches")) {
            if (!username.equals("drop")) {
                out.println("bin/admin: usage: caches drop [REASON]");
                return 2;
            }
            String reason = values.isEmpty() ? "bin/admin" : String.join(" ", values);
            int epoch = caches.dropAll(reason).await().atMost(java.time.Duration.ofSeconds(10));
            out.printf("caches dropped on every instance: cache epoch %d (%s)%n", epoch, reason);
            return 0;
        }
        if (username.isBlank() || (!command.equals("show") && values.isEmpty())) {
            out.println(
                    "bin/admin: usage: grant|revoke <username> <role>…, grant-queue|revoke-queue <username> <queue>…,"
                            + " show <username>");
            return 2;
        }
        PinionId user = usernames.findIdByUsername(username).await().indefinitely();
        if (user == null) {
            out.println("bin/admin: no user named '" + username + "'");
            return 1;
        }
        Grants result = grants.of(user).await().indefinitely();
        for (String value : values) {
            Uni<Grants> change = switch (command) {
                case "grant" -> grants.grantRole(user, value);
                case "revoke" -> grants.revokeRole(user, value);
                case "grant-queue" -> grants.grantQueue(user, value);
                case "revoke-queue" -> grants.revokeQueue(user, value);
                default -> null;
            };
            if (change == null) {
                out.println("bin/admin: unknown command '" + command + "'");
                return 2;
            }
            result = change.await().indefinitely();
        }
        out.printf("%s (%s): roles %s, queues %s%n", username, user, result.roles(), result.queues());
        return 0;
    }

    /** {@code promote <host>} and {@code rejoin <host>}: the same as the admin API's, from the machine. */
    private int mysql(String command, String host, boolean force, PrintStream out) {
        if (host.isBlank()) {
            out.println("bin/admin: usage: " + command + " <mysql-host>");
            return 2;
        }
        if (command.equals("promote")) {
            MysqlFailover.Promotion done = failover.promote(host, MysqlFailover.Trigger.MANUAL, force)
                    .await()
                    .indefinitely();
            out.printf(
                    "%s: master %s (GTID %s, applied everything received: %s), replica %s (old master %s), %d ms%n",
                    host,
                    done.master(),
                    done.gtidPosition(),
                    done.applied(),
                    done.replica(),
                    done.oldMasterFenced()
                            ? "fenced"
                            : "not reached: it must come back read-only, as bin/stack starts it",
                    done.tookMs());
            if (!done.notAcknowledged().isEmpty()) {
                out.printf(
                        "%s: not on the new topology within 5 s when the new master opened: %s%n",
                        host, done.notAcknowledged());
            }
        } else {
            MysqlFailover.Rejoin done = failover.rejoin(host).await().indefinitely();
            out.printf(
                    "%s: %s replicates from %s by GTID, read-only%s%n",
                    host,
                    done.replica(),
                    done.master(),
                    done.running()
                            ? ""
                            : " (its replication threads did not run within 10 s: GET /v1/admin/backends says why)");
        }
        return 0;
    }
}
