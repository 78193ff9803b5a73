package io.pinion.graph;

import java.util.List;

/**
 * Follower A and an interest (scripts follow_interest.lua and mirror_interest.lua).
 */
public record InterestRelationship(long follower, String interest, int followerShard, int targetShard)
        implements Relationship {

    public InterestRelationship(long follower, String interest, VirtualShards shards) {
        this(follower, interest, shards.ofUser(follower), shards.ofInterest(interest));
    }

    @Override
    public String name() {
        return GraphKeys.interestPair(follower, interest);
    }

    @Override
    public GraphScript followerScript() {
        return GraphScript.FOLLOW_INTEREST;
    }

    @Override
    public List<String> followerKeys() {
        return List.of(GraphKeys.user(followerShard, follower, GraphKeys.INTERESTS), GraphKeys.pending(followerShard));
    }

    @Override
    public List<String> followerArgs(String op, String board, String state, String mark) {
        return List.of(op, interest, name(), state == null ? "" : state, mark == null ? "" : mark);
    }

    @Override
    public GraphScript mirrorScript() {
        return GraphScript.MIRROR_INTEREST;
    }

    @Override
    public List<String> mirrorKeys() {
        return List.of(GraphKeys.interest(targetShard, interest));
    }

    @Override
    public List<String> mirrorArgs(String state) {
        return List.of(Long.toString(follower), state);
    }
}
