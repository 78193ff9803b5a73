package io.pinion.store;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import jakarta.enterprise.context.ApplicationScoped;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

/**
 * Pins, boards and users with their counters, and the newest entries of their lists ({@link ListHead}), kept in
 * process in front of MySQL, bounded in bytes.
 *
 * <p>The cache is exact, not merely fresh-ish: every committed write of an object or a counter invalidates the
 * object here and, through {@link CacheChannel}, on every other instance. It is used only while it is trusted, that
 * is while the invalidation channel is known to deliver (an instance's own heartbeats come back). While the channel
 * is slow it is bypassed; when the channel is lost it is emptied and bypassed, and it starts empty again when the
 * channel is back.
 *
 * <p>A read that misses goes to MySQL and then fills the entry, unless an invalidation of the same stripe of ids
 * (or a clear) happened since the read began: a fill never puts back a value older than a write it raced with. The
 * check and the put are one atomic step per key, as is an invalidation.
 */
@ApplicationScoped
public class ObjectCache {

    private static final int STRIPES = 4096;
    /** Bytes an entry costs besides its JSON: the map node, the key, the record, the instant and the counts map. */
    private static final int ENTRY_BYTES = 240;
    private static final int COUNTER_BYTES = 64;
    private static final MappingTable[] TABLES = MappingTable.values();

    private final boolean enabled;
    private final Cache<Long, StoredObject> entries;
    private final Cache<ListKey, ListHead> lists;
    private final Cache<Long, OwnerFacts> facts;
    private final AtomicLongArray versions = new AtomicLongArray(STRIPES);
    private final AtomicLong epoch = new AtomicLong();
    private final CacheTrust trust = new CacheTrust();

    ObjectCache(CacheConfig config, MeterRegistry registry) {
        this.enabled = config.enabled();
        this.entries = Caffeine.newBuilder()
                .maximumWeight(config.maxBytes().asLongValue())
                .weigher((Long id, StoredObject object) -> weight(object))
                .expireAfterWrite(config.expireAfter())
                .recordStats()
                .build();
        this.lists = Caffeine.newBuilder()
                .maximumWeight(config.listMaxBytes().asLongValue())
                .weigher((ListKey key, ListHead head) -> head.weight())
                .expireAfterWrite(config.expireAfter())
                .recordStats()
                .build();
        this.facts = Caffeine.newBuilder()
                .maximumWeight(config.factMaxBytes().asLongValue())
                .weigher((Long owner, OwnerFacts kept) -> kept.weight())
                .expireAfterWrite(config.expireAfter())
                .recordStats()
                .build();
        CaffeineCacheMetrics.monitor(registry, entries, "objects");
        CaffeineCacheMetrics.monitor(registry, facts, "facts");
        CaffeineCacheMetrics.monitor(registry, lists, "lists");
        registry.gauge("pinion.cache.trusted", this, cache -> cache.usable() ? 1 : 0);
        registry.gauge("pinion.cache.bytes", entries, cache -> cache.policy().eviction()
                .flatMap(eviction -> eviction.weightedSize().stream().boxed().findFirst()).orElse(0L));
    }

    /** Whether reads may use the cache now. */
    public boolean usable() {
        return enabled && trust.state() == CacheTrust.State.DELIVERING;
    }

    /** The state of trust, driven by the invalidation channel. */
    CacheTrust trust() {
        return trust;
    }

    /** The cached object, or null. */
    public StoredObject get(long id) {
        return entries.getIfPresent(id);
    }

    /**
     * What a read of the id's state must take before it goes to its backend, to fill safely afterwards: the cache's
     * epoch and the invalidation version of the id's stripe.
     */
    public record Stamp(long id, long epoch, long version) {
    }

    public Stamp stamp(long id) {
        return new Stamp(id, epoch.get(), versions.get(stripe(id)));
    }

    /**
     * Puts an object read from MySQL, unless the cache was cleared or an id of the same stripe was invalidated since
     * the stamp was taken.
     */
    public void fill(StoredObject object, Stamp before) {
        if (usable() && epoch.get() == before.epoch()) {
            entries.asMap().compute(object.id().value(), (key, cached) -> unchanged(before) ? object : cached);
        }
    }

    /** The newest entries of the object's list in the mapping table, or null. */
    public ListHead head(MappingTable table, long from) {
        return lists.getIfPresent(new ListKey(from, table));
    }

    /** Puts a list's head read from MySQL, on the same terms as {@link #fill}; the stamp is its owner's. */
    public void fillHead(MappingTable table, ListHead head, Stamp owner) {
        if (usable() && epoch.get() == owner.epoch()) {
            lists.asMap().compute(new ListKey(owner.id(), table), (key, cached) -> unchanged(owner) ? head : cached);
        }
    }

    /**
     * A value derived from the owner's state (for example whether user {@code owner} follows someone), or null. Such
     * values are dropped whenever the owner is invalidated, so whatever writes the state they derive from must name
     * the owner as changed ({@link CacheChannel#changed}).
     */
    public Object fact(long owner, Object key) {
        OwnerFacts kept = facts.getIfPresent(owner);
        return kept == null ? null : kept.get(key);
    }

    /** Puts a derived value read from its backend, on the same terms as {@link #fill}; the stamp is its owner's. */
    public void fillFact(Object key, Object value, Stamp owner) {
        if (usable() && epoch.get() == owner.epoch()) {
            facts.asMap().compute(owner.id(), (id, kept) -> !unchanged(owner) ? kept
                    : kept == null ? OwnerFacts.of(key, value) : kept.with(key, value));
        }
    }

    /** Inside a key's {@code compute}: nothing invalidated the stamped id's stripe nor cleared the cache since. */
    private boolean unchanged(Stamp before) {
        return trust.state() == CacheTrust.State.DELIVERING
                && versions.get(stripe(before.id())) == before.version()
                && epoch.get() == before.epoch();
    }

    /**
     * Drops the object, the heads of its lists and the facts derived from it, and makes fills that began before this
     * moment keep out. A list changes only in a transaction that names its owner as changed ({@link MappingStore}).
     */
    public void invalidate(long id) {
        int stripe = stripe(id);
        entries.asMap().compute(id, (key, cached) -> {
            versions.incrementAndGet(stripe);
            return null;
        });
        for (MappingTable table : TABLES) {
            lists.invalidate(new ListKey(id, table));
        }
        facts.invalidate(id);
    }

    /** Empties the cache; fills that began before keep out. */
    public void clear() {
        epoch.incrementAndGet();
        entries.invalidateAll();
        lists.invalidateAll();
        facts.invalidateAll();
    }

    /** Entries and estimated bytes, for the admin view and tests. */
    public long size() {
        return entries.estimatedSize();
    }

    static int weight(StoredObject object) {
        return ENTRY_BYTES + object.data().length() + COUNTER_BYTES * object.counts().size();
    }

    private record ListKey(long from, MappingTable table) {
    }

    private static int stripe(long id) {
        long mixed = id * 0x9E3779B97F4A7C15L;
        return (int) (mixed >>> 52);
    }
}
