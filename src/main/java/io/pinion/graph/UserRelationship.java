package io.pinion.graph;

import static io.pinion.graph.GraphKeys.BOARDS;
import static io.pinion.graph.GraphKeys.FOLLOWERS;
import static io.pinion.graph.GraphKeys.FOLLOWING;
import static io.pinion.graph.GraphKeys.IMPLICIT_FOLLOWERS;
import static io.pinion.graph.GraphKeys.IMPLICIT_FOLLOWING;
import static io.pinion.graph.GraphKeys.UNFOLLOWED_BOARDS;

import java.util.List;

/**
 * Follower A and user C, including A's follows and unfollows of C's single boards (scripts follow_user.lua and
 * mirror_user.lua).
 */
public record UserRelationship(long follower, long followed, int followerShard, int targetShard)
        implements Relationship {

    public UserRelationship(long follower, long followed, VirtualShards shards) {
        this(follower, followed, shards.ofUser(follower), shards.ofUser(followed));
    }

    @Override
    public String name() {
        return GraphKeys.userPair(follower, followed);
    }

    @Override
    public GraphScript followerScript() {
        return GraphScript.FOLLOW_USER;
    }

    @Override
    public List<String> followerKeys() {
        int vs = followerShard;
        return List.of(
                GraphKeys.user(vs, follower, FOLLOWING),
                GraphKeys.user(vs, follower, IMPLICIT_FOLLOWING),
                GraphKeys.user(vs, follower, BOARDS),
                GraphKeys.user(vs, follower, UNFOLLOWED_BOARDS),
                GraphKeys.boardsOf(vs, follower, followed),
                GraphKeys.unfollowedBoardsOf(vs, follower, followed),
                GraphKeys.pending(vs));
    }

    @Override
    public List<String> followerArgs(String op, String board, String state, String mark) {
        return List.of(op, Long.toString(followed), board == null ? "" : board, name(),
                state == null ? "" : state, mark == null ? "" : mark);
    }

    @Override
    public GraphScript mirrorScript() {
        return GraphScript.MIRROR_USER;
    }

    @Override
    public List<String> mirrorKeys() {
        int vs = targetShard;
        return List.of(
                GraphKeys.user(vs, followed, FOLLOWERS),
                GraphKeys.user(vs, followed, IMPLICIT_FOLLOWERS),
                GraphKeys.user(vs, followed, "p:" + follower));
    }

    @Override
    public List<String> mirrorArgs(String state) {
        return List.of(Long.toString(follower), GraphKeys.boards(targetShard), state);
    }
}
