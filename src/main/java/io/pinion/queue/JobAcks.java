package io.pinion.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import io.pinion.failure.Conflict;
import io.pinion.failure.NotFound;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Acks and lease extensions. All acks of one partition in a call are one UPDATE ({@link JobSql#ack}), shared with the
 * acks of concurrent calls ({@link AckCommit}): successes
 * become SUCCEEDED, failures go back to PENDING after their backoff while attempts remain and become FAILED after the
 * last; the custom status is appended (the newest 5,000 characters are kept) and the dedupe key released when a job
 * finishes. Only a job still RUNNING under the given lease token is acked.
 */
@ApplicationScoped
public class JobAcks {

    private final ShardSql sql;
    private final QueueSettings settings;
    private final JobLocator locator;
    private final QueueMetrics metrics;
    private final Event<JobsAcked> ackedEvents;
    private final AckCommit commit;

    JobAcks(
            ShardSql sql,
            JobLocator locator,
            QueueMetrics metrics,
            Event<JobsAcked> ackedEvents,
            QueueSettings settings) {
        this.settings = settings;
        this.sql = sql;
        this.locator = locator;
        this.metrics = metrics;
        this.ackedEvents = ackedEvents;
        this.commit = new AckCommit(this::write, metrics);
    }

    /**
     * Acks jobs of any queues; the answer is in the order given. {@code mayWork} fails for a queue the caller may not
     * work on (the whole batch is then refused, nothing acked).
     */
    public Uni<List<AckResult>> ack(List<Ack> acks, Function<String, Uni<Void>> mayWork) {
        return locate(acks)
                .call(locations -> {
                    List<Uni<Void>> checks = locations.stream()
                            .filter(Objects::nonNull)
                            .map(location -> location.queue().name())
                            .distinct()
                            .map(mayWork)
                            .toList();
                    return checks.isEmpty()
                            ? Uni.createFrom().voidItem()
                            : Uni.join().all(checks).andFailFast().replaceWithVoid();
                })
                .flatMap(locations -> {
                    Map<String, List<Integer>> groups = new LinkedHashMap<>();
                    Map<String, JobLocator.Location> where = new HashMap<>();
                    AckResult[] results = new AckResult[acks.size()];
                    for (int i = 0; i < acks.size(); i++) {
                        JobLocator.Location location = locations.get(i);
                        if (location == null) {
                            results[i] = new AckResult(acks.get(i).id(), AckResult.NOT_FOUND);
                            continue;
                        }
                        groups.computeIfAbsent(location.partition().key(), key -> new ArrayList<>())
                                .add(i);
                        where.put(location.partition().key(), location);
                    }
                    List<Uni<Void>> updates = new ArrayList<>();
                    groups.forEach((key, indexes) -> updates.add(ackPartition(where.get(key), acks, indexes, results)));
                    if (updates.isEmpty()) {
                        return Uni.createFrom().item(List.of(results));
                    }
                    return Uni.join().all(updates).andFailFast().map(ignored -> List.of(results));
                });
    }

    /** Where each acked job lives (null: nowhere); ids of blocks and queues in memory cost no {@link Uni} each. */
    private Uni<List<JobLocator.Location>> locate(List<Ack> acks) {
        JobLocator.Location[] locations = new JobLocator.Location[acks.size()];
        List<Uni<Void>> lookups = new ArrayList<>();
        for (int i = 0; i < acks.size(); i++) {
            locations[i] = locator.cached(acks.get(i).id());
            if (locations[i] == null) {
                int index = i;
                lookups.add(locator.locate(acks.get(i).id()).invoke(found -> locations[index] = found.orElse(null))
                        .replaceWithVoid());
            }
        }
        if (lookups.isEmpty()) {
            return Uni.createFrom().item(java.util.Arrays.asList(locations));
        }
        return Uni.join().all(lookups).andFailFast().map(ignored -> java.util.Arrays.asList(locations));
    }

    /** Acks jobs already known to belong to one partition (the in-app workers' path). */
    public Uni<List<AckResult>> ack(Queue queue, QueuePartition partition, List<Ack> acks) {
        AckResult[] results = new AckResult[acks.size()];
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < acks.size(); i++) {
            all.add(i);
        }
        return ackPartition(new JobLocator.Location(queue, partition), acks, all, results)
                .map(ignored -> List.of(results));
    }

    /**
     * Extends a RUNNING job's lease to {@code extendMs} from now, at most {@code pinion.queue.lease-max-total} after
     * the lease began, and optionally appends to its status; the lease's new end. 409 {@code lease_lost} when the
     * job is not leased under {@code lease} any more, or its lease already reached that total.
     */
    public Uni<Long> checkpoint(PinionId id, Long lease, long extendMs, String status) {
        return locator.locate(id).flatMap(found -> {
            JobLocator.Location location = found.orElseThrow(() -> notFound(id));
            long now = System.currentTimeMillis();
            long total = settings.leaseMaxTotal().toMillis();
            Tuple args = Tuple.tuple()
                    .addLong(now + extendMs)
                    .addLong(total)
                    .addString(status)
                    .addString(status)
                    .addLong(now)
                    .addLong(id.value())
                    .addLong(total)
                    .addLong(now);
            if (lease != null) {
                args.addLong(lease);
            }
            String table = location.partition().table();
            return sql.query(location.partition().shard(), JobSql.checkpoint(table, lease != null), args)
                    .flatMap(rows -> {
                        if (rows.rowCount() == 1) {
                            return sql.query(
                                            location.partition().shard(),
                                            JobSql.leaseExpires(table),
                                            Tuple.of(id.value()))
                                    .map(read -> {
                                        Long expires = read.size() == 0
                                                ? null
                                                : read.iterator().next().getLong(0);
                                        if (expires == null) { // acked or swept between the two statements
                                            throw new Conflict(
                                                    AckResult.LEASE_LOST, "job " + id + " is not leased any more");
                                        }
                                        return expires;
                                    });
                        }
                        return sql.query(location.partition().shard(), JobSql.state(table), Tuple.of(id.value()))
                                .map(existing -> {
                                    if (existing.size() == 0) {
                                        throw notFound(id);
                                    }
                                    throw new Conflict(
                                            AckResult.LEASE_LOST,
                                            "job " + id + " is not leased under that token any more");
                                });
                    });
        });
    }

    private Uni<Void> ackPartition(
            JobLocator.Location location, List<Ack> acks, List<Integer> indexes, AckResult[] results) {
        QueuePartition partition = location.partition();
        QueueConfig config = location.queue().config();
        List<Ack> mine = indexes.stream().map(acks::get).toList();
        return commit.submit(location, mine).invoke(written -> {
            for (int k = 0; k < indexes.size(); k++) {
                results[indexes.get(k)] = new AckResult(mine.get(k).id(), written.get(k));
            }
        }).invoke(written -> {
            Set<Long> acked = new HashSet<>();
            Set<Long> failedIds = new HashSet<>();
            int ok = 0;
            int failed = 0;
            int retried = 0;
            for (int i : indexes) {
                if (AckResult.ACKED.equals(results[i].result())) {
                    Ack ack = acks.get(i);
                    acked.add(ack.id().value());
                    if (ack.success()) {
                        ok++;
                    } else {
                        failed++;
                        failedIds.add(ack.id().value());
                        retried += ack.attempt() == null || ack.attempt() < config.maxAttempts() ? 1 : 0;
                    }
                }
            }
            metrics.acked(location.queue().name(), true, ok);
            metrics.acked(location.queue().name(), false, failed);
            metrics.retried(location.queue().name(), retried);
            if (!acked.isEmpty()) {
                ackedEvents.fire(new JobsAcked(partition.queueId(), partition.partition(), acked, failedIds));
            }
        }).replaceWithVoid();
    }

    /**
     * One UPDATE for acks of one partition (the acks of concurrent calls together, through {@link AckCommit}); each
     * ack's result, in order.
     */
    private Uni<List<String>> write(JobLocator.Location location, List<Ack> acks, long now) {
        QueuePartition partition = location.partition();
        JobSql.Statement statement = JobSql.ack(partition.table(), acks, location.queue().config().retry(), now);
        return sql.queryRetryingConflicts(partition.shard(), statement.text(), statement.args()).flatMap(rows -> {
            if (rows.rowCount() == acks.size()) {
                return Uni.createFrom().item(java.util.Collections.nCopies(acks.size(), AckResult.ACKED));
            }
            return classify(partition, acks, now);
        });
    }

    /** After an UPDATE that acked fewer rows than asked: which ids it acked, which had lost their lease. */
    private Uni<List<String>> classify(QueuePartition partition, List<Ack> acks, long ackedAt) {
        Tuple args = Tuple.tuple();
        acks.forEach(ack -> args.addLong(ack.id().value()));
        return sql.query(partition.shard(), JobSql.states(partition.table(), acks.size()), args).map(rows -> {
            Map<Long, Row> found = new HashMap<>();
            rows.forEach(row -> found.put(row.getLong("id"), row));
            List<String> results = new ArrayList<>(acks.size());
            for (Ack ack : acks) {
                Row row = found.get(ack.id().value());
                results.add(row == null ? AckResult.NOT_FOUND
                        : row.getInteger("state") != JobState.RUNNING.code() && row.getLong("updated_at") == ackedAt
                                ? AckResult.ACKED : AckResult.LEASE_LOST);
            }
            return results;
        });
    }

    private static NotFound notFound(PinionId id) {
        return new NotFound("job_not_found", "no job " + id);
    }
}
