package io.pinion.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

import io.pinion.failure.Overloaded;
import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * Reads of objects that missed the cache, batched per table and shard, as a group commit batches writes: while
 * {@code inFlight} statements of a shard are running, the ids asked for meanwhile wait and go together in the next
 * statement (at most {@value #MAX_IDS} ids each), and an id asked for twice is read once. So a cold cache under many
 * connections turns into a few statements per shard, not one per request, and a burst of requests for the same id
 * (a pin everyone opens) into one.
 * <p>
 * The statement fills the cache itself, with stamps taken before it is sent ({@link ObjectCache#fill}): a request
 * joins a statement already running for an id only if that id was not invalidated since the statement's stamp, so a
 * request never gets a value older than a write that committed before it began. Ids waiting for a shard are bounded
 * ({@code maxWaiting}); past it a request fails at once with a 503 {@code overloaded}, which says nothing of the host.
 * Thread-safe; a lane's lock is held only to move ids between its maps, never across I/O.
 */
final class MissReads {

    static final int MAX_IDS = 256;

    private final ObjectCache cache;
    private final int inFlight;
    private final int maxWaiting;
    private final BiFunction<ObjectTable, Lane.Batch, Uni<Map<PinionId, StoredObject>>> read;
    private final Map<Long, Lane> lanes = new ConcurrentHashMap<>();

    /**
     * @param read runs one statement: the objects of the batch's ids that exist
     */
    MissReads(ObjectCache cache, int inFlight, int maxWaiting,
            BiFunction<ObjectTable, Lane.Batch, Uni<Map<PinionId, StoredObject>>> read) {
        this.cache = cache;
        this.inFlight = Math.max(1, inFlight);
        this.maxWaiting = maxWaiting;
        this.read = read;
    }

    /** The objects of the ids (all of one table and shard) that exist. */
    Uni<Map<PinionId, StoredObject>> get(ObjectTable table, int shard, List<PinionId> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        Lane lane = lanes.computeIfAbsent(((long) table.ordinal() << 32) | shard, key -> new Lane(table, shard));
        return Uni.createFrom().emitter(emitter -> lane.ask(new Request(ids, emitter)));
    }

    /** One caller's ids and where its answer goes once every one of them was read. */
    private static final class Request {
        final UniEmitter<? super Map<PinionId, StoredObject>> emitter;
        final Map<PinionId, StoredObject> found = new HashMap<>();
        int missing;
        boolean done;

        final List<PinionId> ids;

        Request(List<PinionId> ids, UniEmitter<? super Map<PinionId, StoredObject>> emitter) {
            this.emitter = emitter;
            this.missing = ids.size();
            this.ids = ids;
        }

        /** Called with the lane's lock released; a request gets answers from several statements, one at a time. */
        synchronized void answered(PinionId id, StoredObject object) {
            if (done) {
                return;
            }
            if (object != null) {
                found.put(id, object);
            }
            if (--missing == 0) {
                done = true;
                emitter.complete(found);
            }
        }

        synchronized void failed(Throwable failure) {
            if (!done) {
                done = true;
                emitter.fail(failure);
            }
        }
    }

    /** The statements of one table on one shard. */
    final class Lane {

        /** The ids of one statement and the stamps taken before it was sent. */
        record Batch(int shard, List<PinionId> ids, Map<PinionId, ObjectCache.Stamp> stamps) {
        }

        private final ObjectTable table;
        private final int shard;
        private final LinkedHashMap<PinionId, List<Request>> waiting = new LinkedHashMap<>();
        /** Ids of running statements, with their stamps and the requests that joined them. */
        private final Map<PinionId, Running> running = new HashMap<>();
        private int statements;

        private record Running(ObjectCache.Stamp stamp, List<Request> requests) {
        }

        Lane(ObjectTable table, int shard) {
            this.table = table;
            this.shard = shard;
        }

        void ask(Request request) {
            boolean refused = false;
            synchronized (this) {
                if (waiting.size() + request.ids.size() > maxWaiting && !waiting.isEmpty()) {
                    refused = true;
                } else {
                    for (PinionId id : request.ids) {
                        Running now = running.get(id);
                        if (now != null && now.stamp().equals(cache.stamp(id.value()))) {
                            now.requests().add(request);
                        } else {
                            waiting.computeIfAbsent(id, key -> new ArrayList<>(1)).add(request);
                        }
                    }
                }
            }
            if (refused) {
                request.failed(new Overloaded("mysql host for shard " + shard
                        + " has too many reads waiting; retry shortly"));
                return;
            }
            pump();
        }

        private void pump() {
            while (true) {
                Batch batch;
                synchronized (this) {
                    if (statements >= inFlight || waiting.isEmpty()) {
                        return;
                    }
                    List<PinionId> ids = new ArrayList<>(Math.min(MAX_IDS, waiting.size()));
                    Map<PinionId, ObjectCache.Stamp> stamps = new HashMap<>();
                    var entries = waiting.entrySet().iterator();
                    while (entries.hasNext() && ids.size() < MAX_IDS) {
                        var entry = entries.next();
                        PinionId id = entry.getKey();
                        if (running.containsKey(id)) {
                            // a statement for this id is still running with an older stamp: this one waits for it
                            continue;
                        }
                        ObjectCache.Stamp stamp = cache.stamp(id.value());
                        ids.add(id);
                        stamps.put(id, stamp);
                        running.put(id, new Running(stamp, entry.getValue()));
                        entries.remove();
                    }
                    if (ids.isEmpty()) {
                        return;
                    }
                    statements++;
                    batch = new Batch(shard, ids, stamps);
                }
                send(batch);
            }
        }

        private void send(Batch batch) {
            read.apply(table, batch).subscribe().with(found -> finished(batch, found, null),
                    failure -> finished(batch, null, failure));
        }

        private void finished(Batch batch, Map<PinionId, StoredObject> found, Throwable failure) {
            List<Running> ended = new ArrayList<>(batch.ids().size());
            synchronized (this) {
                statements--;
                for (PinionId id : batch.ids()) {
                    ended.add(running.remove(id));
                }
            }
            for (int i = 0; i < batch.ids().size(); i++) {
                PinionId id = batch.ids().get(i);
                Running run = ended.get(i);
                if (failure != null) {
                    run.requests().forEach(request -> request.failed(failure));
                    continue;
                }
                StoredObject object = found.get(id);
                if (object != null) {
                    cache.fill(object, run.stamp());
                }
                run.requests().forEach(request -> request.answered(id, object));
            }
            pump();
        }
    }
}
