package io.pinion.feed;

import java.nio.ByteBuffer;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;

import io.pinion.hbase.HBaseCalls;
import io.pinion.topology.HBaseRole;
import io.smallrye.mutiny.Uni;

/**
 * The size of a user's next chunk: the configured size, doubled (up to the maximum) after every visit whose chunk
 * could not be generated, back to the configured size once a chunk is materialized. Kept in the user's row range of
 * the materialized feed (position 0, column {@code s}), which feed scans never return.
 */
@ApplicationScoped
public class ChunkSizes {

    private static final byte[] COLUMN = { 's' };

    private final FeedTables tables;
    private final FeedConfig config;

    ChunkSizes(FeedTables tables, FeedConfig config) {
        this.tables = tables;
        this.config = config;
    }

    public Uni<Integer> next(long user) {
        return tables.materialized(HBaseRole.MATERIALIZED_PRIMARY)
                .chain(table -> HBaseCalls.uni(() -> table.get(new Get(row(user)).addColumn(FeedTables.MATERIALIZED_FAMILY, COLUMN))))
                .map(result -> size(result));
    }

    /** After a failed visit: the next chunk is twice as large (at most the maximum). */
    public Uni<Void> grow(long user, int failedSize) {
        int next = Math.min(config.maxChunkSize(), Math.max(config.chunkSize(), failedSize) * 2);
        Put put = new Put(row(user)).addColumn(FeedTables.MATERIALIZED_FAMILY, COLUMN, ByteBuffer.allocate(4).putInt(next).array());
        return tables.materialized(HBaseRole.MATERIALIZED_PRIMARY).chain(table -> HBaseCalls.uni(() -> table.put(put)));
    }

    /** After a chunk was materialized: back to the configured size. */
    public Uni<Void> reset(long user) {
        Delete delete = new Delete(row(user)).addColumns(FeedTables.MATERIALIZED_FAMILY, COLUMN);
        return tables.materialized(HBaseRole.MATERIALIZED_PRIMARY).chain(table -> HBaseCalls.uni(() -> table.delete(delete)));
    }

    private int size(Result result) {
        byte[] value = result.getValue(FeedTables.MATERIALIZED_FAMILY, COLUMN);
        return value == null ? config.chunkSize() : Math.min(config.maxChunkSize(), ByteBuffer.wrap(value).getInt());
    }

    private static byte[] row(long user) {
        return new MaterializedKey(user, 0).encode();
    }
}
