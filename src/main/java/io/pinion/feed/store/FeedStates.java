package io.pinion.feed.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedState;
import io.pinion.graph.GraphRedis;
import io.pinion.graph.VirtualShards;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * The per-user {@link FeedState} hash ({@code g:{vs}:u:<user>:fs}, fields {@code v w s n}) on the user's virtual
 * shard: one round trip to read, and the visit is written only when the recorded one is more than
 * {@link #VISIT_GRANULARITY_MS} old, so a visit costs no write most of the time.
 */
@ApplicationScoped
public class FeedStates {

    /** A recorded visit is refreshed once it is this old (1 hour). */
    static final long VISIT_GRANULARITY_MS = 3_600_000L;

    private final VirtualShards shards;
    private final GraphRedis redis;

    FeedStates(VirtualShards shards, GraphRedis redis) {
        this.shards = shards;
        this.redis = redis;
    }

    public Uni<FeedState> read(long user) {
        int vs = shards.ofUser(user);
        return redis.send(vs, readRequest(vs, user)).map(FeedStates::state);
    }

    /** Records a visit at {@code now} if the recorded one is missing or older than the granularity. */
    public Uni<Void> visited(long user, FeedState state, long now) {
        if (state.lastVisit() != null && state.lastVisit() > now - VISIT_GRANULARITY_MS) {
            return Uni.createFrom().voidItem();
        }
        return set(user, "v", now);
    }

    /** After a visit whose chunk could not be generated: the next chunk is {@code size}. */
    public Uni<Void> grow(long user, int size) {
        return set(user, "s", size);
    }

    /**
     * After a chunk was materialized: the pulled sources were taken up to {@code pulledUntil}, the chunk size is back
     * to normal and the pools changed by {@code rowsDelta} rows.
     */
    public Uni<Long> persisted(long user, long pulledUntil, int rowsDelta) {
        int vs = shards.ofUser(user);
        String key = key(vs, user);
        List<Request> requests = new ArrayList<>();
        if (pulledUntil > 0) {
            requests.add(Request.cmd(Command.HSET).arg(key).arg("w").arg(pulledUntil));
        }
        requests.add(Request.cmd(Command.HDEL).arg(key).arg("s"));
        requests.add(Request.cmd(Command.HINCRBY).arg(key).arg("n").arg(rowsDelta));
        return redis.batch(vs, requests).map(answers -> answers.get(answers.size() - 1).toLong());
    }

    /** The pools changed by {@code delta} rows (a backfill, a removal); their new approximate size. */
    public Uni<Long> poolRowsChanged(long user, int delta) {
        int vs = shards.ofUser(user);
        return redis.send(
                        vs,
                        Request.cmd(Command.HINCRBY).arg(key(vs, user)).arg("n").arg(delta))
                .map(Response::toLong);
    }

    /** The pools hold {@code rows} rows (counted by a trim). */
    public Uni<Void> poolRows(long user, long rows) {
        return set(user, "n", rows);
    }

    /** Last visits of many users (bulk loads): one pipeline per Redis instance; fails if an instance does. */
    public Uni<Void> recordVisits(Map<Long, Long> visits) {
        List<Integer> vss = new ArrayList<>(visits.size());
        List<Request> writes = new ArrayList<>(visits.size());
        visits.forEach((user, at) -> {
            int vs = shards.ofUser(user);
            vss.add(vs);
            writes.add(Request.cmd(Command.HSET).arg(key(vs, user)).arg("v").arg(at));
        });
        return redis.batchAcross(vss, writes).map(answers -> {
            if (answers.contains(null)) {
                throw new IllegalStateException("a Redis instance did not record the visits");
            }
            return null;
        }).replaceWithVoid();
    }

    private Uni<Void> set(long user, String field, long value) {
        int vs = shards.ofUser(user);
        return redis.send(vs, Request.cmd(Command.HSET).arg(key(vs, user)).arg(field).arg(value)).replaceWithVoid();
    }

    static String key(int vs, long user) {
        return FeedKeys.feedState(vs, user);
    }

    /** {@code HMGET} of the four fields, for callers that pipeline it with other reads of the user's shard. */
    public static Request readRequest(int vs, long user) {
        return Request.cmd(Command.HMGET).arg(key(vs, user)).arg("v").arg("w").arg("s").arg("n");
    }

    public static FeedState state(Response fields) {
        if (fields == null || fields.size() < 4) {
            return FeedState.NONE;
        }
        Response size = fields.get(2);
        return new FeedState(asLong(fields.get(0)), asLong(fields.get(1)), size == null ? null : size.toInteger(),
                fields.get(3) == null ? 0 : fields.get(3).toLong());
    }

    private static Long asLong(Response value) {
        return value == null ? null : value.toLong();
    }
}
