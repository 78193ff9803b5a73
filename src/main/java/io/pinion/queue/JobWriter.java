package io.pinion.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.topology.ActiveTopology;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Enqueues jobs with one multi-row INSERT per partition. Jobs with a dedupe key go to the partition the key hashes
 * to (so the key's uniqueness is checked in one table); a FIFO queue has one partition and takes its ids inside
 * the INSERT's transaction so id order is commit order; other jobs of a call go to the next partition in turn
 * (large calls are split over all partitions; small concurrent calls share INSERTs through {@link GroupCommit}),
 * skipping for a few seconds any MySQL host that just failed, and moving to a partition on another host when the
 * chosen one is unreachable.
 */
@ApplicationScoped
public class JobWriter {

    private static final Logger LOG = Logger.getLogger(JobWriter.class);

    private static final long UNAVAILABLE_FOR_MS = 3_000;
    private static final int SPREAD_AT = 100;

    private final ShardSql sql;
    private final JobIds ids;
    private final QueueMetrics metrics;
    private final ActiveTopology topology;
    private final AtomicInteger turn = new AtomicInteger();
    private final Map<String, Long> unavailableUntil = new ConcurrentHashMap<>();
    private final GroupCommit groupCommit;
    private final Event<JobsEnqueued> enqueuedEvents;
    private final WriteLeases leases;

    JobWriter(ShardSql sql, JobIds ids, QueueMetrics metrics, ActiveTopology topology, QueueSettings settings,
            Event<JobsEnqueued> enqueuedEvents, WriteLeases leases) {
        this.enqueuedEvents = enqueuedEvents;
        this.leases = leases;
        this.sql = sql;
        this.ids = ids;
        this.metrics = metrics;
        this.topology = topology;
        this.groupCommit = new GroupCommit(
                settings.groupCommitInFlight(), settings.groupCommitMaxBytes(), this::writeFree, metrics);
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
        keyed.forEach(
                (partition, indexes) -> writes.add(write(queue, queue.partition(partition), jobs, indexes, results)));
        if (!free.isEmpty() && free.size() < SPREAD_AT && !queue.config().fifo()) {
            List<NewJob> freeJobs = free.stream().map(jobs::get).toList();
            writes.add(groupCommit.submit(queue, freeJobs).invoke(written -> {
                for (int k = 0; k < free.size(); k++) {
                    results[free.get(k)] = written.get(k);
                }
            }).replaceWithVoid());
        } else if (!free.isEmpty()) {
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

    /**
     * Writes jobs without dedupe keys to one partition (with failover); the results in order. When this instance's
     * broker takes them ({@link WriteLeases}), they are written leased to it, in a partition it owns.
     */
    private Uni<List<Enqueued>> writeFree(Queue queue, List<NewJob> jobs) {
        List<Integer> indexes = new ArrayList<>(jobs.size());
        for (int i = 0; i < jobs.size(); i++) {
            indexes.add(i);
        }
        Enqueued[] results = new Enqueued[jobs.size()];
        java.util.Set<String> failedHosts = new java.util.HashSet<>();
        WriteLeases.Reservation reservation = leases.reserve(queue, jobs);
        if (reservation != null
                && unavailableUntil.getOrDefault(hostOf(reservation.partition()), 0L) > System.currentTimeMillis()) {
            reservation.cancel(); // a host that just failed is skipped, as by nextPartition
            reservation = null;
        }
        if (reservation == null) {
            return writeWithFailover(queue, jobs, indexes, results, failedHosts).map(ignored -> List.of(results));
        }
        WriteLeases.Reservation held = reservation;
        return writeLeased(queue, held, jobs, results)
                .onFailure().invoke(held::cancel)
                .onFailure(JobWriter::certainlyNotWritten).recoverWithUni(failure -> {
                    failedHosts.add(hostOf(held.partition()));
                    return writeWithFailover(queue, jobs, indexes, results, failedHosts);
                })
                .map(ignored -> List.of(results));
    }

    /** Writes due jobs leased to the broker holding the reservation, then hands them to its buffer. */
    private Uni<Void> writeLeased(Queue queue, WriteLeases.Reservation reservation, List<NewJob> jobs,
            Enqueued[] results) {
        QueuePartition partition = reservation.partition();
        return ids.allocate(partition, jobs.size()).flatMap(allocated -> {
            long now = System.currentTimeMillis();
            long expires = now + reservation.leaseMs();
            Tuple args = Tuple.tuple();
            List<LeasedJob> leased = new ArrayList<>(jobs.size());
            for (int k = 0; k < jobs.size(); k++) {
                NewJob job = jobs.get(k);
                args.addLong(allocated.get(k).value())
                        .addInteger(job.priority())
                        .addLong(job.runAfter())
                        .addInteger(queue.config().maxAttempts())
                        .addValue(Buffer.buffer(job.body()))
                        .addLong(now)
                        .addLong(now)
                        .addString(reservation.brokerId())
                        .addLong(expires)
                        .addLong(now);
                results[k] = new Enqueued(allocated.get(k), true);
                leased.add(new LeasedJob(allocated.get(k), queue.name(), partition, job.priority(), job.body(), 1, 1L,
                        queue.config().maxAttempts(), expires, now, job.runAfter()));
            }
            return sql.query(partition.shard(), JobSql.insertLeased(partition.table(), jobs.size()), args)
                    .invoke(() -> {
                        metrics.writtenLeased(queue.name(), jobs.size());
                        reservation.written(leased);
                    })
                    .replaceWithVoid();
        }).onFailure(Outages::isUnavailable)
                .invoke(() -> unavailableUntil.put(hostOf(partition), System.currentTimeMillis() + UNAVAILABLE_FOR_MS));
    }

    /**
     * Jobs without a dedupe key: a small call goes to one partition, a large one ({@value #SPREAD_AT} jobs or
     * more) is split over every partition, one INSERT each. A partition whose host fails is retried on a partition
     * of another host.
     */
    private Uni<Void> writeAnywhere(Queue queue, List<NewJob> jobs, List<Integer> indexes, Enqueued[] results) {
        int parts = indexes.size() >= SPREAD_AT && !queue.config().fifo() ? queue.partitions().size() : 1;
        List<Uni<Void>> writes = new ArrayList<>();
        int chunk = (indexes.size() + parts - 1) / parts;
        for (int from = 0; from < indexes.size(); from += chunk) {
            List<Integer> part = indexes.subList(from, Math.min(indexes.size(), from + chunk));
            writes.add(writeWithFailover(queue, jobs, part, results, new java.util.HashSet<>()));
        }
        return Uni.join().all(writes).andFailFast().replaceWithVoid();
    }

    private Uni<Void> writeWithFailover(Queue queue, List<NewJob> jobs, List<Integer> indexes, Enqueued[] results,
            java.util.Set<String> failedHosts) {
        QueuePartition partition = nextPartition(queue, failedHosts);
        return write(queue, partition, jobs, indexes, results)
                .onFailure(JobWriter::certainlyNotWritten).recoverWithUni(failure -> {
                    LOG.warnf("enqueue to %s failed (%s); trying a partition on another host", partition.table(),
                            Outages.describe(failure));
                    failedHosts.add(hostOf(partition));
                    boolean another = queue.partitions().stream().anyMatch(p -> !failedHosts.contains(hostOf(p)));
                    if (!another || queue.config().fifo()) {
                        return Uni.createFrom().failure(failure);
                    }
                    return writeWithFailover(queue, jobs, indexes, results, failedHosts);
                });
    }

    /** The next partition in turn, skipping hosts that failed in this call or recently. */
    private QueuePartition nextPartition(Queue queue, java.util.Set<String> failedHosts) {
        List<QueuePartition> partitions = queue.partitions();
        long now = System.currentTimeMillis();
        int start = Math.floorMod(turn.getAndIncrement(), partitions.size());
        QueuePartition fallback = null;
        for (int k = 0; k < partitions.size(); k++) {
            QueuePartition candidate = partitions.get((start + k) % partitions.size());
            String host = hostOf(candidate);
            if (failedHosts.contains(host)) {
                continue;
            }
            if (unavailableUntil.getOrDefault(host, 0L) <= now) {
                return candidate;
            }
            if (fallback == null) {
                fallback = candidate;
            }
        }
        return fallback != null ? fallback : partitions.get(start);
    }

    private String hostOf(QueuePartition partition) {
        return topology.get().mysql().hostOf(partition.shard()).map(host -> host.name()).orElse("?");
    }

    private Uni<Void> write(Queue queue, QueuePartition partition, List<NewJob> jobs, List<Integer> indexes,
            Enqueued[] results) {
        boolean deduped = indexes.stream().anyMatch(i -> jobs.get(i).dedupeKey() != null);
        Uni<Void> written;
        if (queue.config().fifo()) {
            written = sql.inTransaction(
                    partition.shard(),
                    connection -> ids.allocateInTransaction(connection, partition, indexes.size())
                            .flatMap(allocated ->
                                    insert(connection, queue, partition, jobs, indexes, allocated, results, deduped)));
        } else if (deduped) {
            // one transaction: the INSERT locks the rows holding the keys it met, so none of them can finish (and
            // free its key) before the SELECT names it; otherwise a job answered as created could be one never written.
            // A deadlock with a holder finishing meanwhile rolls it all back: it is run again.
            written = ids.allocate(partition, indexes.size())
                    .flatMap(allocated -> sql.inTransactionRetryingConflicts(
                            partition.shard(),
                            connection ->
                                    insert(connection, queue, partition, jobs, indexes, allocated, results, true)));
        } else {
            written = ids.allocate(partition, indexes.size())
                    .flatMap(allocated -> insert(null, queue, partition, jobs, indexes, allocated, results, false));
        }
        long now = System.currentTimeMillis();
        boolean due = indexes.stream().anyMatch(i -> jobs.get(i).runAfter() <= now);
        return written
                .invoke(() -> {
                    if (due) {
                        enqueuedEvents.fire(new JobsEnqueued(partition.queueId(), partition.partition()));
                    }
                })
                .onFailure(Outages::isUnavailable)
                .invoke(() -> unavailableUntil.put(hostOf(partition), System.currentTimeMillis() + UNAVAILABLE_FOR_MS));
    }

    private Uni<Void> insert(SqlConnection connection, Queue queue, QueuePartition partition, List<NewJob> jobs,
            List<Integer> indexes, List<PinionId> allocated, Enqueued[] results, boolean deduped) {
        long now = System.currentTimeMillis();
        String statement = JobSql.insert(partition.table(), indexes.size(), deduped);
        Tuple args = Tuple.tuple();
        for (int k = 0; k < indexes.size(); k++) {
            NewJob job = jobs.get(indexes.get(k));
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
        Uni<?> insert = connection != null
                ? sql.execute(connection, statement, args)
                : sql.query(partition.shard(), statement, args);
        if (!deduped) {
            return insert.replaceWithVoid();
        }
        return insert.flatMap(ignored -> resolveDuplicates(connection, partition, jobs, indexes, results));
    }

    /** After an INSERT that may have met existing keys: which jobs were already there. */
    private Uni<Void> resolveDuplicates(SqlConnection connection, QueuePartition partition, List<NewJob> jobs,
            List<Integer> indexes, Enqueued[] results) {
        List<Integer> withKey = indexes.stream().filter(i -> jobs.get(i).dedupeKey() != null).toList();
        String statement = JobSql.dedupeHolders(partition.table(), withKey.size());
        Tuple args = Tuple.tuple();
        withKey.forEach(index -> args.addString(jobs.get(index).dedupeKey()));
        Uni<RowSet<Row>> select = connection != null
                ? sql.execute(connection, statement, args)
                : sql.query(partition.shard(), statement, args);
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

    /**
     * Only a host that could not be reached (nothing was sent) is worth a second partition: after a timeout the
     * INSERT may still commit, and writing the jobs elsewhere would enqueue them twice.
     */
    private static boolean certainlyNotWritten(Throwable failure) {
        if (!Outages.isUnavailable(failure)) {
            return false;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.util.concurrent.TimeoutException) {
                return false;
            }
        }
        return true;
    }

    /** The partition a dedupe key belongs to (String.hashCode is specified, so every instance agrees). */
    static int partitionOfKey(Queue queue, String key) {
        return Math.floorMod(key.hashCode() * 0x9E3779B1, queue.partitions().size());
    }
}
