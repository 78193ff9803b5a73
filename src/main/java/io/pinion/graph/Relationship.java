package io.pinion.graph;

import java.util.List;

/**
 * One relationship whose two sides live on two virtual shards: the follower's side, which is the truth, and the
 * followed user's or interest's side, which mirrors it. Its {@link #name()} identifies it in the pending set and in
 * repair jobs.
 */
public sealed interface Relationship permits UserRelationship, InterestRelationship {

    long follower();

    int followerShard();

    int targetShard();

    String name();

    GraphScript followerScript();

    List<String> followerKeys();

    /** Arguments of the follower-side script: an op, and for {@code settle} the state and change time to confirm. */
    List<String> followerArgs(String op, String board, String state, String mark);

    GraphScript mirrorScript();

    List<String> mirrorKeys();

    List<String> mirrorArgs(String state);

    /** The relationship a pending-set entry or repair job names. */
    static Relationship parse(String name, VirtualShards shards) {
        String[] parts = name.split(":", 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a relationship name: " + name);
        }
        long follower = Long.parseLong(parts[1]);
        return switch (parts[0]) {
            case "u" -> new UserRelationship(follower, Long.parseLong(parts[2]), shards);
            case "i" -> new InterestRelationship(follower, parts[2], shards);
            default -> throw new IllegalArgumentException("not a relationship name: " + name);
        };
    }
}
