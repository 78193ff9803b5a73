package io.pinion.store;

import static io.pinion.Wait.pause;
import static io.pinion.Wait.within;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi;
import io.pinion.stack.StackTest;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.RedisInstance;
import io.pinion.topology.RedisTopology;
import io.pinion.topology.Topology;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The cache channel follows its Redis instance: when the topology gives the instance another endpoint (here another
 * name of the same server), the clients of the old endpoint are closed, and the channel subscribes and publishes
 * through the new one: its heartbeats keep coming back and the cache is trusted again, instead of publishing through
 * a closed client for ever.
 */
@QuarkusTest
@StackTest
class CacheChannelMovesTest {

    @Inject
    ActiveTopology topology;
    @Inject
    ObjectCache cache;

    @Test
    void theChannelSubscribesAgainWhereItsInstanceMoved() throws Exception {
        within(10_000, cache::usable);
        Topology before = topology.get();
        List<RedisInstance> moved = new ArrayList<>();
        for (RedisInstance instance : before.redis().instances()) {
            moved.add(new RedisInstance(instance.name(), instance.endpoint().replace("127.0.0.1", "localhost"),
                    instance.virtualShards(), instance.replica()));
        }
        RedisTopology redis = before.redis();
        Topology next = new Topology(before.mysql(),
                new RedisTopology(redis.virtualShards(), moved, redis.frozen(), redis.sentinels()), before.hbase());
        TestApi.putTopology(next).then().statusCode(200);
        try {
            within(2_000, () -> topology.get().redis().instances().equals(moved));
            // the clients of the old endpoints are closed: a channel still publishing through them stays distrusted
            pause(Duration.ofMillis(1_500), "the trust earned through the old endpoints runs out");
            within(5_000, cache::usable);
            pause(Duration.ofMillis(1_500), "the cache stays trusted for a while");
            assertTrue(
                    cache.usable(),
                    "the cache stays trusted: the channel's heartbeats come back through the new clients");
            TestApi.createBoard(TestApi.newUser(), "written after the move");
        } finally {
            TestApi.putTopology(before).then().statusCode(200);
        }
        within(5_000, cache::usable);
    }
}
