package io.pinion.feed.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.graph.GraphRedis;
import io.pinion.graph.VirtualShards;
import io.pinion.redis.RedisClients;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * How often a user liked or saved each author's pins, the default scorer's affinity: a Redis hash per user on the
 * user's virtual shard ({@code g:{vs}:u:<user>:aff}, author → count). Reads for a page of receivers take one
 * pipelined round trip per Redis instance. Affinity only tunes scores, so a Redis failure counts as no affinity.
 */
@ApplicationScoped
public class Affinity {

    private final VirtualShards shards;
    private final GraphRedis redis;
    private final RedisClients clients;

    Affinity(VirtualShards shards, GraphRedis redis, RedisClients clients) {
        this.shards = shards;
        this.redis = redis;
        this.clients = clients;
    }

    /** The user liked or saved one of the author's pins. */
    public Uni<Void> interacted(long user, long author) {
        if (user == author) {
            return Uni.createFrom().voidItem();
        }
        int vs = shards.ofUser(user);
        return redis.send(vs, Request.cmd(Command.HINCRBY).arg(FeedKeys.affinity(vs, user)).arg(author).arg(1))
                .replaceWithVoid()
                .onFailure().recoverWithNull();
    }

    /** Each receiver's affinity for the author (0 when none or unknown). */
    public Uni<Map<Long, Long>> of(List<Long> receivers, long author) {
        Map<String, List<Long>> byInstance = new LinkedHashMap<>();
        Map<String, Integer> someShard = new HashMap<>();
        for (long receiver : receivers) {
            int vs = shards.ofUser(receiver);
            String instance = clients.forVirtualShard(vs).name();
            byInstance.computeIfAbsent(instance, name -> new ArrayList<>()).add(receiver);
            someShard.putIfAbsent(instance, vs);
        }
        List<Uni<Map<Long, Long>>> reads = new ArrayList<>();
        byInstance.forEach((instance, users) -> {
            List<Request> requests = users.stream()
                    .map(user -> Request.cmd(Command.HGET)
                            .arg(FeedKeys.affinity(shards.ofUser(user), user))
                            .arg(author))
                    .toList();
            reads.add(redis.batch(someShard.get(instance), requests)
                    .map(answers -> counts(users, answers))
                    .onFailure()
                    .recoverWithItem(Map.of()));
        });
        if (reads.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Uni.join().all(reads).andFailFast().map(parts -> {
            Map<Long, Long> all = new HashMap<>();
            parts.forEach(all::putAll);
            return all;
        });
    }

    private static Map<Long, Long> counts(List<Long> users, List<Response> answers) {
        Map<Long, Long> counts = new HashMap<>();
        for (int i = 0; i < users.size(); i++) {
            Response answer = answers.get(i);
            if (answer != null) {
                counts.put(users.get(i), answer.toLong());
            }
        }
        return counts;
    }
}
