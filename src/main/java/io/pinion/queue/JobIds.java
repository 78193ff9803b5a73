package io.pinion.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardDatabase;
import io.pinion.mysql.ShardSql;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Job ids: {@code shard | JOB | local}, where the local part comes from one sequence per shard database shared by
 * every partition table on it. An instance reserves blocks of local ids per partition (one short transaction
 * per block, blocks growing to {@code pinion.queue.max-id-block} under load) and records each block in the
 * shard's {@code job_blocks} directory, so any instance can find the partition table of a job id with one indexed
 * lookup, cached in memory because blocks never change.
 */
@ApplicationScoped
public class JobIds {

    /** Where a job id lives. */
    public record Block(long first, long last, long queueId, int partition) {
    }

    private static final int MIN_BLOCK = 256;
    private static final int DIRECTORY_CACHE_LIMIT = 200_000;

    private final ShardSql sql;
    private final QueueSettings settings;
    private final Map<String, Allocator> allocators = new ConcurrentHashMap<>();
    private final Map<Integer, ConcurrentSkipListMap<Long, Block>> directory = new ConcurrentHashMap<>();

    JobIds(ShardSql sql, QueueSettings settings) {
        this.sql = sql;
        this.settings = settings;
    }

    /** {@code count} fresh ids for jobs of the partition, from this instance's current block. */
    public Uni<List<PinionId>> allocate(QueuePartition partition, int count) {
        Allocator allocator =
                allocators.computeIfAbsent(partition.key() + "@" + partition.shard(), key -> new Allocator());
        return fill(partition, allocator, count, new ArrayList<>(count));
    }

    /**
     * Reserves {@code count} ids inside the caller's transaction: the sequence row stays locked until it commits,
     * so ids of a partition written this way are in commit order (FIFO queues).
     */
    public Uni<List<PinionId>> allocateInTransaction(SqlConnection connection, QueuePartition partition, int count) {
        return reserve(connection, partition, count).map(block -> {
            List<PinionId> ids = new ArrayList<>(count);
            for (long local = block.first(); local <= block.last(); local++) {
                ids.add(PinionId.of(partition.shard(), ObjectType.JOB, local));
            }
            return ids;
        });
    }

    /** Forgets the id blocks of a dropped partition. */
    public Uni<Void> forget(QueuePartition partition) {
        return sql.query(
                        partition.shard(),
                        "DELETE FROM " + ShardDatabase.table(partition.shard(), "job_blocks")
                                + " WHERE queue_id = ? AND partition_no = ?",
                        Tuple.of(partition.queueId(), partition.partition()))
                .replaceWithVoid();
    }

    /** The block holding a job id when this instance knows it already, else null. */
    public Block cached(PinionId id) {
        ConcurrentSkipListMap<Long, Block> blocks = directory.get(id.shard());
        Map.Entry<Long, Block> cached = blocks == null ? null : blocks.floorEntry(id.local());
        return cached != null && id.local() <= cached.getValue().last() ? cached.getValue() : null;
    }

    /** The queue and partition a job id was issued for; empty when no block holds it. */
    public Uni<Optional<Block>> locate(PinionId id) {
        Block known = cached(id);
        if (known != null) {
            return Uni.createFrom().item(Optional.of(known));
        }
        return sql.query(
                        id.shard(),
                        "SELECT first_local, last_local, queue_id, partition_no FROM "
                                + ShardDatabase.table(id.shard(), "job_blocks")
                                + " WHERE first_local <= ? ORDER BY first_local DESC LIMIT 1",
                        Tuple.of(id.local()))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return Optional.<Block>empty();
                    }
                    var row = rows.iterator().next();
                    Block block = new Block(
                            row.getLong("first_local"),
                            row.getLong("last_local"),
                            row.getLong("queue_id"),
                            row.getInteger("partition_no"));
                    if (id.local() > block.last()) {
                        return Optional.<Block>empty();
                    }
                    remember(id.shard(), block);
                    return Optional.of(block);
                });
    }

    private Uni<List<PinionId>> fill(QueuePartition partition, Allocator allocator, int count, List<PinionId> out) {
        Uni<Void> refill;
        synchronized (allocator) {
            while (out.size() < count && allocator.next <= allocator.last) {
                out.add(PinionId.of(partition.shard(), ObjectType.JOB, allocator.next++));
            }
            if (out.size() == count) {
                return Uni.createFrom().item(out);
            }
            if (allocator.refill == null) {
                int size = allocator.nextSize(count - out.size(), settings.maxIdBlock());
                allocator.refill = sql.inTransaction(
                                partition.shard(), connection -> reserve(connection, partition, size))
                        .onItemOrFailure()
                        .invoke((block, failure) -> {
                            synchronized (allocator) {
                                allocator.refill = null;
                                if (block != null) {
                                    allocator.next = block.first();
                                    allocator.last = block.last();
                                }
                            }
                        })
                        .replaceWithVoid()
                        .memoize()
                        .indefinitely();
            }
            refill = allocator.refill;
        }
        return refill.flatMap(ignored -> fill(partition, allocator, count, out));
    }

    private Uni<Block> reserve(SqlConnection connection, QueuePartition partition, int size) {
        int shard = partition.shard();
        return sql.execute(
                        connection,
                        "UPDATE " + ShardDatabase.table(shard, "job_sequence")
                                + " SET next_local = LAST_INSERT_ID(next_local + ?) WHERE id = 0",
                        Tuple.of(size))
                .flatMap(rows -> {
                    long next = ShardSql.lastInsertId(rows);
                    Block block = new Block(next - size, next - 1, partition.queueId(), partition.partition());
                    if (block.last() > PinionId.MAX_LOCAL) {
                        throw new IllegalStateException(ShardDatabase.name(shard) + " has used every job id");
                    }
                    return sql.execute(
                                    connection,
                                    "INSERT INTO " + ShardDatabase.table(shard, "job_blocks")
                                            + " (first_local, last_local, queue_id, partition_no, created_at) VALUES"
                                            + " (?, ?, ?, ?, ?)",
                                    Tuple.of(
                                            block.first(),
                                            block.last(),
                                            block.queueId(),
                                            block.partition(),
                                            System.currentTimeMillis()))
                            .invoke(ignored -> remember(shard, block))
                            .replaceWith(block);
                });
    }

    private void remember(int shard, Block block) {
        ConcurrentSkipListMap<Long, Block> blocks =
                directory.computeIfAbsent(shard, key -> new ConcurrentSkipListMap<>());
        if (blocks.size() > DIRECTORY_CACHE_LIMIT) {
            blocks.clear();
        }
        blocks.put(block.first(), block);
    }

    /** One instance's current block for one partition; blocks double while they are used up within two seconds. */
    private static final class Allocator {
        long next = 1;
        long last = 0;
        int size = MIN_BLOCK;
        long lastReserveAt;
        Uni<Void> refill;

        int nextSize(int needed, int max) {
            long now = System.currentTimeMillis();
            if (now - lastReserveAt < 2_000) {
                size = Math.min(max, size * 2);
            } else if (now - lastReserveAt > 60_000) {
                size = MIN_BLOCK;
            }
            lastReserveAt = now;
            return Math.max(size, needed);
        }
    }
}
