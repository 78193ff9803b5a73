package io.pinion.graph;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * The recent-pins indexes the home feed pulls from: each interest's newest pins
 * ({@code pinion.graph.interest-recent-pins}) on the interest's virtual shard, and each pulled author's newest pins
 * ({@code pinion.graph.author-recent-pins}) on the author's. Adding and removing are idempotent and go through a
 * script, so they wait while the shard is being moved. Reads are one range query: newest first since a time, or
 * older than a time.
 */
@ApplicationScoped
public class RecentPins {

    private final VirtualShards shards;
    private final GraphRedis redis;
    private final GraphConfig config;

    RecentPins(VirtualShards shards, GraphRedis redis, GraphConfig config) {
        this.shards = shards;
        this.redis = redis;
        this.config = config;
    }

    /** Where one index lives. */
    public record Index(int vs, String key, int keep) {
    }

    public Index interest(String name) {
        int vs = shards.ofInterest(name);
        return new Index(vs, GraphKeys.interestPins(vs, name), config.interestRecentPins());
    }

    public Index author(long author) {
        int vs = shards.ofUser(author);
        return new Index(vs, GraphKeys.user(vs, author, GraphKeys.AUTHOR_PINS), config.authorRecentPins());
    }

    public Uni<Void> add(Index index, RecentPin pin) {
        return redis.script(index.vs(), GraphScript.RECENT_PINS, List.of(index.key()),
                List.of("add", pin.member(), Long.toString(pin.created()), Integer.toString(index.keep())), true)
                .replaceWithVoid();
    }

    public Uni<Void> remove(Index index, RecentPin pin) {
        return redis.script(
                        index.vs(),
                        GraphScript.RECENT_PINS,
                        List.of(index.key()),
                        List.of("remove", pin.member()),
                        true)
                .replaceWithVoid();
    }

    /** Whether an index holds a pin, and how many pins it holds. */
    public record Presence(boolean holds, long size) {
    }

    /** Whether the index holds the pin (its member {@code pin:board:author}) and its size: one round trip. */
    public Uni<Presence> presence(Index index, RecentPin pin) {
        return redis.batch(index.vs(), List.of(Request.cmd(Command.ZSCORE).arg(index.key()).arg(pin.member()),
                        Request.cmd(Command.ZCARD).arg(index.key())))
                .map(answers -> new Presence(answers.get(0) != null, answers.get(1).toLong()));
    }

    /** Up to {@code limit} pins created after {@code sinceMs} (exclusive), newest first. */
    public Uni<List<RecentPin>> newest(Index index, long sinceMs, int limit) {
        return redis.send(index.vs(), newestRequest(index, sinceMs, limit)).map(RecentPins::pins);
    }

    /** The request behind {@link #newest}, for callers that pipeline several indexes of one instance. */
    public static Request newestRequest(Index index, long sinceMs, int limit) {
        return Request.cmd(Command.ZRANGE).arg(index.key()).arg("+inf").arg("(" + sinceMs).arg("BYSCORE").arg("REV")
                .arg("LIMIT").arg(0).arg(limit).arg("WITHSCORES");
    }

    /** Up to {@code limit} pins created before {@code beforeMs} (exclusive), newest first. */
    public Uni<List<RecentPin>> olderThan(Index index, long beforeMs, int limit) {
        Request range = Request.cmd(Command.ZRANGE).arg(index.key()).arg("(" + beforeMs).arg("-inf").arg("BYSCORE")
                .arg("REV").arg("LIMIT").arg(0).arg(limit).arg("WITHSCORES");
        return redis.send(index.vs(), range).map(RecentPins::pins);
    }

    /** The pins of a {@code ZRANGE … WITHSCORES} answer, newest first; unreadable members are skipped. */
    public static List<RecentPin> pins(Response answer) {
        List<RecentPin> pins = new ArrayList<>(answer == null ? 0 : answer.size() / 2);
        if (answer == null) {
            return pins;
        }
        for (int i = 0; i + 1 < answer.size(); i += 2) {
            RecentPin pin = RecentPin.parse(answer.get(i).toString(), (long)
                    Double.parseDouble(answer.get(i + 1).toString()));
            if (pin != null) {
                pins.add(pin);
            }
        }
        return pins;
    }
}
