package io.pinion.feed;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The per-entity funnel's counts since the last flush, in memory: one entry per pin (with its author and board),
 * minute, stage, source and reason, so a pin shown to a thousand users in a minute is one entry of 1,000. The
 * flush ({@code feed.funnel.FunnelFlusher}) takes them out entry by entry, so a count added meanwhile is never lost:
 * it lands in a new entry that the next flush takes.
 *
 * <p>Bounded in bytes ({@code pinion.feed.funnel.max-bytes}, at {@link #ENTRY_BYTES} per entry): when full, a count
 * for a new entry is dropped (and counted as dropped) and the flusher is told to run at once ({@link #onFull}).
 */
@ApplicationScoped
public class FunnelTally {

    /**
     * Heap per entry, from the object layouts with compressed references: the key (40 bytes) and its pin (40), the
     * map's node (32), the boxed count (16) and the entry's share of the map's table (up to 11): 139, rounded up.
     */
    public static final int ENTRY_BYTES = 160;

    /** One entry's key: what is counted and the minute (since the epoch) it was counted in. */
    public record Key(FunnelPin pin, long minute, FeedFunnel.Stage stage, FeedSource source, FeedFunnel.Reason reason) {
    }

    /** A flushed entry. */
    public record Count(Key key, long n) {
    }

    private final ConcurrentHashMap<Key, Long> counts = new ConcurrentHashMap<>();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicBoolean fullTold = new AtomicBoolean();
    private volatile Runnable onFull = () -> { };
    private final boolean enabled;
    private final long maxEntries;

    @Inject
    FunnelTally(FeedConfig config) {
        this(config.funnel().perEntity(), config.funnel().maxBytes());
    }

    public FunnelTally(boolean enabled, long maxBytes) {
        this.enabled = enabled;
        this.maxEntries = Math.max(1, maxBytes / ENTRY_BYTES);
    }

    public boolean enabled() {
        return enabled;
    }

    /** Adds {@code n} for the pin at {@code nowMillis}; a pin with no part known is not counted. */
    public void add(FunnelPin pin, FeedFunnel.Stage stage, FeedSource source, FeedFunnel.Reason reason, long n,
            long nowMillis) {
        if (!enabled || n <= 0 || pin == null || pin.pin() == 0 && pin.author() == 0 && pin.board() == 0) {
            return;
        }
        Key key = new Key(pin, nowMillis / 60_000, stage, source, reason);
        if (counts.size() >= maxEntries && !counts.containsKey(key)) {
            dropped.addAndGet(n);
            if (fullTold.compareAndSet(false, true)) {
                onFull.run();
            }
            return;
        }
        counts.merge(key, n, Long::sum);
    }

    /** What to run, once, when the tally is first found full after a drain (the flusher: a flush at once). */
    public void onFull(Runnable action) {
        this.onFull = action;
    }

    /** Entries held now. */
    public int size() {
        return counts.size();
    }

    /** Takes out every entry held now, at most {@code max}; each entry is removed as it is taken. */
    public List<Count> drain(int max) {
        fullTold.set(false);
        List<Count> taken = new ArrayList<>(Math.min(max, counts.size()));
        for (Map.Entry<Key, Long> entry : counts.entrySet()) {
            if (taken.size() >= max) {
                break;
            }
            Long n = counts.remove(entry.getKey());
            if (n != null) {
                taken.add(new Count(entry.getKey(), n));
            }
        }
        return taken;
    }

    /** Counts dropped since the last call, because the tally was full. */
    public long takeDropped() {
        return dropped.getAndSet(0);
    }
}
