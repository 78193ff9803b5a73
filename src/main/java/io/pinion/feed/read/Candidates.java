package io.pinion.feed.read;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.pinion.feed.FeedSource;
import io.pinion.feed.FeedState;
import io.pinion.feed.PoolEntry;

/**
 * What the content generator read for one visit: the best rows of each pool, the pins pulled from followed pulled
 * authors and interests, and the user's feed state.
 *
 * @param state    the user's feed state as read
 * @param size     the chunk size to plan
 * @param pooled   per source, the pool's best rows
 * @param pulled   pins pulled at read time, scored for the user (not pool rows)
 * @param pulledAt the time the pulled sources were read up to
 */
record Candidates(FeedState state, int size, Map<FeedSource, List<PoolEntry>> pooled, List<PoolEntry> pulled,
        long pulledAt, Set<PoolEntry> pulledEntries) {

    Candidates(
            FeedState state, int size, Map<FeedSource, List<PoolEntry>> pooled, List<PoolEntry> pulled, long pulledAt) {
        this(state, size, pooled, pulled, pulledAt, identities(pulled));
    }

    boolean isPulled(PoolEntry entry) {
        return pulledEntries.contains(entry);
    }

    int pooledCount() {
        return pooled.values().stream().mapToInt(List::size).sum();
    }

    private static Set<PoolEntry> identities(List<PoolEntry> pulled) {
        Set<PoolEntry> set = Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(pulled);
        return set;
    }
}
