package io.pinion.redis;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HostPort;
import io.pinion.topology.RedisInstance;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.ProtocolVersion;
import io.vertx.redis.client.RedisOptions;

/**
 * Where Sentinel says each Redis master is, asked every {@code pinion.redis.sentinel-check-interval} (the first
 * sentinel that answers, in topology order). A master that moved fires {@link RedisMasterChanged} and counts in {@code
 * pinion_redis_master_changes_total{instance}}. Nothing to do without sentinels in the topology.
 */
@ApplicationScoped
public class SentinelWatch {

    private static final Logger LOG = Logger.getLogger(SentinelWatch.class);

    private final Vertx vertx;
    private final ActiveTopology topology;
    private final RedisConfig config;
    private final Event<RedisMasterChanged> changes;
    private final MeterRegistry registry;
    private final Map<String, String> masters = new ConcurrentHashMap<>();
    private final Map<String, Redis> sentinels = new ConcurrentHashMap<>();

    SentinelWatch(Vertx vertx, ActiveTopology topology, RedisConfig config, Event<RedisMasterChanged> changes,
            MeterRegistry registry) {
        this.vertx = vertx;
        this.topology = topology;
        this.config = config;
        this.changes = changes;
        this.registry = registry;
    }

    /** The instance's master as last seen through Sentinel, {@code host:port}; empty without sentinels. */
    public Optional<String> masterOf(String instance) {
        return Optional.ofNullable(masters.get(instance));
    }

    @Scheduled(every = "${pinion.redis.sentinel-check-interval:1s}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> check() {
        List<String> endpoints = topology.get().redis().sentinels();
        if (endpoints.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(topology.get().redis().instances())
                .onItem().transformToUniAndConcatenate(instance -> ask(endpoints, 0, instance.name())
                        .invoke(address -> seen(instance, address))
                        .onFailure().recoverWithNull())
                .collect().last().replaceWithVoid();
    }

    private void seen(RedisInstance instance, String address) {
        if (address == null) {
            return;
        }
        String before = masters.put(instance.name(), address);
        if (before != null && !before.equals(address)) {
            LOG.warnf("Redis %s: Sentinel moved its master from %s to %s", instance.name(), before, address);
            Counter.builder("pinion.redis.master.changes").description("Redis masters Sentinel moved (failovers seen)")
                    .tag("instance", instance.name()).register(registry).increment();
            changes.fireAsync(new RedisMasterChanged(instance.name(), before, address, System.currentTimeMillis()));
        }
    }

    /**
     * The instance's replicas as Sentinel sees them, for the health probes: {@code master 127.0.0.1:63791; replicas
     * 127.0.0.1:63801 (link ok)}. Fails when no sentinel answers or no replica is healthy (so a failover would have
     * nothing to promote).
     */
    public Uni<String> replication(String instance) {
        List<String> endpoints = topology.get().redis().sentinels();
        return replicas(endpoints, 0, instance).map(answer -> {
            List<String> healthy = new java.util.ArrayList<>();
            List<String> unhealthy = new java.util.ArrayList<>();
            for (Response replica : answer) {
                Map<String, String> fields = new java.util.HashMap<>();
                for (int i = 0; i + 1 < replica.size(); i += 2) {
                    fields.put(replica.get(i).toString(), replica.get(i + 1).toString());
                }
                String flags = fields.getOrDefault("flags", "");
                boolean ok = !flags.contains("s_down") && !flags.contains("o_down") && !flags.contains("disconnected")
                        && "ok".equals(fields.get("master-link-status"));
                (ok ? healthy : unhealthy).add(fields.get("ip") + ":" + fields.get("port") + " (" + flags + ")");
            }
            String master = masters.getOrDefault(instance, "unknown");
            if (healthy.isEmpty()) {
                throw new IllegalStateException("master " + master + ": no replica in sync"
                        + (unhealthy.isEmpty() ? "" : " (" + String.join(", ", unhealthy) + ")"));
            }
            return "master " + master + "; replicas in sync: " + String.join(", ", healthy)
                    + (unhealthy.isEmpty() ? "" : "; not in sync: " + String.join(", ", unhealthy));
        });
    }

    private Uni<Response> replicas(List<String> endpoints, int index, String name) {
        if (index >= endpoints.size()) {
            return Uni.createFrom().failure(new IllegalStateException("no sentinel answers"));
        }
        return client(endpoints.get(index)).send(Request.cmd(Command.SENTINEL).arg("REPLICAS").arg(name))
                .ifNoItem().after(config.connectTimeout()).fail()
                .onFailure().recoverWithUni(failure -> replicas(endpoints, index + 1, name));
    }

    /** {@code SENTINEL GET-MASTER-ADDR-BY-NAME} on the sentinels in turn until one answers. */
    private Uni<String> ask(List<String> endpoints, int index, String name) {
        if (index >= endpoints.size()) {
            return Uni.createFrom().nullItem();
        }
        return client(endpoints.get(index))
                .send(Request.cmd(Command.SENTINEL).arg("GET-MASTER-ADDR-BY-NAME").arg(name))
                .ifNoItem().after(config.connectTimeout()).fail()
                .map(SentinelWatch::address)
                .onFailure().recoverWithUni(failure -> ask(endpoints, index + 1, name));
    }

    private static String address(Response answer) {
        if (answer == null || answer.size() < 2) {
            return null;
        }
        return answer.get(0).toString() + ":" + answer.get(1).toString();
    }

    private Redis client(String endpoint) {
        return sentinels.computeIfAbsent(endpoint, key -> {
            HostPort hostPort = HostPort.parse(key);
            RedisOptions options = new RedisOptions().setConnectionString("redis://" + hostPort.host() + ":"
                    + hostPort.port()).setMaxPoolSize(2).setMaxPoolWaiting(64)
                    .setPreferredProtocolVersion(ProtocolVersion.RESP2);
            options.getNetClientOptions().setConnectTimeout((int) config.connectTimeout().toMillis());
            return Redis.createClient(vertx, options);
        });
    }

    @PreDestroy
    void close() {
        sentinels.values().forEach(Redis::close);
        sentinels.clear();
    }
}
