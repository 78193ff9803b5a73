package io.pinion.graph;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Each interest's most recent pins ({@code pinion.graph.interest-recent-pins} of them), kept on the interest's
 * virtual shard next to its followers, so a new follower of the interest can be backfilled the way a new follower
 * of a user or board is. The fan-out adds a new pin and removes a deleted one; both are idempotent. Writes go
 * through a script and so wait while the shard is being moved.
 */
@ApplicationScoped
public class InterestPins {

    private final VirtualShards shards;
    private final GraphRedis redis;
    private final GraphConfig config;

    InterestPins(VirtualShards shards, GraphRedis redis, GraphConfig config) {
        this.shards = shards;
        this.redis = redis;
        this.config = config;
    }

    public Uni<Void> add(String interest, long pin, long createdMs) {
        return write(interest, List.of("add", Long.toString(pin), Long.toString(createdMs),
                Integer.toString(config.interestRecentPins())));
    }

    public Uni<Void> remove(String interest, long pin) {
        return write(interest, List.of("remove", Long.toString(pin)));
    }

    /** Up to {@code limit} of the interest's pins, newest first. */
    public Uni<List<Long>> recent(String interest, int limit) {
        int vs = shards.ofInterest(interest);
        return redis.send(vs, Request.cmd(Command.ZREVRANGE).arg(GraphKeys.interestPins(vs, interest)).arg(0).arg(limit - 1))
                .map(InterestPins::ids);
    }

    private Uni<Void> write(String interest, List<String> args) {
        int vs = shards.ofInterest(interest);
        return redis.script(vs, GraphScript.INTEREST_PINS, List.of(GraphKeys.interestPins(vs, interest)), args, true)
                .replaceWithVoid();
    }

    private static List<Long> ids(Response answer) {
        List<Long> ids = new ArrayList<>(answer.size());
        answer.forEach(member -> ids.add(member.toLong()));
        return ids;
    }
}
