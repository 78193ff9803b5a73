package io.pinion.queue.broker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.queue.JobState;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.QueuePartition;
import io.pinion.queue.RetryPolicy;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * A partition table in memory, with the statements' rules as the owner relies on them: due jobs by priority, due time
 * and id within the room in bytes; leases only of PENDING jobs (attempt + 1); releases refund the attempt; the
 * sweep returns expired leases to PENDING a retry delay later. Answers are ready {@link Uni}s, except the reads of
 * due jobs while the test holds them ({@link #holdReads}): they read the table at once and answer when told.
 */
final class FakePartitionTable implements PartitionTable {

    static final String BROKER = "broker-1";
    static final long RETRY_DELAY_MS = 1_000;

    /** One job's row. */
    static final class Row {
        final long id;
        final int priority;
        final byte[] body;
        long runAfter;
        JobState state = JobState.PENDING;
        String owner;
        long leaseExpires;
        int attempts;
        long leaseSeq;

        Row(long id, int priority, int bytes, long runAfter) {
            this.id = id;
            this.priority = priority;
            this.body = new byte[bytes];
            this.runAfter = runAfter;
        }
    }

    final TreeMap<Long, Row> rows = new TreeMap<>();
    /** When each read of due jobs (or of a FIFO head) was made, by the clock. */
    final List<Long> reads = new ArrayList<>();
    final List<Long> released = new ArrayList<>();
    final List<Long> sweeps = new ArrayList<>();
    private final List<Runnable> held = new ArrayList<>();
    private final LongSupplier clock;
    private final QueuePartition partition;
    private long nextLocal = 1;
    private boolean holding;
    private RuntimeException failNextRead;

    FakePartitionTable(LongSupplier clock, QueuePartition partition) {
        this.clock = clock;
        this.partition = partition;
    }

    /** Inserts {@code count} PENDING jobs due now; returns their ids. */
    List<Long> insert(int count, int priority, int bytes) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long id = PinionId.of(1, ObjectType.JOB, nextLocal++).value();
            rows.put(id, new Row(id, priority, bytes, clock.getAsLong()));
            ids.add(id);
        }
        return ids;
    }

    Row row(long id) {
        return rows.get(id);
    }

    long count(JobState state) {
        return rows.values().stream().filter(row -> row.state == state).count();
    }

    /** From now on reads of due jobs wait for {@link #answerHeld}. */
    void holdReads() {
        holding = true;
    }

    /** Answers the reads held (with what the table held when each ran) and stops holding. */
    void answerHeld() {
        holding = false;
        List<Runnable> answers = new ArrayList<>(held);
        held.clear();
        answers.forEach(Runnable::run);
    }

    int heldReads() {
        return held.size();
    }

    void failNextRead(RuntimeException failure) {
        failNextRead = failure;
    }

    @Override
    public boolean isShaped() {
        return true;
    }

    @Override
    public String table() {
        return "`db00001`.`jobs_q1_p0`";
    }

    @Override
    public Uni<List<Long>> due(int batch, long now, long roomBytes) {
        return read(() -> {
            List<Long> ids = new ArrayList<>();
            long bytes = 0;
            for (Row row : rows.values().stream().filter(row -> row.state == JobState.PENDING && row.runAfter <= now)
                    .sorted(Comparator.<Row>comparingInt(row -> row.priority).thenComparingLong(row -> row.runAfter)
                            .thenComparingLong(row -> row.id))
                    .limit(batch).toList()) {
                bytes += row.body.length;
                if (!ids.isEmpty() && bytes > roomBytes) {
                    break;
                }
                ids.add(row.id);
            }
            return ids;
        });
    }

    @Override
    public Uni<List<HeadRow>> head(long floor, int limit) {
        return read(() -> rows.tailMap(floor, true).values().stream()
                .filter(row -> row.state == JobState.PENDING || row.state == JobState.RUNNING)
                .limit(limit)
                .map(row -> new HeadRow(row.id, row.state, row.runAfter, row.owner))
                .toList());
    }

    private <T> Uni<T> read(Supplier<T> answer) {
        reads.add(clock.getAsLong());
        if (failNextRead != null) {
            RuntimeException failure = failNextRead;
            failNextRead = null;
            return Uni.createFrom().failure(failure);
        }
        T value = answer.get(); // what the table held when the statement ran
        if (!holding) {
            return Uni.createFrom().item(value);
        }
        return Uni.createFrom().emitter((UniEmitter<? super T> emitter) -> held.add(() -> emitter.complete(value)));
    }

    @Override
    public Uni<List<LeasedJob>> lease(List<Long> ids, long now, long expires, String queueName) {
        List<LeasedJob> jobs = new ArrayList<>();
        for (long id : ids) {
            Row row = rows.get(id);
            if (row != null && row.state == JobState.PENDING) {
                row.state = JobState.RUNNING;
                row.owner = BROKER;
                row.leaseExpires = expires;
                row.attempts++;
                row.leaseSeq++;
                jobs.add(new LeasedJob(PinionId.decode(id), queueName, partition, row.priority, row.body,
                        row.attempts, row.leaseSeq, 5, expires, 0, row.runAfter));
            }
        }
        return Uni.createFrom().item(jobs);
    }

    @Override
    public Uni<Void> release(List<LeasedJob> jobs) {
        for (LeasedJob job : jobs) {
            Row row = rows.get(job.id().value());
            released.add(job.id().value());
            if (row != null && row.state == JobState.RUNNING && BROKER.equals(row.owner)) {
                row.state = JobState.PENDING;
                row.owner = null;
                row.attempts--;
            }
        }
        return Uni.createFrom().voidItem();
    }

    @Override
    public Uni<Integer> sweepExpired(long now, RetryPolicy retry, long minLeaseMs) {
        sweeps.add(now);
        int expired = 0;
        for (Row row : rows.values()) {
            if (row.state == JobState.RUNNING && row.leaseExpires <= now) {
                row.state = JobState.PENDING;
                row.owner = null;
                row.runAfter = now + RETRY_DELAY_MS;
                expired++;
            }
        }
        return Uni.createFrom().item(expired);
    }

    @Override
    public Uni<Integer> deleteFinished(long before, int limit) {
        return Uni.createFrom().item(0);
    }

    @Override
    public Uni<Depth> depth() {
        return Uni.createFrom().item(new Depth(count(JobState.PENDING), null));
    }

    @Override
    public Uni<JobState> state(long id) {
        Row row = rows.get(id);
        return Uni.createFrom().item(row == null ? null : row.state);
    }
}
