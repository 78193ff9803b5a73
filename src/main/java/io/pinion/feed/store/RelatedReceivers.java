package io.pinion.feed.store;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.graph.GraphRedis;
import io.pinion.graph.VirtualShards;
import io.pinion.paging.Page;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;

/**
 * Who took a board's pins into their related pool ({@code g:{vs}:b:<board>:rel} on the owner's virtual shard, the
 * newest {@link #KEEP} users), so that deleting one of the board's pins can purge it from those pools too. Users
 * beyond the newest {@link #KEEP} shed a deleted pin when their content generator meets it (hydration drops it).
 */
@ApplicationScoped
public class RelatedReceivers {

    static final int KEEP = 10_000;

    private final VirtualShards shards;
    private final GraphRedis redis;

    RelatedReceivers(VirtualShards shards, GraphRedis redis) {
        this.shards = shards;
        this.redis = redis;
    }

    public Uni<Void> add(long board, long owner, long user, long now) {
        int vs = shards.ofUser(owner);
        String key = FeedKeys.relatedReceivers(vs, board);
        return redis.batch(vs, List.of(
                        Request.cmd(Command.ZADD).arg(key).arg(now).arg(user),
                        Request.cmd(Command.ZREMRANGEBYRANK).arg(key).arg(0).arg(-KEEP - 1)))
                .replaceWithVoid();
    }

    /** A page of the receivers, newest first; the cursor is the rank to start at (the list is job-internal). */
    public Uni<Page<Long>> page(long board, long owner, String cursor, int limit) {
        int vs = shards.ofUser(owner);
        int start = cursor == null ? 0 : Integer.parseInt(cursor);
        return redis.send(vs, Request.cmd(Command.ZREVRANGE).arg(FeedKeys.relatedReceivers(vs, board)).arg(start)
                        .arg(start + limit))
                .map(answer -> {
                    List<Long> users = new ArrayList<>();
                    for (int i = 0; i < answer.size() && users.size() < limit; i++) {
                        users.add(answer.get(i).toLong());
                    }
                    return new Page<>(users, answer.size() > limit ? Integer.toString(start + limit) : null);
                });
    }
}
