package io.pinion.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pinion.failure.Overloaded;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * Misses of one shard share statements: requests for the same id while it is being read join that read, ids asked
 * for while the shard's statements run wait and go together in the next, a shard's waiting ids are bounded (503
 * overloaded past it), a read never hands out a value from before an invalidation that happened before it was asked
 * for, and a failed statement fails exactly the requests that waited for it.
 */
class MissReadsTest {

    private final ObjectCache cache = new ObjectCache(new Settings(), new SimpleMeterRegistry());
    private final List<Statement> statements = new ArrayList<>();
    private final MissReads reads = new MissReads(cache, 1, 8, (table, batch) -> Uni.createFrom().emitter(emitter -> {
        statements.add(new Statement(batch.ids(), emitter));
    }));

    private record Statement(List<PinionId> ids, UniEmitter<? super Map<PinionId, StoredObject>> emitter) {
        void answer() {
            Map<PinionId, StoredObject> found = new HashMap<>();
            ids.forEach(id -> found.put(id, object(id, "v" + id.local())));
            emitter.complete(found);
        }
    }

    @Test
    void requestsForTheSameIdShareOneStatementAndOthersWaitForTheNext() {
        var first = get(1, 2);
        var second = get(2);
        var third = get(3, 4);
        var fourth = get(4, 5);
        assertEquals(1, statements.size(), "one statement runs per shard");
        assertEquals(List.of(pin(1), pin(2)), statements.get(0).ids());
        statements.get(0).answer();
        first.assertCompleted();
        assertEquals(2, first.getItem().size());
        second.assertCompleted();
        assertEquals(
                first.getItem().get(pin(2)), second.getItem().get(pin(2)), "the second request joined the first read");
        assertEquals(2, statements.size());
        assertEquals(
                List.of(pin(3), pin(4), pin(5)), statements.get(1).ids(), "what waited goes together, once per id");
        statements.get(1).answer();
        assertEquals(2, third.getItem().size());
        assertEquals(2, fourth.getItem().size());
    }

    @Test
    void aReadStartedBeforeAnInvalidationIsNotJoinedAfterIt() {
        var before = get(7);
        cache.invalidate(pin(7).value());
        var after = get(7);
        statements.get(0).answer();
        before.assertCompleted();
        after.assertNotTerminated();
        assertEquals(2, statements.size(), "the request made after the invalidation reads again");
        statements.get(1).answer();
        after.assertCompleted();
    }

    @Test
    void waitingIdsAreBoundedAndAFailureFailsTheirRequests() {
        var running = get(1);
        var waiting = get(2, 3, 4, 5, 6, 7, 8, 9);
        get(10).assertFailedWith(Overloaded.class);
        statements.get(0).emitter().fail(new IllegalStateException("host gone"));
        running.assertFailedWith(IllegalStateException.class);
        waiting.assertNotTerminated();
        statements.get(1).answer();
        assertEquals(8, waiting.assertCompleted().getItem().size());
    }

    @Test
    void aReadFillsTheCacheOnlyIfNothingInvalidatedItsIdMeanwhile() {
        cache.trust().subscription(true, cache::clear);
        cache.trust().heard(0, cache::clear);
        var first = get(11, 12);
        cache.invalidate(pin(12).value());
        statements.get(0).answer();
        first.assertCompleted();
        assertNotNull(cache.get(pin(11).value()));
        assertNull(cache.get(pin(12).value()), "invalidated while it was read");
    }

    private UniAssertSubscriber<Map<PinionId, StoredObject>> get(long... locals) {
        List<PinionId> ids = new ArrayList<>();
        for (long local : locals) {
            ids.add(pin(local));
        }
        return reads.get(ObjectTable.PINS, 3, ids).subscribe().withSubscriber(UniAssertSubscriber.create());
    }

    private static PinionId pin(long local) {
        return PinionId.of(3, ObjectType.PIN, local);
    }

    private static StoredObject object(PinionId id, String data) {
        return new StoredObject(id, "{\"v\":\"" + data + "\"}", Instant.EPOCH, Map.of());
    }

    private static final class Settings implements CacheConfig {
        public boolean enabled() { return true; }
        public MemorySize maxBytes() { return new MemorySize(java.math.BigInteger.valueOf(1 << 20)); }
        public MemorySize listMaxBytes() { return maxBytes(); }
        public MemorySize factMaxBytes() { return maxBytes(); }
        public Duration expireAfter() { return Duration.ofMinutes(1); }
        public Optional<String> channelInstance() { return Optional.empty(); }
        public String channel() { return "test"; }
        public Duration heartbeatInterval() { return Duration.ofMillis(250); }
        public Duration heartbeatTimeout() { return Duration.ofMillis(750); }
        public int maxPending() { return 10; }
        public int missReadsInFlight() { return 1; }
        public int missReadsMaxWaiting() { return 8; }
    }
}
