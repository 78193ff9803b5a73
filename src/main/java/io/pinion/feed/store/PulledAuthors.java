package io.pinion.feed.store;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.feed.FeedConfig;
import io.pinion.graph.GraphRedis;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * The registry of authors in pull mode ({@code g:{0}:pulled}: author → creation time of their newest pulled pin),
 * which every instance keeps in memory and reloads every second. A content generator asks the user's shard which
 * of these authors the user follows, so its cost grows with the number of pulled authors, who are few by
 * construction (only boards above {@code pinion.feed.pull-threshold} receivers). An author whose newest pulled pin
 * is older than {@code pinion.feed.pull-horizon} leaves the registry: nothing of theirs would be pulled anymore.
 */
@ApplicationScoped
public class PulledAuthors {

    private static final Logger LOG = Logger.getLogger(PulledAuthors.class);

    private final GraphRedis redis;
    private final FeedConfig config;
    private volatile Map<Long, Long> known = Map.of();

    PulledAuthors(GraphRedis redis, FeedConfig config) {
        this.redis = redis;
        this.config = config;
    }

    /** The authors in pull mode, as last loaded (and as marked by this instance since). */
    public List<Long> current() {
        return List.copyOf(known.keySet());
    }

    public boolean contains(long author) {
        return known.containsKey(author);
    }

    /** The creation time (ms) of the author's newest pulled pin as last loaded; null when not in pull mode. */
    public Long newestPulled(long author) {
        return known.get(author);
    }

    /** The author's pin created at {@code createdMs} was pulled: the author is (still) in pull mode. */
    public Uni<Void> mark(long author, long createdMs) {
        Request add = Request.cmd(Command.ZADD).arg(FeedKeys.pulledAuthors()).arg("GT").arg(createdMs).arg(author);
        return redis.send(FeedKeys.PULLED_AUTHORS_SHARD, add)
                .invoke(() -> remember(author, createdMs))
                .replaceWithVoid();
    }

    /** Reloads the registry, dropping authors past the horizon. */
    public Uni<Void> refresh() {
        long horizon = System.currentTimeMillis() - config.pullHorizon().toMillis();
        String key = FeedKeys.pulledAuthors();
        return redis.batch(FeedKeys.PULLED_AUTHORS_SHARD, List.of(
                        Request.cmd(Command.ZREMRANGEBYSCORE).arg(key).arg("-inf").arg("(" + horizon),
                        Request.cmd(Command.ZRANGE).arg(key).arg(0).arg(-1).arg("WITHSCORES")))
                .invoke(answers -> known = parse(answers.get(1)))
                .replaceWithVoid();
    }

    @Scheduled(every = "${pinion.feed.pulled-refresh:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> refreshPeriodically() {
        return refresh().onFailure().invoke(failure -> LOG.debugf("pulled authors not reloaded: %s",
                        Outages.describe(failure)))
                .onFailure().recoverWithNull();
    }

    private synchronized void remember(long author, long createdMs) {
        Long before = known.get(author);
        if (before == null || before < createdMs) {
            Map<Long, Long> next = new HashMap<>(known);
            next.put(author, createdMs);
            known = Map.copyOf(next);
        }
    }

    private static Map<Long, Long> parse(Response range) {
        Map<Long, Long> authors = new HashMap<>();
        for (int i = 0; i + 1 < range.size(); i += 2) {
            authors.put(range.get(i).toLong(), (long) Double.parseDouble(range.get(i + 1).toString()));
        }
        return Map.copyOf(authors);
    }
}
