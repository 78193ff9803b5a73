package io.pinion.feed.explain;

import java.util.Map;

import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.MaterializedKey;

/**
 * Where the pin is in the user's materialized feed (what they were shown), if it is.
 *
 * @param entry   the pin's entry, or null when it is not there
 * @param index   its place among the entries read, newest first (0 = the top of the feed)
 * @param read    how many entries were read: the whole materialized feed, capped at {@code materialized-max}
 */
record ShownFinding(MaterializedFeed.Stored entry, int index, int read) implements Finding {

    boolean shown() {
        return entry != null;
    }

    /** The id of the chunk that showed it: its generation time (ms). */
    long chunk() {
        return entry.position() / MaterializedKey.MAX_CHUNK;
    }

    /** Its place in its chunk, 0 first. */
    int positionInChunk() {
        return (int) (MaterializedKey.MAX_CHUNK - 1 - entry.position() % MaterializedKey.MAX_CHUNK);
    }

    /**
     * Where it was shown: "from the following source in chunk … of …, position … of the chunk, entry … of the feed".
     */
    String where() {
        return "from the " + entry.entry().source().label() + " source in chunk " + chunk() + " of "
                + Evidence.time(chunk()) + ", position " + positionInChunk() + " of the chunk, entry " + index
                + " of the materialized feed";
    }

    @Override
    public String summary() {
        return shown()
                ? "shown " + where()
                : "not in the user's materialized feed (" + read + " entries read; the older"
                        + " pins a page lists past its end are not recorded)";
    }

    @Override
    public Map<String, Object> evidence() {
        Evidence evidence = new Evidence().put("shown", shown()).put("entriesRead", read);
        if (shown()) {
            evidence.put("chunk", Long.toString(chunk()))
                    .put("chunkAt", Evidence.time(chunk()))
                    .put("positionInChunk", positionInChunk())
                    .put("positionInFeed", index)
                    .put("source", entry.entry().source().label())
                    .put("score", entry.entry().score());
        }
        return evidence.map();
    }
}
