package io.pinion.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.mysql.ShardDatabase;
import io.pinion.mysql.ShardSql;
import io.pinion.paging.Position;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Rows of the mapping tables: {@code (from_id, to_id, sequence)} on the shard of {@code from_id}. Adding and
 * removing are idempotent and report whether they changed anything, so counters move exactly once. Lists are
 * keyset pages ordered by (sequence, to_id) descending: newest first, deterministic on ties, no OFFSET.
 */
@ApplicationScoped
public class MappingStore {

    private static final String ADD = "INSERT IGNORE INTO %s (from_id, to_id, sequence) VALUES (?, ?, ?)";
    private static final String REMOVE = "DELETE FROM %s WHERE from_id = ? AND to_id = ?";
    private static final String SEQUENCE_OF = "SELECT sequence FROM %s WHERE from_id = ? AND to_id = ?";
    private static final String SET_SEQUENCE = "UPDATE %s SET sequence = ? WHERE from_id = ? AND to_id = ?";
    private static final String FIRST_PAGE = """
            SELECT to_id, sequence FROM %s WHERE from_id = ?
            ORDER BY sequence DESC, to_id DESC LIMIT ?""";
    private static final String NEXT_PAGE = """
            SELECT to_id, sequence FROM %s
            WHERE from_id = ? AND (sequence < ? OR (sequence = ? AND to_id < ?))
            ORDER BY sequence DESC, to_id DESC LIMIT ?""";
    private static final String ABOVE = """
            SELECT to_id, sequence FROM %s
            WHERE from_id = ? AND to_id <> ? AND (sequence > ? OR (sequence = ? AND to_id > ?))
            ORDER BY sequence ASC, to_id ASC LIMIT 1""";
    private static final String BELOW = """
            SELECT to_id, sequence FROM %s
            WHERE from_id = ? AND to_id <> ? AND (sequence < ? OR (sequence = ? AND to_id < ?))
            ORDER BY sequence DESC, to_id DESC LIMIT 1""";
    private static final String ALL_IN_ORDER = """
            SELECT to_id, sequence FROM %s WHERE from_id = ? ORDER BY sequence DESC, to_id DESC""";

    private static final String EACH_BELOW = """
            (SELECT from_id, to_id, sequence FROM %s
             WHERE from_id = ? AND (sequence < ? OR (sequence = ? AND to_id < ?))
             ORDER BY sequence DESC, to_id DESC LIMIT ?)""";

    private final ShardSql sql;

    MappingStore(ShardSql sql) {
        this.sql = sql;
    }

    /** Adds the entry if absent; emits true when it was added. */
    public Uni<Boolean> add(SqlConnection tx, MappingTable table, PinionId from, PinionId to, long sequence) {
        return sql.execute(tx, ADD.formatted(name(table, from)), Tuple.of(from.value(), to.value(), sequence))
                .map(rows -> rows.rowCount() == 1);
    }

    /** One entry for {@link #addAll}. */
    public record Entry(PinionId from, PinionId to, long sequence) {
    }

    /**
     * Adds many entries whose {@code from} ids are all on one shard, with one multi-row statement (bulk loads);
     * entries already present are left alone. Emits how many were added.
     */
    public Uni<Integer> addAll(SqlConnection tx, MappingTable table, int shard, List<Entry> entries) {
        if (entries.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        String text = "INSERT IGNORE INTO " + ShardDatabase.table(shard, table.table()) + " (from_id, to_id, sequence) VALUES "
                + ShardSql.rows(entries.size(), 3);
        Tuple args = Tuple.tuple();
        for (Entry entry : entries) {
            if (entry.from().shard() != shard) {
                throw new IllegalArgumentException(entry.from() + " is not on shard " + shard);
            }
            args.addLong(entry.from().value()).addLong(entry.to().value()).addLong(entry.sequence());
        }
        return sql.execute(tx, text, args).map(rows -> rows.rowCount());
    }

    /** Removes the entry if present; emits true when it was removed. */
    public Uni<Boolean> remove(SqlConnection tx, MappingTable table, PinionId from, PinionId to) {
        return sql.execute(tx, REMOVE.formatted(name(table, from)), Tuple.of(from.value(), to.value()))
                .map(rows -> rows.rowCount() == 1);
    }

    /** Whether the entry exists (outside a transaction). */
    public Uni<Boolean> contains(MappingTable table, PinionId from, PinionId to) {
        return sql.query(from.shard(), SEQUENCE_OF.formatted(name(table, from)), Tuple.of(from.value(), to.value()))
                .map(rows -> rows.size() > 0);
    }

    /** One page, newest first, starting after {@code after} (null for the first page). */
    public Uni<MappingPage> page(MappingTable table, PinionId from, Position after, int limit) {
        String tableName = name(table, from);
        Uni<RowSet<Row>> rows = after == null
                ? sql.query(from.shard(), FIRST_PAGE.formatted(tableName), Tuple.of(from.value(), limit + 1))
                : sql.query(from.shard(), NEXT_PAGE.formatted(tableName), Tuple.of(from.value(), after.sequence(),
                        after.sequence(), after.toId(), limit + 1));
        return rows.map(found -> toPage(found, limit));
    }

    /** One entry of {@link #below}: from which list, and where. */
    public record Listed(long from, long to, long sequence) {
    }

    /**
     * The entries of many lists below {@code before} (exclusive, in list order), up to {@code limitEach} per list:
     * one statement per shard (a union of keyset queries, one per list), the shards in parallel. The entries are
     * not merged; callers sort them as they need.
     */
    public Uni<List<Listed>> below(MappingTable table, List<PinionId> froms, Position before, int limitEach) {
        Map<Integer, List<PinionId>> byShard = new LinkedHashMap<>();
        froms.forEach(from -> byShard.computeIfAbsent(from.shard(), shard -> new ArrayList<>()).add(from));
        List<Uni<List<Listed>>> queries = new ArrayList<>(byShard.size());
        byShard.forEach((shard, lists) -> {
            String each = EACH_BELOW.formatted(ShardDatabase.table(shard, table.table()));
            StringBuilder text = new StringBuilder();
            Tuple args = Tuple.tuple();
            for (PinionId from : lists) {
                if (text.length() > 0) {
                    text.append(" UNION ALL ");
                }
                text.append(each);
                args.addLong(from.value()).addLong(before.sequence()).addLong(before.sequence()).addLong(before.toId())
                        .addInteger(limitEach);
            }
            queries.add(sql.query(shard, text.toString(), args).map(rows -> {
                List<Listed> found = new ArrayList<>(rows.size());
                rows.forEach(row -> found.add(new Listed(row.getLong("from_id"), row.getLong("to_id"), row.getLong("sequence"))));
                return found;
            }));
        });
        if (queries.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.join().all(queries).andFailFast().map(parts -> {
            List<Listed> all = new ArrayList<>();
            parts.forEach(all::addAll);
            return all;
        });
    }

    /** The entry's position inside a transaction, or null. */
    public Uni<Position> positionOf(SqlConnection tx, MappingTable table, PinionId from, PinionId to) {
        return sql.execute(tx, SEQUENCE_OF.formatted(name(table, from)), Tuple.of(from.value(), to.value()))
                .map(rows -> rows.size() == 0 ? null : new Position(rows.iterator().next().getLong(0), to.value()));
    }

    /** The nearest entry above {@code anchor} (towards the head of the list), skipping {@code moving}; or null. */
    public Uni<Position> above(SqlConnection tx, MappingTable table, PinionId from, Position anchor, PinionId moving) {
        return neighbour(tx, ABOVE, table, from, anchor, moving);
    }

    /** The nearest entry below {@code anchor} (towards the tail of the list), skipping {@code moving}; or null. */
    public Uni<Position> below(SqlConnection tx, MappingTable table, PinionId from, Position anchor, PinionId moving) {
        return neighbour(tx, BELOW, table, from, anchor, moving);
    }

    public Uni<Void> setSequence(SqlConnection tx, MappingTable table, PinionId from, long toId, long sequence) {
        return sql.execute(tx, SET_SEQUENCE.formatted(name(table, from)), Tuple.of(sequence, from.value(), toId))
                .replaceWithVoid();
    }

    /** Every entry of the list, newest first (used to renumber a list whose gaps ran out). */
    public Uni<List<Position>> allInOrder(SqlConnection tx, MappingTable table, PinionId from) {
        return sql.execute(tx, ALL_IN_ORDER.formatted(name(table, from)), Tuple.of(from.value()))
                .map(rows -> {
                    List<Position> positions = new ArrayList<>(rows.size());
                    rows.forEach(row -> positions.add(new Position(row.getLong("sequence"), row.getLong("to_id"))));
                    return positions;
                });
    }

    private Uni<Position> neighbour(SqlConnection tx, String query, MappingTable table, PinionId from,
            Position anchor, PinionId moving) {
        return sql.execute(tx, query.formatted(name(table, from)), Tuple.of(from.value(), moving.value(),
                anchor.sequence(), anchor.sequence(), anchor.toId()))
                .map(rows -> {
                    if (rows.size() == 0) {
                        return null;
                    }
                    Row row = rows.iterator().next();
                    return new Position(row.getLong("sequence"), row.getLong("to_id"));
                });
    }

    private static MappingPage toPage(RowSet<Row> rows, int limit) {
        List<Long> ids = new ArrayList<>(Math.min(rows.size(), limit));
        Position last = null;
        for (Row row : rows) {
            if (ids.size() == limit) {
                return new MappingPage(ids, last);
            }
            ids.add(row.getLong("to_id"));
            last = new Position(row.getLong("sequence"), row.getLong("to_id"));
        }
        return new MappingPage(ids, null);
    }

    private static String name(MappingTable table, PinionId from) {
        return ShardDatabase.table(from.shard(), table.table());
    }
}
