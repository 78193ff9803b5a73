package io.pinion.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;

import io.pinion.failure.NotFound;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.HostPort;
import io.pinion.topology.RedisInstance;
import io.pinion.topology.TopologyChanged;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.redis.client.ProtocolVersion;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.RedisRole;

/**
 * One Redis client per instance of the topology, and routing from a virtual shard to its instance.
 */
@ApplicationScoped
public class RedisClients {

    private final Vertx vertx;
    private final RedisConfig config;
    private final ActiveTopology topology;
    private final Map<String, RedisInstanceClient> clients = new LinkedHashMap<>();
    private final List<RedisChannel> channels = new ArrayList<>();

    RedisClients(Vertx vertx, RedisConfig config, ActiveTopology topology) {
        this.vertx = vertx;
        this.config = config;
        this.topology = topology;
    }

    /** The client of the named instance, created on first use. */
    public synchronized RedisInstanceClient forInstance(String name) {
        return clients.computeIfAbsent(name, n -> create(instance(n)));
    }

    /** The client of the instance serving the virtual shard in the current topology. */
    public RedisInstanceClient forVirtualShard(int virtualShard) {
        RedisInstance instance = topology.get().redis().instanceOf(virtualShard)
                .orElseThrow(() -> new NotFound("shard_not_found",
                        "virtual shard " + virtualShard + " is not in the topology"));
        return forInstance(instance.name());
    }

    /** Clients of every instance of the current topology. */
    public List<RedisInstanceClient> all() {
        return topology.get().redis().instances().stream()
                .map(instance -> forInstance(instance.name()))
                .toList();
    }

    private RedisInstance instance(String name) {
        return topology.get().redis().instances().stream()
                .filter(instance -> instance.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no Redis instance named " + name));
    }

    /**
     * Subscribes to a pub/sub channel on the named instance with a connection of its own, which reconnects by
     * itself until {@link #close}; publishing goes through the instance's pooled client.
     */
    public synchronized RedisChannel channel(String instance, String channel, Consumer<String> onMessage,
            Consumer<Boolean> onSubscribed) {
        RedisChannel opened = new RedisChannel(
                vertx.getDelegate(), instance, () -> options(instance(instance)), channel, onMessage, onSubscribed);
        channels.add(opened);
        opened.start();
        return opened;
    }

    private RedisInstanceClient create(RedisInstance instance) {
        RedisOptions options = options(instance);
        Redis redis = Redis.createClient(vertx, options);
        return new RedisInstanceClient(instance.name(), instance.endpoint(), redis);
    }

    /**
     * A standalone client of the instance's endpoint; or, when the topology names sentinels, a Sentinel client: it
     * asks the sentinels where the master called like the instance is (cached for
     * {@code pinion.redis.sentinel-refresh}), so after a failover new connections go to the promoted replica.
     */
    private RedisOptions options(RedisInstance instance) {
        List<String> sentinels = topology.get().redis().sentinels();
        RedisOptions options = new RedisOptions();
        if (sentinels.isEmpty()) {
            HostPort endpoint = instance.hostPort();
            options.setType(RedisClientType.STANDALONE)
                    .setConnectionString("redis://" + endpoint.host() + ":" + endpoint.port());
        } else {
            options.setType(RedisClientType.SENTINEL)
                    .setMasterName(instance.name())
                    .setRole(RedisRole.MASTER)
                    .setTopologyCacheTTL(config.sentinelRefresh().toMillis());
            for (String sentinel : sentinels) {
                HostPort endpoint = HostPort.parse(sentinel);
                options.addConnectionString("redis://" + endpoint.host() + ":" + endpoint.port());
            }
        }
        options.setMaxPoolSize(config.poolSize())
                .setMaxPoolWaiting(config.maxWaitQueue())
                .setMaxWaitingHandlers(config.maxWaitQueue())
                .setPreferredProtocolVersion(ProtocolVersion.RESP2);
        options.getNetClientOptions().setConnectTimeout((int) config.connectTimeout().toMillis());
        config.password().ifPresent(options::setPassword);
        return options;
    }

    /**
     * Closes the clients of instances that left the topology or moved to another endpoint (or whose sentinels
     * changed), and reconnects the channels on them.
     */
    synchronized void onTopologyChange(@Observes TopologyChanged change) {
        Map<String, String> endpoints = new LinkedHashMap<>();
        change.current().redis().instances().forEach(instance -> endpoints.put(instance.name(), instance.endpoint()));
        boolean sentinelsMoved = !change.previous().redis().sentinels().equals(change.current().redis().sentinels());
        List<String> moved = new ArrayList<>();
        change.previous().redis().instances().forEach(instance -> {
            if (sentinelsMoved || !instance.endpoint().equals(endpoints.get(instance.name()))) {
                moved.add(instance.name());
                RedisInstanceClient client = clients.remove(instance.name());
                if (client != null) {
                    client.redis().close();
                }
            }
        });
        reconnectChannels(moved);
    }

    /** A channel on an instance whose master Sentinel moved subscribes again on the new master. */
    void onMasterChange(@ObservesAsync RedisMasterChanged change) {
        reconnectChannels(List.of(change.instance()));
    }

    private void reconnectChannels(List<String> instances) {
        List<RedisChannel> affected;
        synchronized (this) {
            affected = channels.stream().filter(channel -> instances.contains(channel.instance())).toList();
        }
        affected.forEach(RedisChannel::reconnect);
    }

    @PreDestroy
    synchronized void close() {
        channels.forEach(RedisChannel::close);
        channels.clear();
        clients.values().forEach(client -> client.redis().close());
        clients.clear();
    }
}
