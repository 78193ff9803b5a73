package io.pinion.graph;

import static io.pinion.graph.GraphKeys.BOARDS;
import static io.pinion.graph.GraphKeys.BOARD_FOLLOWERS;
import static io.pinion.graph.GraphKeys.BOARD_UNFOLLOWERS;
import static io.pinion.graph.GraphKeys.FOLLOWERS;
import static io.pinion.graph.GraphKeys.FOLLOWING;
import static io.pinion.graph.GraphKeys.IMPLICIT_FOLLOWERS;
import static io.pinion.graph.GraphKeys.IMPLICIT_FOLLOWING;
import static io.pinion.graph.GraphKeys.INTERESTS;
import static io.pinion.graph.GraphKeys.UNFOLLOWED_BOARDS;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.store.ObjectCache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * Point and batch checks, and exact counts. Every check reads only the asking user's virtual shard, in one round
 * trip: "A follows board X" is derived there from A's explicit board follows, A's followed users (X's owner) and
 * A's board unfollows.
 */
@ApplicationScoped
public class FollowQueries {

    private final VirtualShards shards;
    private final GraphRedis redis;
    private final GraphTargets targets;
    private final ObjectCache cache;

    FollowQueries(VirtualShards shards, GraphRedis redis, GraphTargets targets, ObjectCache cache) {
        this.shards = shards;
        this.redis = redis;
        this.targets = targets;
        this.cache = cache;
    }

    /**
     * How {@code user} relates to {@code other}: explicit follow time and implicit follow time (µs), or null. Kept in
     * the object cache as a fact of {@code user}, dropped whenever the user's follower side is written
     * ({@link FollowSync}, {@link FollowBulk}).
     */
    public Uni<UserFollow> userFollow(long user, long other) {
        UserFollow known = cachedUserFollow(user, other);
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        FollowsUser key = new FollowsUser(other);
        ObjectCache.Stamp stamp = cache.stamp(user);
        int vs = shards.ofUser(user);
        String id = Long.toString(other);
        return redis.batch(vs, List.of(
                        Request.cmd(Command.ZSCORE).arg(GraphKeys.user(vs, user, FOLLOWING)).arg(id),
                        Request.cmd(Command.ZSCORE).arg(GraphKeys.user(vs, user, IMPLICIT_FOLLOWING)).arg(id)))
                .map(answers -> {
                    UserFollow follow = new UserFollow(score(answers.get(0)), score(answers.get(1)));
                    cache.fillFact(key, follow, stamp);
                    return follow;
                });
    }

    /** The user's relation to user {@code other} as the object cache holds it, or null when it is not cached. */
    public UserFollow cachedUserFollow(long user, long other) {
        return cache.usable() && cache.fact(user, new FollowsUser(other)) instanceof UserFollow known ? known : null;
    }

    /** The cached fact "the owner's relation to user {@code other}". */
    private record FollowsUser(long other) {
    }

    /** Which of {@code others} the user follows explicitly, in the order given. One round trip. */
    public Uni<List<Boolean>> followsUsers(long user, List<PinionId> others) {
        int vs = shards.ofUser(user);
        Request scores = Request.cmd(Command.ZMSCORE).arg(GraphKeys.user(vs, user, FOLLOWING));
        others.forEach(other -> scores.arg(other.toString()));
        return redis.send(vs, scores).map(answer -> {
            List<Boolean> following = new ArrayList<>(others.size());
            for (int i = 0; i < others.size(); i++) {
                following.add(answer.get(i) != null);
            }
            return following;
        });
    }

    /** Whether the user follows the interest (a normalized name). */
    public Uni<Boolean> followsInterest(long user, String interest) {
        int vs = shards.ofUser(user);
        return redis.send(vs, Request.cmd(Command.ZSCORE).arg(GraphKeys.user(vs, user, INTERESTS)).arg(interest))
                .map(answer -> answer != null);
    }

    /** Which of the interests (normalized names) the user follows, in the order given. One round trip. */
    public Uni<List<Boolean>> followsInterests(long user, List<String> interests) {
        if (interests.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        int vs = shards.ofUser(user);
        Request scores = Request.cmd(Command.ZMSCORE).arg(GraphKeys.user(vs, user, INTERESTS));
        interests.forEach(scores::arg);
        return redis.send(vs, scores).map(answer -> {
            List<Boolean> following = new ArrayList<>(interests.size());
            for (int i = 0; i < interests.size(); i++) {
                following.add(answer.get(i) != null);
            }
            return following;
        });
    }

    /**
     * How the user relates to a board whose owner the caller knows: the board's own follow, the owner's explicit and
     * implicit follows and the board's unfollow, read from the user's shard in one round trip.
     */
    public Uni<BoardRelation> boardRelation(long user, long board, long owner) {
        int vs = shards.ofUser(user);
        String boardId = Long.toString(board);
        String ownerId = Long.toString(owner);
        return redis.batch(vs, List.of(
                        Request.cmd(Command.ZSCORE).arg(GraphKeys.user(vs, user, BOARDS)).arg(boardId),
                        Request.cmd(Command.ZSCORE).arg(GraphKeys.user(vs, user, FOLLOWING)).arg(ownerId),
                        Request.cmd(Command.ZSCORE).arg(GraphKeys.user(vs, user, IMPLICIT_FOLLOWING)).arg(ownerId),
                        Request.cmd(Command.SISMEMBER).arg(GraphKeys.user(vs, user, UNFOLLOWED_BOARDS)).arg(boardId)))
                .map(answers -> new BoardRelation(score(answers.get(0)), score(answers.get(1)), score(answers.get(2)),
                        answers.get(3).toInteger() == 1));
    }

    /** The interests the user follows, at most {@code max} of them, most recently followed first. */
    public Uni<List<String>> interests(long user, int max) {
        int vs = shards.ofUser(user);
        return redis.send(
                        vs,
                        Request.cmd(Command.ZREVRANGE)
                                .arg(GraphKeys.user(vs, user, INTERESTS))
                                .arg(0)
                                .arg(max - 1))
                .map(answer -> {
                    List<String> names = new ArrayList<>(answer.size());
                    answer.forEach(name -> names.add(name.toString()));
                    return names;
                });
    }

    /** Whether the user follows the board (explicitly, or through its owner without having unfollowed it). */
    public Uni<Boolean> followsBoard(long user, PinionId board) {
        return targets.ownerOf(board).chain(owner -> followsBoards(user, List.of(board), Map.of(board, owner)))
                .map(answers -> answers.get(0));
    }

    /** Which of the boards the user follows, in the order given; unknown boards are not followed. One round trip. */
    public Uni<List<Boolean>> followsBoards(long user, List<PinionId> boards) {
        return targets.ownersOf(boards).chain(owners -> followsBoards(user, boards, owners));
    }

    /** Which of the boards, whose owners the caller already knows, the user follows; one round trip. */
    public Uni<List<Boolean>> followsBoards(long user, List<PinionId> boards, Map<PinionId, Long> owners) {
        List<PinionId> known = boards.stream().filter(owners::containsKey).toList();
        if (known.isEmpty()) {
            return Uni.createFrom().item(boards.stream().map(board -> false).toList());
        }
        int vs = shards.ofUser(user);
        Request explicit = Request.cmd(Command.ZMSCORE).arg(GraphKeys.user(vs, user, BOARDS));
        Request viaOwner = Request.cmd(Command.ZMSCORE).arg(GraphKeys.user(vs, user, FOLLOWING));
        Request unfollowed = Request.cmd(Command.SMISMEMBER).arg(GraphKeys.user(vs, user, UNFOLLOWED_BOARDS));
        for (PinionId board : known) {
            explicit.arg(board.toString());
            viaOwner.arg(Long.toString(owners.get(board)));
            unfollowed.arg(board.toString());
        }
        return redis.batch(vs, List.of(explicit, viaOwner, unfollowed)).map(answers -> {
            List<Boolean> result = new ArrayList<>(boards.size());
            int k = 0;
            for (PinionId board : boards) {
                if (!owners.containsKey(board)) {
                    result.add(false);
                    continue;
                }
                boolean follows = answers.get(0).get(k) != null
                        || (answers.get(1).get(k) != null && answers.get(2).get(k).toInteger() == 0);
                result.add(follows);
                k++;
            }
            return result;
        });
    }

    /** Exact counts of a user, one round trip. */
    public Uni<FollowCounts> counts(long user) {
        int vs = shards.ofUser(user);
        return redis.batch(vs, List.of(
                        zcard(GraphKeys.user(vs, user, FOLLOWERS)),
                        zcard(GraphKeys.user(vs, user, IMPLICIT_FOLLOWERS)),
                        zcard(GraphKeys.user(vs, user, FOLLOWING)),
                        zcard(GraphKeys.user(vs, user, IMPLICIT_FOLLOWING)),
                        zcard(GraphKeys.user(vs, user, BOARDS)),
                        zcard(GraphKeys.user(vs, user, INTERESTS))))
                .map(c -> new FollowCounts(c.get(0).toLong(), c.get(1).toLong(), c.get(2).toLong(), c.get(3).toLong(),
                        c.get(4).toLong(), c.get(5).toLong()));
    }

    /**
     * Exact follower count of a board: the owner's explicit followers, minus those who unfollowed the board, plus the
     * board's own explicit followers (the three sets are kept disjoint). One round trip to the owner's shard.
     */
    public Uni<Long> boardFollowers(long board, long owner) {
        int vs = shards.ofUser(owner);
        return redis.batch(vs, List.of(
                        zcard(GraphKeys.user(vs, owner, FOLLOWERS)),
                        Request.cmd(Command.SCARD).arg(GraphKeys.board(vs, board, BOARD_UNFOLLOWERS)),
                        zcard(GraphKeys.board(vs, board, BOARD_FOLLOWERS))))
                .map(c -> c.get(0).toLong() - c.get(1).toLong() + c.get(2).toLong());
    }

    private static Request zcard(String key) {
        return Request.cmd(Command.ZCARD).arg(key);
    }

    private static Long score(Response response) {
        return response == null ? null : (long) Double.parseDouble(response.toString());
    }

    /** Follow times in µs since the epoch, or null. */
    public record UserFollow(Long explicitSince, Long implicitSince) {
    }
}
