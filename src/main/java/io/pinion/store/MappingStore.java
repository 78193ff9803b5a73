package io.pinion.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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

    private static final String EACH_HEAD = """
            (SELECT from_id, to_id, sequence FROM %s WHERE from_id = ?
             ORDER BY sequence DESC, to_id DESC LIMIT ?)""";

    private final ShardSql sql;
    private final ObjectCache cache;
    private final ObjectChanges changes;

    MappingStore(ShardSql sql, ObjectCache cache, ObjectChanges changes) {
        this.sql = sql;
        this.cache = cache;
        this.changes = changes;
    }

    /** Adds the entry if absent; emits true when it was added. */
    public Uni<Boolean> add(SqlConnection tx, MappingTable table, PinionId from, PinionId to, long sequence) {
        changes.changed(tx, from);
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
            changes.changed(tx, entry.from());
        }
        return sql.execute(tx, text, args).map(rows -> rows.rowCount());
    }

    /** Removes the entry if present; emits true when it was removed. */
    public Uni<Boolean> remove(SqlConnection tx, MappingTable table, PinionId from, PinionId to) {
        changes.changed(tx, from);
        return sql.execute(tx, REMOVE.formatted(name(table, from)), Tuple.of(from.value(), to.value()))
                .map(rows -> rows.rowCount() == 1);
    }

    /** Whether the entry exists (outside a transaction). */
    public Uni<Boolean> contains(MappingTable table, PinionId from, PinionId to) {
        return sql.query(from.shard(), SEQUENCE_OF.formatted(name(table, from)), Tuple.of(from.value(), to.value()))
                .map(rows -> rows.size() > 0);
    }

    /**
     * One page, newest first, starting after {@code after} (null for the first page): from the list's cached head
     * when it holds the page, else from MySQL (reading the head first when it is not cached).
     */
    public Uni<MappingPage> page(MappingTable table, PinionId from, Position after, int limit) {
        if (cache.usable()) {
            ListHead head = cache.head(table, from.value());
            if (head != null) {
                List<Position> found = head.below(after, limit + 1);
                return found != null ? Uni.createFrom().item(toPage(found, limit)) : pageFromMysql(table, from, after, limit);
            }
            if (limit < ListHead.MAX) {
                return heads(table, List.of(from)).chain(heads -> {
                    List<Position> found = heads.get(from.value()).below(after, limit + 1);
                    return found != null ? Uni.createFrom().item(toPage(found, limit)) : pageFromMysql(table, from, after, limit);
                });
            }
        }
        return pageFromMysql(table, from, after, limit);
    }

    private Uni<MappingPage> pageFromMysql(MappingTable table, PinionId from, Position after, int limit) {
        String tableName = name(table, from);
        Uni<RowSet<Row>> rows = after == null
                ? sql.query(from.shard(), FIRST_PAGE.formatted(tableName), Tuple.of(from.value(), limit + 1))
                : sql.query(from.shard(), NEXT_PAGE.formatted(tableName), Tuple.of(from.value(), after.sequence(),
                        after.sequence(), after.toId(), limit + 1));
        return rows.map(found -> toPage(found, limit));
    }

    private static MappingPage toPage(List<Position> found, int limit) {
        List<Long> ids = new ArrayList<>(Math.min(found.size(), limit));
        for (int i = 0; i < Math.min(found.size(), limit); i++) {
            ids.add(found.get(i).toId());
        }
        return new MappingPage(ids, found.size() > limit ? found.get(limit - 1) : null);
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
        if (!cache.usable()) {
            return belowFromMysql(table, froms, before, limitEach);
        }
        List<Listed> found = new ArrayList<>();
        List<PinionId> uncached = new ArrayList<>();
        List<PinionId> deeper = new ArrayList<>();
        for (PinionId from : froms) {
            ListHead head = cache.head(table, from.value());
            if (head == null) {
                uncached.add(from);
            } else if (!addBelow(found, from, head, before, limitEach)) {
                deeper.add(from);
            }
        }
        Uni<List<Listed>> fromHeads = uncached.isEmpty() ? Uni.createFrom().item(found)
                : heads(table, uncached).map(read -> {
                    for (PinionId from : uncached) {
                        if (!addBelow(found, from, read.get(from.value()), before, limitEach)) {
                            deeper.add(from);
                        }
                    }
                    return found;
                });
        return fromHeads.chain(listed -> deeper.isEmpty() ? Uni.createFrom().item(listed)
                : belowFromMysql(table, deeper, before, limitEach).map(rest -> {
                    List<Listed> all = new ArrayList<>(listed);
                    all.addAll(rest);
                    return all;
                }));
    }

    /** Adds the head's entries below {@code before}; false when the head cannot tell. */
    private static boolean addBelow(List<Listed> found, PinionId from, ListHead head, Position before, int limit) {
        List<Position> part = head.below(before, limit);
        if (part == null) {
            return false;
        }
        part.forEach(at -> found.add(new Listed(from.value(), at.toId(), at.sequence())));
        return true;
    }

    /**
     * The heads of many lists (their newest {@link ListHead#MAX} entries), one statement per shard, shards in
     * parallel; each fills the cache unless its owner changed meanwhile.
     */
    private Uni<Map<Long, ListHead>> heads(MappingTable table, List<PinionId> froms) {
        List<ObjectCache.Stamp> stamps = froms.stream().map(from -> cache.stamp(from.value())).toList();
        return each(table, froms, EACH_HEAD, from -> Tuple.tuple().addLong(from.value()).addInteger(ListHead.MAX + 1))
                .map(rows -> {
                    Map<Long, List<Listed>> byList = new HashMap<>();
                    rows.forEach(row -> byList.computeIfAbsent(row.from(), key -> new ArrayList<>()).add(row));
                    Map<Long, ListHead> heads = new HashMap<>();
                    for (ObjectCache.Stamp owner : stamps) {
                        List<Listed> entries = byList.getOrDefault(owner.id(), List.of());
                        int kept = Math.min(entries.size(), ListHead.MAX);
                        long[] sequences = new long[kept];
                        long[] toIds = new long[kept];
                        for (int i = 0; i < kept; i++) {
                            sequences[i] = entries.get(i).sequence();
                            toIds[i] = entries.get(i).to();
                        }
                        ListHead head = new ListHead(sequences, toIds, entries.size() <= ListHead.MAX);
                        heads.put(owner.id(), head);
                        cache.fillHead(table, head, owner);
                    }
                    return heads;
                });
    }

    private Uni<List<Listed>> belowFromMysql(MappingTable table, List<PinionId> froms, Position before, int limitEach) {
        return each(table, froms, EACH_BELOW, from -> Tuple.tuple().addLong(from.value()).addLong(before.sequence())
                .addLong(before.sequence()).addLong(before.toId()).addInteger(limitEach));
    }

    /**
     * One keyset query per list, as a union per shard (in list order within a list), the shards in parallel; the
     * rows are not merged across lists.
     */
    private Uni<List<Listed>> each(MappingTable table, List<PinionId> froms, String query,
            Function<PinionId, Tuple> argsOf) {
        Map<Integer, List<PinionId>> byShard = new LinkedHashMap<>();
        froms.forEach(from -> byShard.computeIfAbsent(from.shard(), shard -> new ArrayList<>()).add(from));
        List<Uni<List<Listed>>> queries = new ArrayList<>(byShard.size());
        byShard.forEach((shard, lists) -> {
            String each = query.formatted(ShardDatabase.table(shard, table.table()));
            StringBuilder text = new StringBuilder();
            Tuple args = Tuple.tuple();
            for (PinionId from : lists) {
                if (text.length() > 0) {
                    text.append(" UNION ALL ");
                }
                text.append(each);
                Tuple own = argsOf.apply(from);
                for (int i = 0; i < own.size(); i++) {
                    args.addValue(own.getValue(i));
                }
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
        if (queries.size() == 1) {
            return queries.get(0);
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
        changes.changed(tx, from);
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
