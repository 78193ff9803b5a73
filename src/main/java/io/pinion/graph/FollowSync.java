package io.pinion.graph;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.store.CacheChannel;
import io.smallrye.mutiny.Uni;

/**
 * Brings the followed side of a relationship in line with the follower's side: write the follower's state to the
 * other shard, then re-read the follower's side; if it changed meanwhile (a concurrent request), write again. When
 * the state read back equals the one written, the follower's side drops its pending mark. Whoever writes the other
 * side last has confirmed afterwards that it wrote the current state, so concurrent requests and repairs converge.
 */
@ApplicationScoped
public class FollowSync {

    private static final int ROUNDS = 4;

    private final GraphRedis redis;
    private final CacheChannel cache;

    FollowSync(GraphRedis redis, CacheChannel cache) {
        this.redis = redis;
        this.cache = cache;
    }

    /**
     * Runs a follower-side op (follow_user, unfollow_board, follow, read, ...) and returns what it answered. A write
     * drops what the object caches derived from the follower's side, here and on every instance, once it has ended
     * (also when it failed: it may have been applied).
     */
    public Uni<FollowerSide> onFollowerSide(Relationship relationship, String op, String board) {
        boolean write = !"read".equals(op);
        List<String> args = relationship.followerArgs(op, board, null, null);
        Uni<FollowerSide> side = (write
                ? redis.journaledScript(relationship.followerShard(), relationship.followerScript(),
                        relationship.followerKeys(), args, relationship.name())
                : redis.script(relationship.followerShard(), relationship.followerScript(), relationship.followerKeys(),
                        args, false))
                .map(FollowerSide::of);
        return write ? side.onTermination().invoke(() -> cache.changed(List.of(relationship.follower()))) : side;
    }

    /** Makes the other side equal the follower's side, starting from a state the follower's side just answered. */
    public Uni<Void> sync(Relationship relationship, FollowerSide side) {
        return sync(relationship, side, 1);
    }

    /** Reads the follower's side and makes the other side equal it: the repair of one relationship. */
    public Uni<Void> repair(Relationship relationship) {
        return onFollowerSide(relationship, "read", null).chain(side -> sync(relationship, side));
    }

    private Uni<Void> sync(Relationship relationship, FollowerSide side, int round) {
        return redis.journaledScript(relationship.targetShard(), relationship.mirrorScript(), relationship.mirrorKeys(),
                        relationship.mirrorArgs(side.state()), relationship.name())
                .chain(mirrored -> settle(relationship, side))
                .chain(now -> {
                    if (now.state().equals(side.state())) {
                        return Uni.createFrom().voidItem();
                    }
                    if (round >= ROUNDS) {
                        return Uni.createFrom().failure(new IllegalStateException(
                                "relationship " + relationship.name() + " kept changing while it was synced"));
                    }
                    return sync(relationship, now, round + 1);
                });
    }

    private Uni<FollowerSide> settle(Relationship relationship, FollowerSide side) {
        List<String> args = relationship.followerArgs("settle", null, side.state(), side.mark());
        return redis.script(relationship.followerShard(), relationship.followerScript(), relationship.followerKeys(),
                args, false).map(FollowerSide::of);
    }
}
