package io.pinion.queue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.NotFound;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.paging.Cursors;
import io.pinion.paging.Page;
import io.pinion.paging.Position;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Reading jobs: lookup by id or dedupe key, scans by state, a bounded look for jobs by body, counts.
 * {@link JobRepairs} changes them.
 */
@ApplicationScoped
public class JobQueries {

    private final ShardSql sql;
    private final JobLocator locator;
    private final Cursors cursors;

    JobQueries(ShardSql sql, JobLocator locator, Cursors cursors) {
        this.sql = sql;
        this.locator = locator;
        this.cursors = cursors;
    }

    public Uni<Job> get(PinionId id) {
        return locate(id).flatMap(location -> sql.query(location.partition().shard(),
                        JobSql.job(location.partition().table()), Tuple.of(id.value()))
                .map(rows -> {
                    if (rows.size() == 0) {
                        throw notFound(id);
                    }
                    return job(rows.iterator().next(), location.queue(), location.partition());
                }));
    }

    /** Jobs of the queue in one state, partition by partition in id order. */
    public Uni<Page<Job>> scan(Queue queue, JobState state, String cursor, int limit) {
        String list = "jobs:" + queue.id() + ":" + state;
        Position from = cursors.decode(list, cursor);
        int partition = from == null ? 0 : (int) from.sequence();
        long after = from == null ? 0 : from.toId();
        return scanFrom(queue, state, partition, after, limit, new ArrayList<>())
                .map(jobs -> {
                    if (jobs.size() <= limit) {
                        return new Page<>(jobs, null);
                    }
                    List<Job> page = jobs.subList(0, limit);
                    Job last = page.get(limit - 1);
                    return new Page<>(
                            List.copyOf(page),
                            cursors.encode(
                                    list,
                                    new Position(last.partition(), last.id().value())));
                });
    }

    private Uni<List<Job>> scanFrom(
            Queue queue, JobState state, int partition, long after, int limit, List<Job> found) {
        if (partition >= queue.partitions().size() || found.size() > limit) {
            return Uni.createFrom().item(found);
        }
        QueuePartition where = queue.partition(partition);
        return sql.query(
                        where.shard(),
                        JobSql.scan(where.table()),
                        Tuple.of(state.code(), after, limit + 1 - found.size()))
                .flatMap(rows -> {
                    rows.forEach(row -> found.add(job(row, queue, where)));
                    return scanFrom(queue, state, partition + 1, 0, limit, found);
                });
    }

    /** The unfinished job holding the dedupe key, or null: one indexed lookup in the partition the key hashes to. */
    public Uni<Job> holding(Queue queue, String dedupeKey) {
        QueuePartition where = queue.partition(JobWriter.partitionOfKey(queue, dedupeKey));
        return sql.query(where.shard(), JobSql.holder(where.table()), Tuple.of(dedupeKey))
                .map(rows -> rows.size() == 0 ? null : job(rows.iterator().next(), queue, where));
    }

    /**
     * Up to {@code limit} unfinished jobs per partition whose dedupe key starts with {@code prefix} (a key may hash to
     * any partition): one range of the dedupe index per partition, all partitions in parallel.
     */
    public Uni<List<Job>> holdingPrefix(Queue queue, String prefix, int limit) {
        return eachPartition(queue, where -> sql.query(where.shard(), JobSql.holdersOfPrefix(where.table()),
                Tuple.of(JobSql.likePrefix(prefix), limit)));
    }

    /**
     * The jobs whose body holds every one of {@code texts}, among the newest {@code perState} PENDING, RUNNING and
     * FAILED jobs of each partition: a bounded look for the jobs of one object, since bodies are not indexed. All
     * partitions in parallel; newest update first within each.
     */
    public Uni<List<Job>> recentContaining(Queue queue, List<String> texts, int perState) {
        return eachPartition(queue, where -> {
            Tuple args = Tuple.of(perState, perState, perState);
            texts.forEach(text -> args.addString(JobSql.likeContaining(text)));
            return sql.query(where.shard(), JobSql.recentContaining(where.table(), texts.size()), args);
        });
    }

    private Uni<List<Job>> eachPartition(Queue queue, Function<QueuePartition, Uni<RowSet<Row>>> query) {
        List<Uni<List<Job>>> reads = queue.partitions().stream()
                .map(where -> query.apply(where).map(rows -> {
                    List<Job> jobs = new ArrayList<>();
                    rows.forEach(row -> jobs.add(job(row, queue, where)));
                    return jobs;
                }))
                .toList();
        return Uni.join().all(reads).andFailFast().map(parts -> parts.stream().flatMap(List::stream).toList());
    }

    /**
     * Counts per state and the oldest due age, per partition and in total, with each partition's owner from
     * {@code owners} ({@code queueId/partition} to broker); unreachable partitions are marked.
     */
    public Uni<QueueStats> stats(Queue queue, Map<String, String> owners) {
        long now = System.currentTimeMillis();
        List<Uni<QueueStats.PartitionStats>> parts = queue.partitions().stream().map(partition -> {
            return sql.query(partition.shard(), JobSql.countsByState(partition.table()), Tuple.of(now))
                    .map(rows -> {
                        Map<JobState, Long> counts = emptyCounts();
                        long oldest = Long.MAX_VALUE;
                        for (Row row : rows) {
                            counts.put(JobState.ofCode(row.getInteger("state")), row.getLong("n"));
                            Long due = row.getLong("oldest");
                            if (due != null) {
                                oldest = Math.min(oldest, due);
                            }
                        }
                        return new QueueStats.PartitionStats(partition.partition(), partition.shard(),
                                owners.get(partition.key()), true, counts, oldest == Long.MAX_VALUE ? 0 : now - oldest);
                    })
                    .onFailure().recoverWithItem(failure -> new QueueStats.PartitionStats(partition.partition(),
                            partition.shard(), owners.get(partition.key()), false, emptyCounts(), 0));
        }).toList();
        return Uni.join().all(parts).andFailFast().map(list -> {
            Map<JobState, Long> total = emptyCounts();
            long oldest = 0;
            for (QueueStats.PartitionStats part : list) {
                part.counts().forEach((state, n) -> total.merge(state, n, Long::sum));
                oldest = Math.max(oldest, part.oldestDueAgeMs());
            }
            return new QueueStats(queue.name(), total, oldest, list);
        });
    }

    Uni<JobLocator.Location> locate(PinionId id) {
        return locator.locate(id).map(found -> found.orElseThrow(() -> notFound(id)));
    }

    static Job job(Row row, Queue queue, QueuePartition partition) {
        return new Job(PinionId.decode(row.getLong("id")), queue.name(), partition.partition(),
                JobState.ofCode(row.getInteger("state")), row.getInteger("priority"), row.getBuffer("body").getBytes(),
                row.getInteger("attempts_made"), row.getInteger("attempts_allowed"), row.getLong("run_after"),
                row.getString("lease_owner"), row.getLong("lease_expires"), row.getLong("created_at"),
                row.getLong("updated_at"), row.getString("status"), row.getString("dedupe_key"));
    }

    private static Map<JobState, Long> emptyCounts() {
        Map<JobState, Long> counts = new EnumMap<>(JobState.class);
        for (JobState state : JobState.values()) {
            counts.put(state, 0L);
        }
        return counts;
    }

    static NotFound notFound(PinionId id) {
        return new NotFound("job_not_found", "no job " + id);
    }
}
