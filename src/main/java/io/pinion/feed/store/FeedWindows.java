package io.pinion.feed.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.pinion.feed.FeedConfig;

/**
 * Each user's window of their materialized feed on this instance: the entries a page read from HBase beyond
 * the page itself ({@code pinion.feed.read-ahead.pages} pages of the request's size), so the next pages of the
 * session are answered without another scan. A window holds consecutive entries, newest first, below a position
 * (or from the newest); it answers a next page whose cursor lies inside it when it holds the whole page or reaches
 * the feed's end. First pages never read it: they read the newest entries every time.
 *
 * <p>What a window holds is at most {@code pinion.feed.read-ahead.ttl} old. Removals on this instance (an
 * unfollow's, a purge's) drop the user's window; removals on another instance, and the oldest entries a trim
 * removes, show within the TTL, as a page read from the standby could show them. A first page drops from the
 * window the pins of the chunk it hands out, whose older copies the chunk's write removes. Bounded in bytes
 * ({@code pinion.feed.read-ahead.max-bytes}).
 *
 * <p>Thread contract: any thread; windows are immutable and replaced whole (Caffeine's map), nothing blocks.
 */
@ApplicationScoped
public class FeedWindows {

    /** Most entries read ahead, whatever the page size. */
    static final int MAX_AHEAD = 300;
    private static final int BYTES_PER_ENTRY = 100;
    private static final int BYTES_PER_WINDOW = 96;

    /**
     * Entries below {@code below} (exclusive; null: from the newest), newest first, with no gap; {@code end}: the
     * feed has nothing older.
     */
    record Window(Long below, List<MaterializedFeed.Stored> entries, boolean end) {

        int weight() {
            return BYTES_PER_WINDOW + entries.size() * BYTES_PER_ENTRY;
        }

        /** Up to {@code count} entries below {@code after}, or null when the window cannot tell them all. */
        List<MaterializedFeed.Stored> below(long after, int count) {
            if (below != null && after > below) {
                return null;
            }
            if (!end && (entries.isEmpty() || after < entries.get(entries.size() - 1).position())) {
                return null;
            }
            int from = 0;
            while (from < entries.size() && entries.get(from).position() >= after) {
                from++;
            }
            int available = entries.size() - from;
            if (available < count && !end) {
                return null;
            }
            return entries.subList(from, from + Math.min(count, available));
        }

        Window without(Collection<Long> pins) {
            List<MaterializedFeed.Stored> kept = new ArrayList<>(entries.size());
            for (MaterializedFeed.Stored stored : entries) {
                if (!pins.contains(stored.entry().pin())) {
                    kept.add(stored);
                }
            }
            return kept.size() == entries.size() ? this : new Window(below, List.copyOf(kept), end);
        }
    }

    private final int pages;
    private final Cache<Long, Window> windows;

    FeedWindows(FeedConfig config) {
        this.pages = Math.max(0, config.readAhead().pages());
        this.windows = Caffeine.newBuilder()
                .maximumWeight(config.readAhead().maxBytes())
                .weigher((Long user, Window window) -> window.weight())
                .expireAfterWrite(config.readAhead().ttl())
                .build();
    }

    /** Entries to read beyond a page of {@code count} entries (0: no read-ahead). */
    int ahead(int count) {
        return pages == 0 ? 0 : Math.min(MAX_AHEAD, pages * Math.max(1, count - 1));
    }

    /** Up to {@code count} entries below {@code after} from the user's window, or null when it has no answer. */
    List<MaterializedFeed.Stored> page(long user, long after, int count) {
        Window window = windows.getIfPresent(user);
        return window == null ? null : window.below(after, count);
    }

    /** Keeps what a scan below {@code below} read ({@code end}: it read to the feed's end). */
    void keep(long user, Long below, List<MaterializedFeed.Stored> entries, boolean end) {
        if (pages > 0) {
            windows.put(user, new Window(below, List.copyOf(entries), end));
        }
    }

    /** The pins leave the user's window (a new chunk holds them; their older copies are being removed). */
    public void exclude(long user, Collection<Long> pins) {
        if (pins.isEmpty()) {
            return;
        }
        windows.asMap().computeIfPresent(user, (ignored, window) -> window.without(pins));
    }

    /** The user's window is gone (entries were removed from the feed). */
    public void forget(long user) {
        windows.invalidate(user);
    }
}
