package io.pinion.nativeimage;

import io.pinion.boards.BoardData;
import io.pinion.feed.fanout.FanoutJob;
import io.pinion.feed.fanout.FanoutPage;
import io.pinion.feed.FeedEntry;
import io.pinion.feed.FeedSource;
import io.pinion.feed.fanout.PersistChunk;
import io.pinion.feed.fanout.PoolInsert;
import io.pinion.feed.fanout.PoolPurge;
import io.pinion.feed.PoolRow;
import io.pinion.feed.fanout.PoolTrim;
import io.pinion.feed.fanout.Regeneration;
import io.pinion.feed.fanout.RelatedPins;
import io.pinion.graph.FollowEvent;
import io.pinion.graph.TargetRow;
import io.pinion.pins.PinData;
import io.pinion.queue.QueueConfig;
import io.pinion.queue.RetryPolicy;
import io.pinion.topology.HBaseClusterSpec;
import io.pinion.topology.HBaseRole;
import io.pinion.topology.HBaseTopology;
import io.pinion.topology.MysqlHost;
import io.pinion.topology.MysqlTopology;
import io.pinion.topology.RedisInstance;
import io.pinion.topology.RedisTopology;
import io.pinion.topology.ShardRange;
import io.pinion.topology.Topology;
import io.pinion.users.UserData;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Types the service reads and writes with its own {@code ObjectMapper} rather than as the body of a REST method:
 * object blobs in the shard tables, job bodies, queue settings and the topology file. Quarkus registers the types
 * of REST methods for reflection itself; a native executable needs these registered too (nested types such as
 * {@code Chunk.Counts} come along). JVM builds ignore the annotation.
 */
@RegisterForReflection(
        targets = {
            UserData.class,
            BoardData.class,
            PinData.class,
            QueueConfig.class,
            RetryPolicy.class,
            FollowEvent.class,
            FanoutJob.class,
            FanoutJob.Route.class,
            FanoutJob.PushPage.class,
            FanoutJob.PurgePage.class,
            FanoutJob.RelatedPurgePage.class,
            FanoutJob.InterestIndex.class,
            FanoutPage.class,
            PoolInsert.class,
            PoolPurge.class,
            RelatedPins.class,
            PersistChunk.class,
            PoolRow.class,
            PoolTrim.class,
            Regeneration.class,
            FeedEntry.class,
            FeedSource.class,
            TargetRow.class,
            Topology.class,
            MysqlTopology.class,
            MysqlHost.class,
            RedisTopology.class,
            RedisInstance.class,
            HBaseTopology.class,
            HBaseClusterSpec.class,
            HBaseRole.class,
            ShardRange.class
        })
final class JsonTypes {

    private JsonTypes() {
    }
}
