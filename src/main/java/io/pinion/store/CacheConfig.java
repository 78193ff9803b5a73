package io.pinion.store;

import java.time.Duration;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The in-process object cache in front of the object tables (docs/cache.md).
 */
@ConfigMapping(prefix = "pinion.cache")
public interface CacheConfig {

    /** Whether objects, list heads and follow checks are cached; when off every read goes to its backend. */
    @WithDefault("true")
    boolean enabled();

    /** The cache's bound in bytes (estimated per entry: its JSON, its counters and the entry's own overhead). */
    @WithDefault("256M")
    MemorySize maxBytes();

    /** The bound in bytes of the lists' newest entries (estimated: 16 bytes an entry and the head's overhead). */
    @WithDefault("128M")
    MemorySize listMaxBytes();

    /** The bound in bytes of values derived from an owner's state (whom a user follows), estimated per entry. */
    @WithDefault("32M")
    MemorySize factMaxBytes();

    /**
     * How long an entry lives at most. Invalidations keep entries exact; this bounds what a write whose outcome
     * was never known (a commit that timed out) could leave behind.
     */
    @WithDefault("10m")
    Duration expireAfter();

    /** The Redis instance carrying the invalidation channel; the topology's first instance by default. */
    Optional<String> channelInstance();

    /** The invalidation channel's name; instances sharing object tables must share it. */
    @WithDefault("pinion:cache:invalidate")
    String channel();

    /** How often each instance sends itself a heartbeat over the channel. */
    @WithDefault("250ms")
    Duration heartbeatInterval();

    /**
     * How long the channel may stay silent (no heartbeat of its own back) before the cache stops being trusted:
     * it is emptied and bypassed until heartbeats come back. This bounds how stale another instance's write can be
     * seen here when the channel fails.
     */
    @WithDefault("750ms")
    Duration heartbeatTimeout();

    /** Invalidations held for publishing while the channel is down; past this, a full clear is published instead. */
    @WithDefault("65536")
    int maxPending();

    /**
     * Statements that read objects missed by the cache, running at once per table and shard; ids asked for
     * meanwhile wait and go together in the next one ({@link MissReads}).
     */
    @WithDefault("2")
    int missReadsInFlight();

    /** Ids that may wait for such a statement per table and shard; past this a read gets a 503 {@code overloaded}. */
    @WithDefault("4096")
    int missReadsMaxWaiting();
}
