package io.pinion.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.web.ConflictException;
import io.pinion.web.NotFoundException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Acks and lease extensions. All acks of one partition in a call are one UPDATE: successes become SUCCEEDED,
 * failures go back to PENDING after their backoff while attempts remain and become FAILED after the last; the
 * custom status is appended (the newest 5,000 characters are kept) and the dedupe key released when a job
 * finishes. Only a job still RUNNING under the given lease token is acked.
 */
@ApplicationScoped
public class JobAcks {

    public static final int MAX_STATUS_CHARS = 5_000;
    /**
     * Statements on a list of ids must walk the primary key: left alone, the optimizer may range-scan an index that
     * starts with {@code state} and lock every RUNNING row, deadlocking with the owner's prefetch.
     */
    public static final String BY_ID = " FORCE INDEX (PRIMARY)";
    static final String APPEND_STATUS = "RIGHT(CONCAT_WS('\\n', status, ?), " + MAX_STATUS_CHARS + ")";

    private final ShardSql sql;
    private final JobLocator locator;
    private final QueueMetrics metrics;
    private final Event<JobsAcked> ackedEvents;

    JobAcks(ShardSql sql, JobLocator locator, QueueMetrics metrics, Event<JobsAcked> ackedEvents) {
        this.sql = sql;
        this.locator = locator;
        this.metrics = metrics;
        this.ackedEvents = ackedEvents;
    }

    /** Acks jobs of any queues; the answer is in the order given. */
    public Uni<List<AckResult>> ack(List<Ack> acks) {
        List<Uni<JobLocator.Location>> lookups = acks.stream()
                .map(ack -> locator.locate(ack.id()).map(found -> found.orElse(null)))
                .toList();
        return Uni.join().all(lookups).andFailFast().flatMap(locations -> {
            Map<String, List<Integer>> groups = new LinkedHashMap<>();
            Map<String, JobLocator.Location> where = new HashMap<>();
            AckResult[] results = new AckResult[acks.size()];
            for (int i = 0; i < acks.size(); i++) {
                JobLocator.Location location = locations.get(i);
                if (location == null) {
                    results[i] = new AckResult(acks.get(i).id(), AckResult.NOT_FOUND);
                    continue;
                }
                groups.computeIfAbsent(location.partition().key(), key -> new ArrayList<>()).add(i);
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

    /** Acks jobs already known to belong to one partition (the in-app workers' path). */
    public Uni<List<AckResult>> ack(Queue queue, QueuePartition partition, List<Ack> acks) {
        AckResult[] results = new AckResult[acks.size()];
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < acks.size(); i++) {
            all.add(i);
        }
        return ackPartition(new JobLocator.Location(queue, partition), acks, all, results).map(ignored -> List.of(results));
    }

    /** Extends a RUNNING job's lease to {@code extendMs} from now and optionally appends to its status. */
    public Uni<Long> checkpoint(PinionId id, Integer attempt, long extendMs, String status) {
        return locator.locate(id).flatMap(found -> {
            JobLocator.Location location = found.orElseThrow(() -> notFound(id));
            long now = System.currentTimeMillis();
            long expires = now + extendMs;
            Tuple args = Tuple.of(expires, status, status, now, id.value());
            String statement = "UPDATE " + location.partition().table() + BY_ID + " SET lease_expires = ?, status = IF(? IS NULL, status, "
                    + APPEND_STATUS + "), updated_at = ? WHERE id = ? AND state = 1";
            if (attempt != null) {
                statement += " AND attempts_made = ?";
                args.addInteger(attempt);
            }
            return sql.query(location.partition().shard(), statement, args).flatMap(rows -> {
                if (rows.rowCount() == 1) {
                    return Uni.createFrom().item(expires);
                }
                return sql.query(location.partition().shard(), "SELECT state FROM " + location.partition().table()
                        + " WHERE id = ?", Tuple.of(id.value())).map(existing -> {
                            if (existing.size() == 0) {
                                throw notFound(id);
                            }
                            throw new ConflictException(AckResult.LEASE_LOST,
                                    "job " + id + " is not leased under that token any more");
                        });
            });
        });
    }

    private Uni<Void> ackPartition(JobLocator.Location location, List<Ack> acks, List<Integer> indexes, AckResult[] results) {
        QueuePartition partition = location.partition();
        QueueConfig config = location.queue().config();
        List<Ack> mine = indexes.stream().map(acks::get).toList();
        List<Ack> failures = mine.stream().filter(ack -> !ack.success()).toList();
        long now = System.currentTimeMillis();
        Tuple args = Tuple.tuple();
        StringBuilder statement = new StringBuilder("UPDATE ").append(partition.table()).append(BY_ID).append(" SET state = ");
        if (failures.isEmpty()) {
            statement.append(JobState.SUCCEEDED.code());
        } else {
            statement.append("CASE WHEN id IN (").append(ShardSql.placeholders(failures.size()))
                    .append(") THEN IF(attempts_made >= attempts_allowed, 3, 0) ELSE 2 END");
            failures.forEach(ack -> args.addLong(ack.id().value()));
            statement.append(", run_after = IF(state = 0, ? + ");
            args.addLong(now);
            List<Ack> overrides = failures.stream().filter(ack -> ack.retryDelayMs() != null).toList();
            if (overrides.isEmpty()) {
                statement.append(config.retry().sqlDelayAfterAttempts());
            } else {
                statement.append("CASE id");
                overrides.forEach(ack -> {
                    statement.append(" WHEN ? THEN ?");
                    args.addLong(ack.id().value()).addLong(ack.retryDelayMs());
                });
                statement.append(" ELSE ").append(config.retry().sqlDelayAfterAttempts()).append(" END");
            }
            statement.append(", run_after)");
        }
        List<Ack> withStatus = mine.stream().filter(ack -> ack.status() != null).toList();
        if (!withStatus.isEmpty()) {
            statement.append(", status = CASE id");
            withStatus.forEach(ack -> {
                statement.append(" WHEN ? THEN ").append(APPEND_STATUS);
                args.addLong(ack.id().value()).addString(ack.status());
            });
            statement.append(" ELSE status END");
        }
        statement.append(", dedupe_active = IF(state >= 2, NULL, dedupe_active), lease_owner = NULL, lease_expires = NULL,"
                + " updated_at = ? WHERE id IN (").append(ShardSql.placeholders(mine.size())).append(") AND state = 1");
        args.addLong(now);
        mine.forEach(ack -> args.addLong(ack.id().value()));
        List<Ack> tokened = mine.stream().filter(ack -> ack.attempt() != null).toList();
        if (!tokened.isEmpty()) {
            statement.append(" AND attempts_made = CASE id");
            tokened.forEach(ack -> {
                statement.append(" WHEN ? THEN ?");
                args.addLong(ack.id().value()).addInteger(ack.attempt());
            });
            statement.append(" ELSE attempts_made END");
        }
        return sql.queryRetryingConflicts(partition.shard(), statement.toString(), args).flatMap(rows -> {
            if (rows.rowCount() == mine.size()) {
                indexes.forEach(i -> results[i] = new AckResult(acks.get(i).id(), AckResult.ACKED));
                return Uni.createFrom().voidItem();
            }
            return classify(partition, mine, indexes, acks, results, now);
        }).invoke(() -> {
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
        });
    }

    /** After an UPDATE that acked fewer rows than asked: which ids it acked, which had lost their lease. */
    private Uni<Void> classify(QueuePartition partition, List<Ack> mine, List<Integer> indexes, List<Ack> acks,
            AckResult[] results, long ackedAt) {
        Tuple args = Tuple.tuple();
        mine.forEach(ack -> args.addLong(ack.id().value()));
        return sql.query(partition.shard(), "SELECT id, state, updated_at FROM " + partition.table() + BY_ID + " WHERE id IN ("
                + ShardSql.placeholders(mine.size()) + ")", args).invoke(rows -> {
                    Map<Long, Row> found = new HashMap<>();
                    rows.forEach(row -> found.put(row.getLong("id"), row));
                    for (int i : indexes) {
                        Row row = found.get(acks.get(i).id().value());
                        String result = row == null ? AckResult.NOT_FOUND
                                : row.getInteger("state") != JobState.RUNNING.code() && row.getLong("updated_at") == ackedAt
                                        ? AckResult.ACKED : AckResult.LEASE_LOST;
                        results[i] = new AckResult(acks.get(i).id(), result);
                    }
                }).replaceWithVoid();
    }

    private static NotFoundException notFound(PinionId id) {
        return new NotFoundException("job_not_found", "no job " + id);
    }
}
