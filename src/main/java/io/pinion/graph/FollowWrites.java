package io.pinion.graph;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.InvalidInput;
import io.pinion.failure.Unavailable;
import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;

/**
 * Follow and unfollow, as the follower. The follower's side is written first, atomically, with a pending mark;
 * then the followed side is synced to it. If the followed side cannot be written, the change is still accepted:
 * a repair job (and, failing that, the pending sweep) brings the other side in line. If the follower's side does
 * not answer, the request gets a 503 and a repair is scheduled in case the write landed anyway.
 */
@ApplicationScoped
public class FollowWrites {

    private final VirtualShards shards;
    private final FollowSync sync;
    private final GraphRepairs repairs;
    private final GraphTargets targets;
    private final FollowEvents events;
    private final GraphMetrics metrics;

    FollowWrites(VirtualShards shards, FollowSync sync, GraphRepairs repairs, GraphTargets targets, FollowEvents events,
            GraphMetrics metrics) {
        this.shards = shards;
        this.sync = sync;
        this.repairs = repairs;
        this.targets = targets;
        this.events = events;
        this.metrics = metrics;
    }

    public Uni<Boolean> followUser(PinionId follower, PinionId user) {
        if (follower.equals(user)) {
            return Uni.createFrom().failure(new InvalidInput("cannot_follow_self", "a user cannot follow themselves"));
        }
        return targets.requireUser(user)
                .chain(() -> userOp(follower, user.value(), "follow_user", null))
                .call(changed -> emit(changed, "follow_user", follower, user.toString(), null));
    }

    public Uni<Boolean> unfollowUser(PinionId follower, PinionId user) {
        if (follower.equals(user)) {
            return Uni.createFrom().failure(new InvalidInput("cannot_follow_self", "a user cannot follow themselves"));
        }
        return targets.requireUser(user)
                .chain(() -> userOp(follower, user.value(), "unfollow_user", null))
                .call(changed -> emit(changed, "unfollow_user", follower, user.toString(), null));
    }

    public Uni<Boolean> followBoard(PinionId follower, PinionId board) {
        return targets.ownerOfActive(board)
                .chain(owner -> ownBoardRefused(follower, owner)
                        .chain(() -> userOp(follower, owner, "follow_board", board))
                        .call(changed -> emit(changed, "follow_board", follower, board.toString(), owner)));
    }

    public Uni<Boolean> unfollowBoard(PinionId follower, PinionId board) {
        return targets.ownerOf(board)
                .chain(owner -> ownBoardRefused(follower, owner)
                        .chain(() -> userOp(follower, owner, "unfollow_board", board))
                        .call(changed -> emit(changed, "unfollow_board", follower, board.toString(), owner)));
    }

    public Uni<Boolean> followInterest(PinionId follower, String interest) {
        return apply(new InterestRelationship(follower.value(), interest, shards), "follow", null)
                .call(changed -> emit(changed, "follow_interest", follower, interest, null));
    }

    public Uni<Boolean> unfollowInterest(PinionId follower, String interest) {
        return apply(new InterestRelationship(follower.value(), interest, shards), "unfollow", null)
                .call(changed -> emit(changed, "unfollow_interest", follower, interest, null));
    }

    private Uni<Boolean> userOp(PinionId follower, long user, String op, PinionId board) {
        return apply(
                new UserRelationship(follower.value(), user, shards),
                op,
                board == null ? null : Long.toString(board.value()));
    }

    private Uni<Boolean> apply(Relationship relationship, String op, String board) {
        return sync.onFollowerSide(relationship, op, board)
                .onFailure(Unavailable.class).call(failure -> repairs.schedule(relationship, failure))
                .call(side -> sync.sync(relationship, side)
                        .onFailure().recoverWithUni(failure -> repairs.schedule(relationship, failure)))
                .map(FollowerSide::changed);
    }

    private static Uni<Void> ownBoardRefused(PinionId follower, long owner) {
        if (owner == follower.value()) {
            return Uni.createFrom()
                    .failure(new InvalidInput("cannot_follow_self", "a user cannot follow their own board"));
        }
        return Uni.createFrom().voidItem();
    }

    private Uni<Void> emit(boolean changed, String type, PinionId follower, String target, Long owner) {
        if (!changed) {
            return Uni.createFrom().voidItem();
        }
        metrics.changed(type);
        return events.emit(new FollowEvent(type, follower.toString(), target,
                owner == null ? null : PinionId.decode(owner).toString(), System.currentTimeMillis()));
    }
}
