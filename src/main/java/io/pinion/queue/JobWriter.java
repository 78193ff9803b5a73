package io.pinion.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.web.BackendUnavailableException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Enqueues jobs with one multi-row INSERT per partition. Jobs with a dedupe key go to the partition the key hashes
 * to (so the key's uniqueness is checked in one table); a FIFO queue has one partition and takes its ids inside
 * the INSERT's transaction so id order is commit order; other jobs of a call go together to the next partition in
 * turn, skipping for a few seconds any partition whose MySQL host just failed, and moving to another partition
 * when the chosen one is unreachable.
 */
@ApplicationScoped
public class JobWriter {

    private static final String COLUMNS = "(id, state, priority, run_after, attempts_made, attempts_allowed, body,"
            + " dedupe_key, dedupe_active, created_at, updated_at)";
    private static final String ROW = "(?, 0, ?, ?, 0, ?, ?, ?, ?, ?, ?)";
    private static final long UNAVAILABLE_FOR_MS = 3_000;

    private final ShardSql sql;
    private final JobIds ids;
    private final QueueMetrics metrics;
    private final AtomicInteger turn = new AtomicInteger();
    private final Map<String, Long> unavailableUntil = new ConcurrentHashMap<>();

    JobWriter(ShardSql sql, JobIds ids, QueueMetrics metrics) {
        this.sql = sql;
        this.ids = ids;
        this.metrics = metrics;
    }

    /** Enqueues the jobs; the answer is in the order given. Bodies must already be within the queue's limit. */
    public Uni<List<Enqueued>> enqueue(Queue queue, List<NewJob> jobs) {
        Map<Integer, List<Integer>> keyed = new LinkedHashMap<>();
        List<Integer> free = new ArrayList<>();
        Map<String, Integer> firstWithKey = new HashMap<>();
        int[] sameAs = new int[jobs.size()];
        for (int i = 0; i < jobs.size(); i++) {
            sameAs[i] = -1;
            NewJob job = jobs.get(i);
            if (job.dedupeKey() != null) {
                Integer first = firstWithKey.putIfAbsent(job.dedupeKey(), i);
                if (first != null) {
                    sameAs[i] = first;
                    continue;
                }
                keyed.computeIfAbsent(partitionOfKey(queue, job.dedupeKey()), p -> new ArrayList<>()).add(i);
            } else {
                free.add(i);
            }
        }
        Enqueued[] results = new Enqueued[jobs.size()];
        List<Uni<Void>> writes = new ArrayList<>();
        keyed.forEach((partition, indexes) -> writes.add(write(queue, queue.partition(partition), jobs, indexes, results)));
        if (!free.isEmpty()) {
            writes.add(writeAnywhere(queue, jobs, free, results));
        }
        return Uni.join().all(writes).andFailFast().map(ignored -> {
            for (int i = 0; i < results.length; i++) {
                if (sameAs[i] >= 0) {
                    results[i] = new Enqueued(results[sameAs[i]].id(), false);
                }
            }
            int created = 0;
            for (Enqueued result : results) {
                created += result.created() ? 1 : 0;
            }
            metrics.enqueued(queue.name(), created);
            return List.of(results);
        });
    }

    private Uni<Void> writeAnywhere(Queue queue, List<NewJob> jobs, List<Integer> indexes, Enqueued[] results) {
        QueuePartition first = nextPartition(queue, -1);
        return write(queue, first, jobs, indexes, results)
                .onFailure(BackendUnavailableException.class).recoverWithUni(failure -> {
                    QueuePartition other = nextPartition(queue, first.shard());
                    if (other == null || other.partition() == first.partition() || queue.config().fifo()) {
                        return Uni.createFrom().failure(failure);
                    }
                    return write(queue, other, jobs, indexes, results);
                });
    }

    private QueuePartition nextPartition(Queue queue, int avoidShard) {
        List<QueuePartition> partitions = queue.partitions();
        long now = System.currentTimeMillis();
        int start = Math.floorMod(turn.getAndIncrement(), partitions.size());
        QueuePartition fallback = null;
        for (int k = 0; k < partitions.size(); k++) {
            QueuePartition candidate = partitions.get((start + k) % partitions.size());
            if (candidate.shard() == avoidShard) {
                continue;
            }
            if (unavailableUntil.getOrDefault(candidate.key(), 0L) <= now) {
                return candidate;
            }
            if (fallback == null) {
                fallback = candidate;
            }
        }
        return fallback != null ? fallback : partitions.get(start);
    }

    private Uni<Void> write(Queue queue, QueuePartition partition, List<NewJob> jobs, List<Integer> indexes,
            Enqueued[] results) {
        boolean deduped = indexes.stream().anyMatch(i -> jobs.get(i).dedupeKey() != null);
        Uni<Void> written;
        if (queue.config().fifo()) {
            written = sql.inTransaction(partition.shard(), connection -> ids.allocateInTransaction(connection, partition, indexes.size())
                    .flatMap(allocated -> insert(connection, queue, partition, jobs, indexes, allocated, results, deduped)));
        } else {
            written = ids.allocate(partition, indexes.size())
                    .flatMap(allocated -> insert(null, queue, partition, jobs, indexes, allocated, results, deduped));
        }
        return written.onFailure(BackendUnavailableException.class)
                .invoke(() -> unavailableUntil.put(partition.key(), System.currentTimeMillis() + UNAVAILABLE_FOR_MS));
    }

    private Uni<Void> insert(SqlConnection connection, Queue queue, QueuePartition partition, List<NewJob> jobs,
            List<Integer> indexes, List<PinionId> allocated, Enqueued[] results, boolean deduped) {
        long now = System.currentTimeMillis();
        StringBuilder statement = new StringBuilder("INSERT INTO ").append(partition.table()).append(' ').append(COLUMNS).append(" VALUES ");
        Tuple args = Tuple.tuple();
        for (int k = 0; k < indexes.size(); k++) {
            NewJob job = jobs.get(indexes.get(k));
            statement.append(k == 0 ? "" : ",").append(ROW);
            args.addLong(allocated.get(k).value())
                    .addInteger(job.priority())
                    .addLong(job.runAfter())
                    .addInteger(queue.config().maxAttempts())
                    .addValue(Buffer.buffer(job.body()))
                    .addString(job.dedupeKey())
                    .addString(job.dedupeKey())
                    .addLong(now)
                    .addLong(now);
            results[indexes.get(k)] = new Enqueued(allocated.get(k), true);
        }
        if (deduped) {
            statement.append(" ON DUPLICATE KEY UPDATE id = id");
        }
        Uni<?> insert = connection != null
                ? sql.execute(connection, statement.toString(), args)
                : sql.query(partition.shard(), statement.toString(), args);
        if (!deduped) {
            return insert.replaceWithVoid();
        }
        return insert.flatMap(ignored -> resolveDuplicates(connection, partition, jobs, indexes, results));
    }

    /** After an INSERT that may have met existing keys: which jobs were already there. */
    private Uni<Void> resolveDuplicates(SqlConnection connection, QueuePartition partition, List<NewJob> jobs,
            List<Integer> indexes, Enqueued[] results) {
        List<Integer> withKey = indexes.stream().filter(i -> jobs.get(i).dedupeKey() != null).toList();
        StringBuilder statement = new StringBuilder("SELECT id, dedupe_active FROM ").append(partition.table())
                .append(" WHERE dedupe_active IN (");
        Tuple args = Tuple.tuple();
        for (int k = 0; k < withKey.size(); k++) {
            statement.append(k == 0 ? "?" : ",?");
            args.addString(jobs.get(withKey.get(k)).dedupeKey());
        }
        statement.append(')');
        Uni<io.vertx.mutiny.sqlclient.RowSet<Row>> select = connection != null
                ? sql.execute(connection, statement.toString(), args)
                : sql.query(partition.shard(), statement.toString(), args);
        return select.invoke(rows -> {
            Map<String, Long> holders = new HashMap<>();
            rows.forEach(row -> holders.put(row.getString("dedupe_active"), row.getLong("id")));
            for (int index : withKey) {
                Long holder = holders.get(jobs.get(index).dedupeKey());
                if (holder != null && holder != results[index].id().value()) {
                    results[index] = new Enqueued(PinionId.decode(holder), false);
                }
            }
        }).replaceWithVoid();
    }

    /** The partition a dedupe key belongs to (String.hashCode is specified, so every instance agrees). */
    static int partitionOfKey(Queue queue, String key) {
        return Math.floorMod(key.hashCode() * 0x9E3779B1, queue.partitions().size());
    }
}
