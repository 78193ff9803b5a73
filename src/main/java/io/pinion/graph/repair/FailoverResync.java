package io.pinion.graph.repair;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.graph.FollowSync;
import io.pinion.graph.GraphConfig;
import io.pinion.graph.GraphKeys;
import io.pinion.graph.GraphMetrics;
import io.pinion.graph.Relationship;
import io.pinion.graph.VirtualShards;
import io.pinion.redis.RedisMasterChanged;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.RedisInstance;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;

/**
 * Repairs the two-sided relationships a Redis failover may have split. The old master may have acknowledged writes
 * its replica never got, so after the switch one side of a relationship can hold a change the other lacks: a lost
 * follower side leaves the followed side ahead, a lost followed side leaves it behind. Both sides journal every write
 * on their own shard ({@link GraphKeys#journal}), so the relationships written within
 * {@code pinion.graph.failover-lookback} before the switch are found on whichever side survived, and each is synced
 * again from its follower's side, the truth: both sides then agree, and the counts (set cardinalities) are exact.
 * A follow whose follower side was lost is gone on both sides.
 */
@ApplicationScoped
public class FailoverResync {

    private static final Logger LOG = Logger.getLogger(FailoverResync.class);
    /** Journal entries read per virtual shard at most, so one resync stays bounded. */
    private static final int PER_SHARD = 10_000;
    /** Rounds of retries of the relationships that could not be synced (1 + 2 + … + 9 s of waiting at most). */
    private static final int ROUNDS = 10;

    private final ActiveTopology topology;
    private final ShardZsets zsets;
    private final VirtualShards shards;
    private final FollowSync sync;
    private final GraphConfig config;
    private final GraphMetrics metrics;

    FailoverResync(ActiveTopology topology, ShardZsets zsets, VirtualShards shards, FollowSync sync,
            GraphConfig config, GraphMetrics metrics) {
        this.topology = topology;
        this.zsets = zsets;
        this.shards = shards;
        this.sync = sync;
        this.config = config;
        this.metrics = metrics;
    }

    /**
     * What one resync did.
     *
     * @param found    relationships journaled since the cutoff, on every instance
     * @param resynced those synced again
     * @param failed   those that could not be (they stay in the journals; the pending sweep covers the unsettled)
     * @param tookMs   the resync's duration
     */
    public record Result(int found, int resynced, int failed, long tookMs) {
    }

    void onMasterChanged(@ObservesAsync RedisMasterChanged change) {
        long sinceMicros = (change.seenAtMs() - config.failoverLookback().toMillis()) * 1000;
        resyncSince(sinceMicros).subscribe().with(result -> LOG.infof(
                "after the failover of Redis %s (%s -> %s): %d relationships journaled in the last %s s, %d synced "
                        + "again, %d failed, in %d ms", change.instance(), change.from(), change.to(), result.found(),
                config.failoverLookback().toSeconds(), result.resynced(), result.failed(), result.tookMs()),
                failure -> LOG.warnf("resync after the failover of Redis %s failed: %s", change.instance(),
                        Outages.describe(failure)));
    }

    /** Syncs again every relationship journaled since the time (µs) on any instance. */
    public Uni<Result> resyncSince(long sinceMicros) {
        long start = System.nanoTime();
        return Multi.createFrom().iterable(topology.get().redis().instances())
                .onItem().transformToUniAndConcatenate(instance -> journaled(instance, sinceMicros))
                .collect().in(LinkedHashSet<String>::new, Set::addAll)
                .chain(names -> resync(List.copyOf(names), 1).map(failed -> {
                    metrics.failoverResynced(names.size() - failed);
                    return new Result(names.size(), names.size() - failed, failed,
                            (System.nanoTime() - start) / 1_000_000);
                }));
    }

    /**
     * Syncs the relationships again; those that fail (the instance may still be switching over) are tried again after
     * {@code round} seconds, up to {@link #ROUNDS} rounds. How many never succeeded.
     */
    private Uni<Integer> resync(List<String> names, int round) {
        return Multi.createFrom().iterable(names)
                .onItem().transformToUni(name -> resync(name).map(ok -> ok ? null : name)).merge(8)
                .collect().asList()
                .chain(outcomes -> {
                    List<String> failed = outcomes.stream().filter(java.util.Objects::nonNull).toList();
                    if (failed.isEmpty() || round >= ROUNDS) {
                        return Uni.createFrom().item(failed.size());
                    }
                    return Uni.createFrom().voidItem().onItem().delayIt().by(java.time.Duration.ofSeconds(round))
                            .chain(() -> resync(failed, round + 1));
                });
    }

    private Uni<List<String>> journaled(RedisInstance instance, long sinceMicros) {
        return zsets.members(
                        instance,
                        vs -> Request.cmd(Command.ZRANGE)
                                .arg(GraphKeys.journal(vs))
                                .arg(sinceMicros)
                                .arg("+inf")
                                .arg("BYSCORE")
                                .arg("LIMIT")
                                .arg(0)
                                .arg(PER_SHARD),
                        config.commandTimeout().multipliedBy(5))
                .onFailure()
                .recoverWithItem(failure -> {
                    LOG.warnf(
                            "the journal of Redis %s could not be read: %s",
                            instance.name(), Outages.describe(failure));
                    return List.of();
                });
    }

    private Uni<Boolean> resync(String name) {
        return sync.repair(Relationship.parse(name, shards)).replaceWith(true)
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf("%s not synced again yet: %s", name, Outages.describe(failure));
                    return false;
                });
    }
}
