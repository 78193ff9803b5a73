package io.pinion.graph;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Key names of the graph. Every key starts with {@code g:{vs}:}, its virtual shard as a hash tag, so a range of
 * virtual shards can be found ({@code SCAN MATCH g:{vs}:*}) and moved, and all keys one script touches share a slot.
 *
 * <pre>
 * g:{vs}:u:&lt;user&gt;:fu        zset  users followed explicitly (score: time, µs)
 * g:{vs}:u:&lt;user&gt;:fi        zset  users followed implicitly (through one or more of their boards)
 * g:{vs}:u:&lt;user&gt;:fre       zset  explicit followers
 * g:{vs}:u:&lt;user&gt;:fri       zset  implicit followers
 * g:{vs}:u:&lt;user&gt;:fb        zset  boards followed explicitly
 * g:{vs}:u:&lt;user&gt;:ub        set   boards unfollowed explicitly
 * g:{vs}:u:&lt;user&gt;:fb:&lt;C&gt;    zset  boards of user C followed explicitly (the pair's part of fb)
 * g:{vs}:u:&lt;user&gt;:ub:&lt;C&gt;    set   boards of user C unfollowed explicitly (the pair's part of ub)
 * g:{vs}:u:&lt;user&gt;:in        zset  interests followed
 * g:{vs}:u:&lt;user&gt;:pp        zset  a pulled author's most recent pins (member pin:board:author,
 *                               score: creation ms)
 * g:{vs}:u:&lt;C&gt;:p:&lt;A&gt;        hash  followed user's index of follower A's board-level relations:
 *                               board -&gt; f|u
 * g:{vs}:b:&lt;board&gt;:f       zset  the board's explicit followers (vs of the board's owner)
 * g:{vs}:b:&lt;board&gt;:u       set   the board's explicit unfollowers (vs of the board's owner)
 * g:{vs}:i:&lt;interest&gt;:f    zset  the interest's followers
 * g:{vs}:i:&lt;interest&gt;:p    zset  the interest's most recent pins (member pin:board:author, score: creation ms)
 * g:{vs}:pending          zset  relationships changed on this shard whose other side is not yet confirmed
 * g:{vs}:journal          zset  relationships either side of which was written on this shard lately (score: µs)
 * </pre>
 *
 * The home feed keeps keys of its own under the same prefix (a user's feed state and affinity, a board's related-pool
 * receivers, the registry of pulled authors): {@code io.pinion.feed.store.FeedKeys} names them.
 */
public final class GraphKeys {

    private GraphKeys() {
    }

    /** A SCAN pattern that matches every graph key. */
    public static final String ALL = "g:{*";

    private static final Pattern SHARD = Pattern.compile("^g:\\{(\\d+)}:");

    public static String prefix(int vs) {
        return "g:{" + vs + "}:";
    }

    /** The virtual shard a graph key belongs to, or -1 when it is not a graph key. */
    public static int shardOf(String key) {
        Matcher matcher = SHARD.matcher(key);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : -1;
    }

    public static String user(int vs, long user, String suffix) {
        return prefix(vs) + "u:" + user + ":" + suffix;
    }

    /** Prefix of the keys of the boards of a user on virtual shard {@code vs}: {@code <prefix><board>:f|u}. */
    public static String boards(int vs) {
        return prefix(vs) + "b:";
    }

    public static String board(int ownerVs, long board, String suffix) {
        return boards(ownerVs) + board + ":" + suffix;
    }

    public static String interest(int vs, String name) {
        return prefix(vs) + "i:" + name + ":f";
    }

    public static String interestPins(int vs, String name) {
        return prefix(vs) + "i:" + name + ":p";
    }

    /** The boards of user {@code other} that {@code user} follows explicitly (zset, on the user's shard). */
    public static String boardsOf(int vs, long user, long other) {
        return user(vs, user, BOARDS + ":" + other);
    }

    /** The boards of user {@code other} that {@code user} unfollowed explicitly (set, on the user's shard). */
    public static String unfollowedBoardsOf(int vs, long user, long other) {
        return user(vs, user, UNFOLLOWED_BOARDS + ":" + other);
    }

    public static String pending(int vs) {
        return prefix(vs) + "pending";
    }

    /**
     * The relationships written on this shard within {@code pinion.graph.journal-window}, for repairs after a failover.
     */
    public static String journal(int vs) {
        return prefix(vs) + "journal";
    }

    /** Name of a user relationship in the pending zset. */
    public static String userPair(long follower, long followed) {
        return "u:" + follower + ":" + followed;
    }

    /** Name of an interest relationship in the pending zset. */
    public static String interestPair(long follower, String interest) {
        return "i:" + follower + ":" + interest;
    }

    public static final String FOLLOWING = "fu";
    public static final String IMPLICIT_FOLLOWING = "fi";
    public static final String FOLLOWERS = "fre";
    public static final String IMPLICIT_FOLLOWERS = "fri";
    public static final String BOARDS = "fb";
    public static final String UNFOLLOWED_BOARDS = "ub";
    public static final String INTERESTS = "in";
    public static final String BOARD_FOLLOWERS = "f";
    public static final String BOARD_UNFOLLOWERS = "u";
    public static final String AUTHOR_PINS = "pp";
}
