package io.pinion.feed;

import static io.pinion.TestApi.createBoard;
import static io.pinion.TestApi.createPin;
import static io.pinion.TestApi.newUser;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.apache.hadoop.hbase.client.Get;
import org.junit.jupiter.api.Test;

import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.feed.store.FeedTables;
import io.pinion.feed.store.PoolStore;
import io.pinion.graph.FollowSync;
import io.pinion.graph.UserRelationship;
import io.pinion.graph.VirtualShards;
import io.pinion.hbase.HBaseCalls;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Multi;

/**
 * A user with 10,000 followers pins: every one of the 10,000 pools receives the pin (checked row by row), and the
 * fan-out time is reported. The followers are written straight into the graph (both sides, through the same sync
 * the API uses) so the test does not have to sign up 10,000 users.
 */
@QuarkusTest
@StackTest
class BigFanoutTest {

    private static final int FOLLOWERS = 10_000;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    FollowSync sync;
    @Inject
    VirtualShards shards;
    @Inject
    PoolStore pools;
    @Inject
    FeedTables tables;

    @Test
    void tenThousandFollowersAllReceiveTheNewPin() throws Exception {
        TestUser author = newUser();
        String board = createBoard(author, "popular");
        long owner = Long.parseLong(author.id());
        long base = System.nanoTime() & 0xfffffffL;
        List<Long> followers = new ArrayList<>();
        for (int i = 0; i < FOLLOWERS; i++) {
            followers.add(PinionId.of(i % 64, ObjectType.USER, 40_000_000_000L + base + i).value());
        }
        Multi.createFrom()
                .iterable(followers)
                .onItem()
                .transformToUni(follower -> {
                    UserRelationship relationship = new UserRelationship(follower, owner, shards);
                    return sync.onFollowerSide(relationship, "follow_user", null)
                            .chain(side -> sync.sync(relationship, side));
                })
                .merge(64)
                .collect()
                .last()
                .await()
                .atMost(WAIT);
        io.restassured.RestAssured.given().get("/v1/users/" + author.id()).then().statusCode(200)
                .body("counts.followers", org.hamcrest.Matchers.equalTo(FOLLOWERS));

        long start = System.currentTimeMillis();
        long pin = Long.parseLong(createPin(author, board, "to ten thousand"));
        long deadline = start + WAIT.toMillis();
        AtomicReference<PoolEntry> first = new AtomicReference<>();
        Wait.within(deadline - System.currentTimeMillis(), () -> {
            List<PoolEntry> top = pools.top(followers.get(FOLLOWERS - 1), FeedSource.FOLLOWING, 1).await().atMost(WAIT);
            first.set(top.isEmpty() ? null : top.get(0));
            return first.get() != null;
        }, "the first pool receives the pin");
        PoolEntry sample = first.get();
        double score = sample.key().score();
        List<Get> gets = followers.stream()
                .map(f -> new Get(new PoolKey(f, FeedSource.FOLLOWING, score, pin).encode()))
                .toList();
        AtomicLong received = new AtomicLong();
        Wait.within(deadline - System.currentTimeMillis(), () -> {
            received.set(received(gets));
            return received.get() >= FOLLOWERS;
        }, () -> "every pool receives the pin within " + WAIT + " of its post (" + received + " did)");
        long took = System.currentTimeMillis() - start;
        System.out.printf(
                "fan-out to %d followers took %d ms (%.0f pool inserts/s)%n",
                FOLLOWERS, took, FOLLOWERS * 1000.0 / took);
        assertEquals(FOLLOWERS, received.get());
        assertEquals(pin, sample.key().pin());
    }

    /**
     * How many of the gets exist, read 1,000 at a time; a read that times out while HBase is busy with the fan-out
     * counts as none received yet (the loop asks again until its deadline).
     */
    private long received(List<Get> gets) {
        long found = 0;
        for (int from = 0; from < gets.size(); from += 1_000) {
            List<Get> slice = gets.subList(from, Math.min(gets.size(), from + 1_000));
            try {
                List<Boolean> exists = tables.pools().chain(table -> HBaseCalls.uni(() -> table.existsAll(slice)))
                        .await().atMost(WAIT);
                found += exists.stream().filter(e -> e).count();
            } catch (RuntimeException busy) {
                System.out.printf("pool check failed, asking again: %s%n", busy.getMessage());
                return found;
            }
        }
        return found;
    }
}
