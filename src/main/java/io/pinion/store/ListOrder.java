package io.pinion.store;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.paging.Position;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * A custom order within one mapping list (a board's own order of its pins), inside the caller's transaction: an
 * entry's position, the entries nearest an anchor on either side (one index range read, whatever the list's length),
 * and new sequences for one entry or many ({@code UPDATE … CASE}, one statement per {@value #SET_SEQUENCES_BATCH}).
 */
@ApplicationScoped
public class ListOrder {

    private static final String SEQUENCE_OF = "SELECT sequence FROM %s WHERE from_id = ? AND to_id = ?";
    private static final String SET_SEQUENCE = "UPDATE %s SET sequence = ? WHERE from_id = ? AND to_id = ?";
    private static final String NEAR_ABOVE = """
        SELECT to_id, sequence FROM %s
        WHERE from_id = ? AND to_id <> ? AND (sequence > ? OR (sequence = ? AND to_id > ?))
        ORDER BY sequence ASC, to_id ASC LIMIT ?\
        """;
    private static final String NEAR_BELOW = """
        SELECT to_id, sequence FROM %s
        WHERE from_id = ? AND to_id <> ? AND (sequence < ? OR (sequence = ? AND to_id < ?))
        ORDER BY sequence DESC, to_id DESC LIMIT ?\
        """;
    private static final String ALL_IN_ORDER = """
        SELECT to_id, sequence FROM %s WHERE from_id = ? ORDER BY sequence DESC, to_id DESC\
        """;
    /** Sequences set per statement at most (a CASE over the ids). */
    private static final int SET_SEQUENCES_BATCH = 512;

    private final ShardSql sql;
    private final ObjectChanges changes;

    ListOrder(ShardSql sql, ObjectChanges changes) {
        this.sql = sql;
        this.changes = changes;
    }

    /** The entry's position inside a transaction, or null. */
    public Uni<Position> positionOf(SqlConnection tx, MappingTable table, PinionId from, PinionId to) {
        return sql.execute(
                        tx, SEQUENCE_OF.formatted(MappingStore.name(table, from)), Tuple.of(from.value(), to.value()))
                .map(rows -> rows.size() == 0
                        ? null
                        : new Position(rows.iterator().next().getLong(0), to.value()));
    }

    /** The nearest entry above {@code anchor} (towards the head of the list), skipping {@code moving}; or null. */
    public Uni<Position> above(SqlConnection tx, MappingTable table, PinionId from, Position anchor, PinionId moving) {
        return nearAbove(tx, table, from, anchor, moving, 1).map(ListOrder::first);
    }

    /** The nearest entry below {@code anchor} (towards the tail of the list), skipping {@code moving}; or null. */
    public Uni<Position> below(SqlConnection tx, MappingTable table, PinionId from, Position anchor, PinionId moving) {
        return nearBelow(tx, table, from, anchor, moving, 1).map(ListOrder::first);
    }

    public Uni<Void> setSequence(SqlConnection tx, MappingTable table, PinionId from, long toId, long sequence) {
        changes.changed(tx, from);
        return sql.execute(
                        tx,
                        SET_SEQUENCE.formatted(MappingStore.name(table, from)),
                        Tuple.of(sequence, from.value(), toId))
                .replaceWithVoid();
    }

    /**
     * Up to {@code limit} entries above {@code anchor} (towards the head), nearest first, skipping {@code moving}: one
     * index range read, whatever the length of the list.
     */
    public Uni<List<Position>> nearAbove(SqlConnection tx, MappingTable table, PinionId from, Position anchor,
            PinionId moving, int limit) {
        return near(tx, NEAR_ABOVE, table, from, anchor, moving, limit);
    }

    /** Up to {@code limit} entries below {@code anchor} (towards the tail), nearest first, skipping {@code moving}. */
    public Uni<List<Position>> nearBelow(SqlConnection tx, MappingTable table, PinionId from, Position anchor,
            PinionId moving, int limit) {
        return near(tx, NEAR_BELOW, table, from, anchor, moving, limit);
    }

    private Uni<List<Position>> near(SqlConnection tx, String query, MappingTable table, PinionId from, Position anchor,
            PinionId moving, int limit) {
        return sql.execute(tx, query.formatted(MappingStore.name(table, from)), Tuple.of(from.value(), moving.value(),
                anchor.sequence(), anchor.sequence(), anchor.toId(), limit))
                .map(rows -> {
                    List<Position> positions = new ArrayList<>(rows.size());
                    rows.forEach(row -> positions.add(new Position(row.getLong("sequence"), row.getLong("to_id"))));
                    return positions;
                });
    }

    /**
     * Sets the sequences of the given entries ({@link Position#toId()} → {@link Position#sequence()}) inside a
     * transaction: one statement per {@value #SET_SEQUENCES_BATCH} entries.
     */
    public Uni<Void> setSequences(SqlConnection tx, MappingTable table, PinionId from, List<Position> positions) {
        if (positions.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        changes.changed(tx, from);
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (int start = 0; start < positions.size(); start += SET_SEQUENCES_BATCH) {
            List<Position> batch =
                    padded(positions.subList(start, Math.min(positions.size(), start + SET_SEQUENCES_BATCH)));
            StringBuilder text = new StringBuilder("UPDATE ")
                    .append(MappingStore.name(table, from))
                    .append(" SET sequence = CASE to_id");
            Tuple args = Tuple.tuple();
            for (Position position : batch) {
                text.append(" WHEN ? THEN ?");
                args.addLong(position.toId()).addLong(position.sequence());
            }
            text.append(" END WHERE from_id = ? AND to_id IN (")
                    .append(ShardSql.placeholders(batch.size()))
                    .append(')');
            args.addLong(from.value());
            batch.forEach(position -> args.addLong(position.toId()));
            chain = chain.chain(() -> sql.execute(tx, text.toString(), args).replaceWithVoid());
        }
        return chain;
    }

    /** Every entry of the list, head first (to renumber a list without room anywhere). */
    public Uni<List<Position>> allInOrder(SqlConnection tx, MappingTable table, PinionId from) {
        return sql.execute(tx, ALL_IN_ORDER.formatted(MappingStore.name(table, from)), Tuple.of(from.value()))
                .map(rows -> {
                    List<Position> positions = new ArrayList<>(rows.size());
                    rows.forEach(row -> positions.add(new Position(row.getLong("sequence"), row.getLong("to_id"))));
                    return positions;
                });
    }

    /** The list padded to a power of two with its last entry, so few statement shapes are prepared. */
    private static List<Position> padded(List<Position> positions) {
        int size = Integer.highestOneBit(Math.max(1, positions.size() - 1)) << 1;
        if (positions.size() == 1) {
            return positions;
        }
        List<Position> padded = new ArrayList<>(positions);
        while (padded.size() < size) {
            padded.add(positions.get(positions.size() - 1));
        }
        return padded;
    }

    private static Position first(List<Position> positions) {
        return positions.isEmpty() ? null : positions.get(0);
    }
}
