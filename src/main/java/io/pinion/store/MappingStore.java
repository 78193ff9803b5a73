package io.pinion.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.id.PinionId;
import io.pinion.mysql.HostStatements;
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
    private static final String FIRST_PAGE = """
        SELECT to_id, sequence FROM %s WHERE from_id = ?
        ORDER BY sequence DESC, to_id DESC LIMIT ?\
        """;
    private static final String NEXT_PAGE = """
        SELECT to_id, sequence FROM %s
        WHERE from_id = ? AND (sequence < ? OR (sequence = ? AND to_id < ?))
        ORDER BY sequence DESC, to_id DESC LIMIT ?\
        """;

    private static final String EACH_BELOW = """
        (SELECT from_id, to_id, sequence FROM %s
         WHERE from_id = ? AND (sequence < ? OR (sequence = ? AND to_id < ?))
         ORDER BY sequence DESC, to_id DESC LIMIT ?)\
        """;

    private static final String EACH_HEAD = """
        (SELECT from_id, to_id, sequence FROM %s WHERE from_id = ?
         ORDER BY sequence DESC, to_id DESC LIMIT ?)\
        """;

    /** Lists read by one statement at most: a page of a feed's followed lists fits in one per host. */
    private static final int LISTS_PER_STATEMENT = 128;

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
        String text = "INSERT IGNORE INTO " + ShardDatabase.table(shard, table.table())
                + " (from_id, to_id, sequence) VALUES " + ShardSql.rows(entries.size(), 3);
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
                return found != null
                        ? Uni.createFrom().item(toPage(found, limit))
                        : pageFromMysql(table, from, after, limit);
            }
            if (limit < ListHead.MAX) {
                return heads(table, List.of(from)).chain(heads -> {
                    List<Position> found = heads.get(from.value()).below(after, limit + 1);
                    return found != null
                            ? Uni.createFrom().item(toPage(found, limit))
                            : pageFromMysql(table, from, after, limit);
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
     * one statement per host (a union of keyset queries, one per list), the hosts in parallel. The entries are
     * not merged; callers sort them as they need.
     */
    public Uni<List<Listed>> below(MappingTable table, List<PinionId> froms, Position before, int limitEach) {
        return slices(table, froms, before, limitEach).map(slices -> {
            List<Listed> found = new ArrayList<>();
            for (ListSlice slice : slices) {
                List<Position> entries = slice.entries();
                for (int i = 0; i < Math.min(limitEach, entries.size()); i++) {
                    found.add(new Listed(slice.from(), entries.get(i).toId(), entries.get(i).sequence()));
                }
            }
            return found;
        });
    }

    /**
     * A part of one list below a place, newest first: its entries, and whether the list has more below the last.
     *
     * @param from    the list
     * @param entries the entries, newest first
     * @param more    the list has entries below the last one (or below the place when there are none)
     */
    public record ListSlice(long from, List<Position> entries, boolean more) {
    }

    /**
     * For each list, its entries below {@code before} (exclusive): at least {@code atLeast} of them when it has that
     * many, and from a cached head everything the head keeps below {@code before} (up to {@link ListHead#MAX}), which
     * costs nothing more; each slice says whether its list goes on. Lists the cache cannot answer are read from MySQL
     * ({@code atLeast} entries each, one statement per host, the hosts in parallel). For readers that merge many
     * lists: the more of each list they see at once, the further down the merged order is known.
     */
    public Uni<List<ListSlice>> slices(MappingTable table, List<PinionId> froms, Position before, int atLeast) {
        List<ListSlice> found = new ArrayList<>(froms.size());
        List<PinionId> uncached = new ArrayList<>();
        List<PinionId> deeper = new ArrayList<>();
        boolean usable = cache.usable();
        for (PinionId from : froms) {
            ListHead head = usable ? cache.head(table, from.value()) : null;
            if (head == null) {
                (usable ? uncached : deeper).add(from);
            } else if (!addSlice(found, from, head, before, atLeast)) {
                deeper.add(from);
            }
        }
        Uni<List<ListSlice>> fromHeads = uncached.isEmpty() ? Uni.createFrom().item(found)
                : heads(table, uncached).map(read -> {
                    for (PinionId from : uncached) {
                        if (!addSlice(found, from, read.get(from.value()), before, atLeast)) {
                            deeper.add(from);
                        }
                    }
                    return found;
                });
        return fromHeads.chain(sliced -> deeper.isEmpty() ? Uni.createFrom().item(sliced)
                : belowFromMysql(table, deeper, before, atLeast + 1).map(rows -> {
                    Map<Long, List<Position>> byList = new LinkedHashMap<>();
                    deeper.forEach(from -> byList.put(from.value(), new ArrayList<>()));
                    rows.forEach(row -> byList.get(row.from()).add(new Position(row.sequence(), row.to())));
                    List<ListSlice> all = new ArrayList<>(sliced);
                    byList.forEach((from, entries) -> all.add(entries.size() > atLeast
                            ? new ListSlice(from, entries.subList(0, atLeast), true)
                            : new ListSlice(from, entries, false)));
                    return all;
                }));
    }

    private static boolean addSlice(List<ListSlice> found, PinionId from, ListHead head, Position before, int atLeast) {
        List<Position> part = head.belowAtLeast(before, atLeast);
        if (part == null) {
            return false;
        }
        found.add(new ListSlice(from.value(), part, !head.complete()));
        return true;
    }

    /**
     * The heads of many lists (their newest {@link ListHead#MAX} entries), one statement per host, hosts in
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
     * One keyset query per list, as a union per host (in list order within a list, {@link HostStatements}), the
     * hosts in parallel; the rows are not merged across lists. A union within one shard is a prepared statement; one
     * across several shards of a host is sent as text, its numbers written in ({@link #inline}).
     */
    private Uni<List<Listed>> each(MappingTable table, List<PinionId> froms, String query,
            Function<PinionId, Tuple> argsOf) {
        Map<Integer, List<PinionId>> byShard = new LinkedHashMap<>();
        froms.forEach(from -> byShard.computeIfAbsent(from.shard(), shard -> new ArrayList<>()).add(from));
        List<Uni<List<Listed>>> queries = new ArrayList<>(byShard.size());
        for (Map<Integer, List<PinionId>> statement : HostStatements.of(byShard, sql::hostOf, LISTS_PER_STATEMENT)) {
            boolean oneShard = statement.size() == 1;
            StringBuilder text = new StringBuilder();
            Tuple args = Tuple.tuple();
            statement.forEach((shard, lists) -> {
                String each = query.formatted(ShardDatabase.table(shard, table.table()));
                for (PinionId from : lists) {
                    if (text.length() > 0) {
                        text.append(" UNION ALL ");
                    }
                    Tuple own = argsOf.apply(from);
                    if (oneShard) {
                        text.append(each);
                        for (int i = 0; i < own.size(); i++) {
                            args.addValue(own.getValue(i));
                        }
                    } else {
                        inline(text, each, own);
                    }
                }
            });
            int shard = statement.keySet().iterator().next();
            queries.add((oneShard
                            ? sql.query(shard, text.toString(), args)
                            : sql.textOnHost(statement.keySet(), text.toString()))
                    .map(rows -> {
                        List<Listed> found = new ArrayList<>(rows.size());
                        rows.forEach(row -> found.add(
                                new Listed(row.getLong("from_id"), row.getLong("to_id"), row.getLong("sequence"))));
                        return found;
                    }));
        }
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

    /** Appends the query with each {@code ?} replaced by its argument, which must be a number. */
    static void inline(StringBuilder text, String query, Tuple args) {
        int arg = 0;
        for (int i = 0; i < query.length(); i++) {
            char c = query.charAt(i);
            if (c != '?') {
                text.append(c);
                continue;
            }
            Object value = args.getValue(arg++);
            if (!(value instanceof Long) && !(value instanceof Integer)) {
                throw new IllegalArgumentException("only whole numbers are written into a statement, not " + value);
            }
            text.append(value);
        }
        if (arg != args.size()) {
            throw new IllegalArgumentException(args.size() + " arguments for " + arg + " placeholders");
        }
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

    static String name(MappingTable table, PinionId from) {
        return ShardDatabase.table(from.shard(), table.table());
    }
}
