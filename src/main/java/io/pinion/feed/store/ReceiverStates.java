package io.pinion.feed.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedConfig;
import io.pinion.graph.GraphRedis;
import io.pinion.graph.GraphScript;
import io.pinion.graph.VirtualShards;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * For a page of a pushed pin's receivers: which are active, their affinity for the author, and their pools' new
 * size. One script call per Redis instance (fanout_receivers.lua), in parallel. A receiver whose instance does not
 * answer counts as active with no affinity: a pin is never withheld for want of an answer.
 */
@ApplicationScoped
public class ReceiverStates {

    private final VirtualShards shards;
    private final GraphRedis redis;
    private final FeedConfig config;

    ReceiverStates(VirtualShards shards, GraphRedis redis, FeedConfig config) {
        this.shards = shards;
        this.redis = redis;
        this.config = config;
    }

    /** One active receiver. {@code poolRows} is {@link Receiver#UNKNOWN} when its feed state could not be read. */
    public record Receiver(long user, long affinity, long poolRows) {

        static final long UNKNOWN = -1;

        /** Whether the pools' size was read (an unknown size asks for no trim). */
        public boolean counted() {
            return poolRows != UNKNOWN;
        }
    }

    /** The active receivers among {@code users}, grouped by Redis instance; each gets one pool row counted. */
    public Uni<List<Receiver>> active(List<Long> users, long author, long now) {
        Map<String, List<Long>> byInstance = new LinkedHashMap<>();
        Map<String, Integer> someShard = new LinkedHashMap<>();
        for (long user : users) {
            int vs = shards.ofUser(user);
            String instance = redis.instanceOf(vs);
            byInstance.computeIfAbsent(instance, name -> new ArrayList<>()).add(user);
            someShard.putIfAbsent(instance, vs);
        }
        String before = Long.toString(now - config.inactiveAfter().toMillis());
        List<Uni<List<Receiver>>> calls = new ArrayList<>();
        byInstance.forEach((instance, group) -> {
            List<String> keys = new ArrayList<>(group.size() * 2);
            for (long user : group) {
                int vs = shards.ofUser(user);
                keys.add(FeedKeys.feedState(vs, user));
                keys.add(FeedKeys.affinity(vs, user));
            }
            calls.add(redis.script(
                            someShard.get(instance),
                            GraphScript.FANOUT_RECEIVERS,
                            keys,
                            List.of(Long.toString(author), before, "1"),
                            false)
                    .map(answer -> receivers(group, answer))
                    .onFailure()
                    .recoverWithItem(() -> group.stream()
                            .map(user -> new Receiver(user, 0, Receiver.UNKNOWN))
                            .toList()));
        });
        if (calls.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.join().all(calls).andFailFast().map(parts -> {
            List<Receiver> all = new ArrayList<>(users.size());
            parts.forEach(all::addAll);
            return all;
        });
    }

    private static List<Receiver> receivers(List<Long> users, Response answer) {
        List<Receiver> active = new ArrayList<>(users.size());
        for (int i = 0; i < users.size(); i++) {
            if (answer.get(3 * i).toInteger() == 1) {
                active.add(new Receiver(users.get(i), answer.get(3 * i + 1).toLong(), answer.get(3 * i + 2).toLong()));
            }
        }
        return active;
    }
}
