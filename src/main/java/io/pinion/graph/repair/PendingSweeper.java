package io.pinion.graph.repair;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.graph.FollowSync;
import io.pinion.graph.GraphConfig;
import io.pinion.graph.GraphKeys;
import io.pinion.graph.GraphMetrics;
import io.pinion.graph.Relationship;
import io.pinion.graph.VirtualShards;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.RedisInstance;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;

/**
 * The backstop of the two-sided writes: every few seconds, each instance reads the pending sets of every virtual
 * shard (a few pipelined round trips per Redis instance) and re-syncs relationships changed longer ago than
 * {@code pinion.graph.sweep-age} that were never confirmed, e.g. because the service stopped between the two sides
 * or could not enqueue the repair job.
 */
@ApplicationScoped
public class PendingSweeper {

    private static final Logger LOG = Logger.getLogger(PendingSweeper.class);
    private static final int PER_SHARD = 50;

    private final ActiveTopology topology;
    private final ShardZsets zsets;
    private final VirtualShards shards;
    private final FollowSync sync;
    private final GraphConfig config;
    private final GraphMetrics metrics;

    PendingSweeper(ActiveTopology topology, ShardZsets zsets, VirtualShards shards, FollowSync sync,
            GraphConfig config, GraphMetrics metrics) {
        this.topology = topology;
        this.zsets = zsets;
        this.shards = shards;
        this.sync = sync;
        this.config = config;
        this.metrics = metrics;
    }

    @Scheduled(every = "${pinion.graph.sweep-interval:5s}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sweep() {
        long cutoff = (System.currentTimeMillis() - config.sweepAge().toMillis()) * 1000;
        return Multi.createFrom().iterable(topology.get().redis().instances())
                .onItem().transformToUniAndConcatenate(instance -> sweep(instance, cutoff))
                .collect().last().replaceWithVoid();
    }

    /** Repairs the stale pending relationships of one instance; returns how many it repaired. */
    public Uni<Integer> sweep(RedisInstance instance, long cutoffMicros) {
        return zsets.members(instance, vs -> Request.cmd(Command.ZRANGE).arg(GraphKeys.pending(vs)).arg("-inf")
                        .arg("(" + cutoffMicros).arg("BYSCORE").arg("LIMIT").arg(0).arg(PER_SHARD),
                        config.commandTimeout())
                .chain(names -> Multi.createFrom().iterable(names)
                        .onItem().transformToUniAndConcatenate(name -> repair(name))
                        .collect().with(java.util.stream.Collectors.summingInt(repaired -> repaired)))
                .invoke(metrics::sweepRepaired)
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("pending sweep of %s skipped: %s", instance.name(), Outages.describe(failure));
                    return 0;
                });
    }

    private Uni<Integer> repair(String name) {
        Relationship relationship = Relationship.parse(name, shards);
        return sync.repair(relationship).replaceWith(1)
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf("sweep could not repair %s yet: %s", name, Outages.describe(failure));
                    return 0;
                });
    }
}
