package io.pinion.store;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.failure.EventLoopLag;
import io.pinion.failure.Outages;
import io.pinion.redis.RedisChannel;
import io.pinion.redis.RedisClients;
import io.pinion.topology.ActiveTopology;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;

/**
 * The object cache's invalidation channel over Redis pub/sub, shared by every instance.
 *
 * <p>Messages are {@code <sender>|<ids>} with comma-separated object ids, {@code <sender>|*} to empty every cache,
 * and {@code <sender>|hb<n>}, the numbered heartbeat each instance sends itself every {@code heartbeat-interval}. A
 * cache is trusted only while its own heartbeats come back: when more than {@code heartbeat-timeout} worth of them
 * are outstanding, it is bypassed until they do (the subscription is intact, so invalidations are late, not lost,
 * and are applied as they arrive); when the subscription is lost, it is emptied too, and starts empty. That proves
 * the whole path (publish, Redis, subscription) delivers, including when Redis is paused rather than down.
 * Invalidations that could not be published are kept (bounded) and published when the channel is back; past the bound,
 * a full clear is.
 */
@ApplicationScoped
public class CacheChannel {

    private static final Logger LOG = Logger.getLogger(CacheChannel.class);
    private static final String HEARTBEAT = "hb";
    private static final String CLEAR = "*";
    /** Ids per published message. */
    private static final int BATCH = 512;

    private final String sender = UUID.randomUUID().toString().substring(0, 13);
    private final ObjectCache cache;
    private final CacheConfig config;
    private final RedisClients redis;
    private final ActiveTopology topology;
    private final Vertx vertx;
    private final Counter distrusted;
    private final Counter paused;
    private final EventLoopLag lag;
    private final Set<Long> pending = new LinkedHashSet<>();
    private boolean overflowed;
    private volatile RedisChannel channel;
    private long timer = -1;

    CacheChannel(ObjectCache cache, CacheConfig config, RedisClients redis, ActiveTopology topology, Vertx vertx,
            MeterRegistry registry, EventLoopLag lag) {
        this.lag = lag;
        this.cache = cache;
        this.config = config;
        this.redis = redis;
        this.topology = topology;
        this.vertx = vertx;
        this.distrusted = Counter.builder("pinion.cache.distrusted")
                .description("times the object cache was emptied and bypassed because its channel stopped delivering")
                .register(registry);
        this.paused = Counter.builder("pinion.cache.paused")
                .description("times the object cache was bypassed because its channel's heartbeats were late")
                .register(registry);
    }

    /**
     * Opens the channel, also when this instance's cache is off: its writes must still reach the caches of the
     * instances that have theirs on.
     */
    void onStart(@Observes StartupEvent start) {
        String instance = config.channelInstance()
                .orElseGet(() -> topology.get().redis().instances().get(0).name());
        channel = redis.channel(instance, config.channel(), this::received, this::subscribed);
        timer = vertx.setPeriodic(config.heartbeatInterval().toMillis(), ignored -> tick());
    }

    @PreDestroy
    void stop() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /** Invalidates the objects here at once and on every other instance through the channel. */
    public void changed(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return;
        }
        ids.forEach(cache::invalidate);
        publish(ids);
    }

    private void publish(Collection<Long> ids) {
        RedisChannel open = channel;
        if (open == null) {
            hold(ids);
            return;
        }
        List<Long> all = List.copyOf(ids);
        for (int from = 0; from < all.size(); from += BATCH) {
            List<Long> batch = all.subList(from, Math.min(all.size(), from + BATCH));
            String text = batch.stream().map(String::valueOf).collect(Collectors.joining(","));
            open.publish(sender + "|" + text).subscribe().with(ignored -> { }, failure -> {
                LOG.debugf("invalidation not published, held for later: %s", Outages.describe(failure));
                hold(batch);
            });
        }
    }

    private synchronized void hold(Collection<Long> ids) {
        if (overflowed) {
            return;
        }
        pending.addAll(ids);
        if (pending.size() > config.maxPending()) {
            pending.clear();
            overflowed = true;
        }
    }

    /** Heartbeat, trust check, and the held invalidations once the channel delivers again. */
    private void tick() {
        RedisChannel open = channel;
        if (open == null) {
            return;
        }
        CacheTrust trust = cache.trust();
        long allowed = allowedMissing();
        long missing = trust.outstanding();
        if (trust.check(allowed) && config.enabled()) {
            paused.increment();
            LOG.warnf(
                    "object cache bypassed until its channel delivers again: %d heartbeats in a row did not come back",
                    missing);
        }
        if (!trust.subscribed()) {
            return;
        }
        // held invalidations go out once the channel delivers again, judged by the heartbeats alone: an instance
        // whose own cache is off or paused still owes them to the instances whose caches are on
        boolean delivering = missing <= allowed;
        long beat = trust.nextBeat();
        open.publish(sender + "|" + HEARTBEAT + beat).subscribe().with(ignored -> { },
                failure -> LOG.debugf("cache heartbeat not published: %s", Outages.describe(failure)));
        if (delivering) {
            flushHeld(open);
        }
    }

    private void flushHeld(RedisChannel open) {
        List<Long> held;
        boolean clear;
        synchronized (this) {
            if (pending.isEmpty() && !overflowed) {
                return;
            }
            held = List.copyOf(pending);
            clear = overflowed;
            pending.clear();
            overflowed = false;
        }
        if (clear) {
            open.publish(sender + "|" + CLEAR).subscribe().with(ignored -> { }, failure -> {
                synchronized (this) {
                    overflowed = true;
                }
            });
        } else {
            publish(held);
        }
    }

    private void received(String message) {
        int bar = message.indexOf('|');
        if (bar < 0) {
            return;
        }
        boolean own = message.regionMatches(0, sender, 0, bar) && bar == sender.length();
        String body = message.substring(bar + 1);
        if (body.startsWith(HEARTBEAT)) {
            if (own) {
                long beat = Long.parseLong(body.substring(HEARTBEAT.length()));
                if (cache.trust().heard(beat, cache::clear) != null && config.enabled()) {
                    LOG.infof("object cache in use: its channel delivers");
                }
            }
        } else if (CLEAR.equals(body)) {
            cache.clear();
        } else if (!own) {
            for (String id : body.split(",")) {
                try {
                    cache.invalidate(Long.parseLong(id));
                } catch (NumberFormatException bad) {
                    LOG.debugf("bad id %s on the cache channel", id);
                }
            }
        }
    }

    /**
     * Heartbeats that may be outstanding before the channel is taken for failed: the timeout in heartbeats, plus as
     * many as the event loops lag behind. It counts ticks this instance ran, and a heartbeat that came back waits
     * for a loop like any request, so a busy instance (its ticks and its reading of the channel late too) does not
     * take its own slowness for a failed channel: invalidations are as late as its answers, and in order before the
     * heartbeat.
     */
    private long allowedMissing() {
        return Math.max(
                1,
                (config.heartbeatTimeout().toMillis() + lag.lagMs())
                        / config.heartbeatInterval().toMillis());
    }

    private void subscribed(boolean now) {
        CacheTrust.State before = cache.trust().subscription(now, cache::clear);
        if (before == CacheTrust.State.DELIVERING && config.enabled()) {
            distrusted.increment();
            LOG.warnf("object cache emptied and bypassed until its channel delivers again: subscription lost");
        }
    }
}
