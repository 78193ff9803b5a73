package io.pinion.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.store.CacheChannel;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;

/**
 * Bulk loading of explicit user follows between users that have no relationship yet (a fresh data set): per follow
 * A → C at time t, {@code ZADD} C to A's followed users and A to C's followers with score t, which is exactly the
 * settled state {@code follow_user.lua} and {@code mirror_user.lua} leave for such a pair (nothing pending, no
 * board entries). Commands are pipelined per virtual shard, up to {@value #BATCH} at a time. Scores must be unique
 * within a set (pages resume after a score): callers give every follow its own microsecond.
 */
@ApplicationScoped
public class FollowBulk {

    static final int BATCH = 1000;

    private final GraphRedis redis;
    private final VirtualShards shards;
    private final CacheChannel cache;

    FollowBulk(GraphRedis redis, VirtualShards shards, CacheChannel cache) {
        this.redis = redis;
        this.shards = shards;
        this.cache = cache;
    }

    /**
     * Writes the follows {@code from[i] → to[i]} at {@code atMicros[i]} (user id values), {@code concurrency}
     * pipelines at a time; {@code done} is told how many follows each finished pipeline covered (both sides count
     * half). The followers are then dropped from every instance's object cache, which derives facts from their
     * follower side.
     */
    public Uni<Void> followUsers(long[] from, long[] to, long[] atMicros, int concurrency, IntConsumer done) {
        Map<Integer, List<Request>> byShard = new HashMap<>();
        for (int i = 0; i < from.length; i++) {
            String score = Long.toString(atMicros[i]);
            int followerShard = shards.ofUser(from[i]);
            int followedShard = shards.ofUser(to[i]);
            byShard.computeIfAbsent(followerShard, key -> new ArrayList<>())
                    .add(Request.cmd(Command.ZADD)
                            .arg(GraphKeys.user(followerShard, from[i], GraphKeys.FOLLOWING))
                            .arg(score)
                            .arg(Long.toString(to[i])));
            byShard.computeIfAbsent(followedShard, key -> new ArrayList<>())
                    .add(Request.cmd(Command.ZADD)
                            .arg(GraphKeys.user(followedShard, to[i], GraphKeys.FOLLOWERS))
                            .arg(score)
                            .arg(Long.toString(from[i])));
        }
        List<Map.Entry<Integer, List<Request>>> batches = new ArrayList<>();
        byShard.forEach((vs, requests) -> {
            for (int start = 0; start < requests.size(); start += BATCH) {
                batches.add(Map.entry(vs, requests.subList(start, Math.min(requests.size(), start + BATCH))));
            }
        });
        return Multi.createFrom().iterable(batches)
                .onItem().transformToUni(batch -> redis.batch(batch.getKey(), batch.getValue())
                        .invoke(ignored -> done.accept(batch.getValue().size())))
                .merge(concurrency)
                .collect().last().replaceWithVoid()
                .onTermination().invoke(() -> {
                    Set<Long> followers = new HashSet<>();
                    for (long follower : from) {
                        followers.add(follower);
                    }
                    cache.changed(followers);
                });
    }
}
