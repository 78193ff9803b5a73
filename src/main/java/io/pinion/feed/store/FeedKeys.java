package io.pinion.feed.store;

import io.pinion.graph.GraphKeys;

/**
 * The Redis keys the home feed owns, all in one place. They live beside the graph's keys of the same user or board,
 * under the graph's per-shard prefix ({@code g:{vs}:}, {@link GraphKeys#prefix}), so a virtual shard move carries them
 * with the rest of the shard, and a script can read a user's follow sets and feed state in one slot.
 *
 * <pre>
 * g:{vs}:u:&lt;user&gt;:fs        hash  the user's feed state: v last visit, w pulled until (ms), s next chunk size,
 *                               n pool rows (approximate)
 * g:{vs}:u:&lt;user&gt;:aff       hash  affinity: author -&gt; likes and saves of their pins by the user
 * g:{vs}:b:&lt;board&gt;:rel     zset  users whose related pools took pins of the board (score: time, ms), on the
 *                               owner's virtual shard
 * g:{0}:pulled             zset  authors in pull mode (score: creation time of their newest pulled pin, ms)
 * g:{vs}:fn:&lt;e&gt;&lt;id&gt;:d&lt;day&gt;
 *                          hash  an entity's funnel by minute of a UTC day (days since the epoch); e is p (pin),
 *                               a (author) or b (board), on the virtual shard of the id; field
 *                               "&lt;minute of the day&gt;.&lt;stage&gt;.&lt;source&gt;.&lt;reason&gt;", value: count
 * g:{vs}:fn:&lt;e&gt;&lt;id&gt;:h&lt;month&gt;
 *                          hash  the same by hour of a UTC month (months since 1970-01); field
 *                               "&lt;hour of the month&gt;.&lt;stage&gt;.&lt;source&gt;.&lt;reason&gt;"
 * </pre>
 */
public final class FeedKeys {

    /** The virtual shard the registry of authors in pull mode lives on. */
    public static final int PULLED_AUTHORS_SHARD = 0;

    private static final String FEED_STATE = "fs";
    private static final String AFFINITY = "aff";
    private static final String RELATED_RECEIVERS = "rel";

    private FeedKeys() {
    }

    /** A user's feed state hash ({@link FeedStates}), on the user's virtual shard {@code vs}. */
    public static String feedState(int vs, long user) {
        return GraphKeys.user(vs, user, FEED_STATE);
    }

    /** A user's affinity hash ({@link Affinity}), on the user's virtual shard {@code vs}. */
    public static String affinity(int vs, long user) {
        return GraphKeys.user(vs, user, AFFINITY);
    }

    /** The board's related-pool receivers ({@link RelatedReceivers}), on its owner's virtual shard. */
    public static String relatedReceivers(int ownerVs, long board) {
        return GraphKeys.board(ownerVs, board, RELATED_RECEIVERS);
    }

    /** An entity's funnel by minute of a UTC day ({@code feed.funnel}); {@code kind} is p, a or b. */
    public static String funnelByMinute(int vs, char kind, long id, long epochDay) {
        return GraphKeys.prefix(vs) + "fn:" + kind + id + ":d" + epochDay;
    }

    /** An entity's funnel by hour of a UTC month ({@code feed.funnel}); {@code kind} is p, a or b. */
    public static String funnelByHour(int vs, char kind, long id, long epochMonth) {
        return GraphKeys.prefix(vs) + "fn:" + kind + id + ":h" + epochMonth;
    }

    /** The registry of authors in pull mode ({@link PulledAuthors}), on {@link #PULLED_AUTHORS_SHARD}. */
    public static String pulledAuthors() {
        return GraphKeys.prefix(PULLED_AUTHORS_SHARD) + "pulled";
    }
}
