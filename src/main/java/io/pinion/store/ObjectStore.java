package io.pinion.store;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.OutOfSpace;
import io.pinion.id.PinionId;
import io.pinion.mysql.HostStatements;
import io.pinion.mysql.ShardDatabase;
import io.pinion.mysql.ShardSql;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.mysqlclient.MySQLClient;

/**
 * Rows of the object tables ({@code users}, {@code boards}, {@code pins}). Reads of many ids are
 * application-layer joins: ids grouped by shard, one {@code IN (…)} select per shard, the selects of one host's
 * shards in one statement, all hosts in parallel, the requested order restored. What the cache misses of a single
 * shard is read through {@link MissReads}: concurrent misses of a shard share statements, and an id is read once
 * however many requests ask for it at the same moment.
 */
@ApplicationScoped
public class ObjectStore {

    private static final String INSERT = "INSERT INTO %s (data) VALUES (?)";
    private static final String UPDATE = "UPDATE %s SET data = ? WHERE local_id = ?";
    private static final String LOCK = "SELECT data FROM %s WHERE local_id = ? FOR UPDATE";
    private static final String NEWEST = "SELECT local_id FROM %s ORDER BY local_id DESC LIMIT ?";
    private static final String SELECT_WITH_COUNTS = """
        SELECT o.local_id, o.data, o.ts, c.name, c.value
        FROM %s o LEFT JOIN %s c ON c.object_id = ? + o.local_id
        WHERE o.local_id IN (%s)\
        """;
    /** One shard's arm of {@link #getOnHost}, after {@code SELECT <shard> AS shard, }; its IN list follows. */
    private static final String SELECT_ON_HOST = "o.local_id, o.data, o.ts, c.name, c.value FROM %s o "
            + "LEFT JOIN %s c ON c.object_id = %d + o.local_id WHERE o.local_id IN (";

    private final ShardSql sql;
    private final ObjectCache cache;
    private final ObjectChanges changes;
    private final MissReads misses;

    ObjectStore(ShardSql sql, ObjectCache cache, ObjectChanges changes, CacheConfig config) {
        this.sql = sql;
        this.cache = cache;
        this.changes = changes;
        this.misses = new MissReads(cache, config.missReadsInFlight(), config.missReadsMaxWaiting(), this::getOnShard);
    }

    /**
     * Inserts a new object on the shard inside a transaction; emits its id. Nothing to invalidate: the cache keeps
     * only objects that exist.
     */
    public Uni<PinionId> insert(SqlConnection tx, int shard, ObjectTable table, String json) {
        return sql.execute(tx, INSERT.formatted(ShardDatabase.table(shard, table.table())), Tuple.of(json))
                .map(rows -> {
                    long local =
                            ((io.vertx.sqlclient.RowSet<?>) rows.getDelegate()).property(MySQLClient.LAST_INSERTED_ID);
                    if (local > PinionId.MAX_LOCAL) {
                        throw new OutOfSpace(
                                "shard_full", "shard " + shard + " has used all 2^36 local ids of " + table.table());
                    }
                    return PinionId.of(shard, table.type(), local);
                });
    }

    /**
     * Inserts many new objects on one shard with one multi-row statement inside a transaction (bulk loads); emits
     * their ids in order. A multi-row INSERT gets consecutive AUTO_INCREMENT values when
     * {@code innodb_autoinc_lock_mode} is 0 or 1 (MariaDB's default); callers check {@link #consecutiveIds} first.
     */
    public Uni<List<PinionId>> insertAll(SqlConnection tx, int shard, ObjectTable table, List<String> jsons,
            List<Instant> times) {
        if (jsons.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        String text = "INSERT INTO " + ShardDatabase.table(shard, table.table()) + " (data, ts) VALUES "
                + ShardSql.rows(jsons.size(), 2);
        Tuple args = Tuple.tuple();
        for (int i = 0; i < jsons.size(); i++) {
            args.addString(jsons.get(i));
            args.addLocalDateTime(LocalDateTime.ofInstant(times.get(i), ZoneOffset.UTC));
        }
        return sql.execute(tx, text, args).map(rows -> {
            long first = ShardSql.lastInsertId(rows);
            if (rows.rowCount() != jsons.size() || first + jsons.size() - 1 > PinionId.MAX_LOCAL) {
                throw new IllegalStateException("bulk insert into shard " + shard + " " + table.table() + " stored "
                        + rows.rowCount() + " of " + jsons.size() + " rows from local id " + first);
            }
            List<PinionId> ids = new ArrayList<>(jsons.size());
            for (int i = 0; i < jsons.size(); i++) {
                ids.add(PinionId.of(shard, table.type(), first + i));
            }
            return ids;
        });
    }

    /** Whether a multi-row INSERT on the shard's host gets consecutive ids ({@code innodb_autoinc_lock_mode} < 2). */
    public Uni<Boolean> consecutiveIds(int shard) {
        return sql.text(shard, "SELECT @@innodb_autoinc_lock_mode")
                .map(rows -> rows.iterator().next().getInteger(0) < 2);
    }

    /** Replaces an object's JSON blob inside a transaction. */
    public Uni<Void> update(SqlConnection tx, PinionId id, ObjectTable table, String json) {
        changes.changed(tx, id);
        return sql.execute(
                        tx,
                        UPDATE.formatted(ShardDatabase.table(id.shard(), table.table())),
                        Tuple.of(json, id.local()))
                .replaceWithVoid();
    }

    /** Locks the object's row until the transaction ends; emits its JSON blob, or null when there is no row. */
    public Uni<String> lock(SqlConnection tx, PinionId id, ObjectTable table) {
        return sql.execute(tx, LOCK.formatted(ShardDatabase.table(id.shard(), table.table())), Tuple.of(id.local()))
                .map(rows -> rows.size() == 0 ? null : rows.iterator().next().getString(0));
    }

    /** The ids of up to {@code limit} of the shard's newest rows of the table (deleted ones included). */
    public Uni<List<PinionId>> newest(ObjectTable table, int shard, int limit) {
        return sql.query(shard, NEWEST.formatted(ShardDatabase.table(shard, table.table())), Tuple.of(limit))
                .map(rows -> {
                    List<PinionId> ids = new ArrayList<>(rows.size());
                    rows.forEach(row -> ids.add(PinionId.of(shard, table.type(), row.getLong(0))));
                    return ids;
                });
    }

    /** One object with its counters, or null when there is no such row. */
    public Uni<StoredObject> get(ObjectTable table, PinionId id) {
        if (cache.usable()) {
            StoredObject cached = cache.get(id.value());
            if (cached != null) {
                return Uni.createFrom().item(cached);
            }
        }
        return getAll(table, List.of(id)).map(found -> found.isEmpty() ? null : found.get(0));
    }

    /**
     * One object as MySQL holds it now, never from the cache (for data whose staleness would be a security hole, such
     * as a user's grants); null when there is no such row.
     */
    public Uni<StoredObject> getFresh(ObjectTable table, PinionId id) {
        return getOnShard(table, id.shard(), List.of(id)).map(found -> found.get(id));
    }

    /**
     * The objects that exist, in the order asked for: from the cache, and the misses from MySQL with one query per
     * shard, shards in parallel.
     */
    public Uni<List<StoredObject>> getAll(ObjectTable table, List<PinionId> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        if (!cache.usable()) {
            return load(table, ids).map(found -> ordered(ids, found));
        }
        Map<PinionId, StoredObject> found = new HashMap<>();
        List<PinionId> misses = new ArrayList<>();
        for (PinionId id : ids) {
            StoredObject cached = cache.get(id.value());
            if (cached != null) {
                found.put(id, cached);
            } else if (!found.containsKey(id)) {
                misses.add(id);
            }
        }
        if (misses.isEmpty()) {
            return Uni.createFrom().item(ordered(ids, found));
        }
        return load(table, misses).map(loaded -> {
            found.putAll(loaded);
            return ordered(ids, found);
        });
    }

    /**
     * The objects of the ids that exist. The ids of one shard go through {@link MissReads}; when several shards of one
     * host are asked at once (a page's pins, their owners, their boards), they are read with one statement on that
     * host ({@link #getOnHost}) instead of one per shard.
     */
    private Uni<Map<PinionId, StoredObject>> load(ObjectTable table, List<PinionId> ids) {
        Map<Integer, List<PinionId>> byShard = ids.stream()
                .distinct()
                .collect(Collectors.groupingBy(PinionId::shard, LinkedHashMap::new, Collectors.toList()));
        if (byShard.size() == 1) {
            Map.Entry<Integer, List<PinionId>> only = byShard.entrySet().iterator().next();
            return misses.get(table, only.getKey(), only.getValue());
        }
        List<Uni<Map<PinionId, StoredObject>>> queries = new ArrayList<>();
        for (Map<Integer, List<PinionId>> statement : HostStatements.of(byShard, sql::hostOf, MissReads.MAX_IDS)) {
            if (statement.size() == 1) {
                Map.Entry<Integer, List<PinionId>> only = statement.entrySet().iterator().next();
                queries.add(misses.get(table, only.getKey(), only.getValue()));
            } else {
                queries.add(getOnHost(table, statement));
            }
        }
        if (queries.size() == 1) {
            return queries.get(0);
        }
        return Uni.join().all(queries).andFailFast()
                .map(results -> {
                    Map<PinionId, StoredObject> found = new HashMap<>();
                    results.forEach(found::putAll);
                    return found;
                });
    }

    /**
     * One statement for the ids of several shards of one host: a {@code UNION ALL} of each shard's select, sent as
     * text (its shape changes with every set of shards, which would only churn the prepared-statement cache; the
     * values are numbers this class writes). The cache is filled on the same terms as {@link MissReads} fills it:
     * with stamps taken before the statement is sent.
     */
    private Uni<Map<PinionId, StoredObject>> getOnHost(ObjectTable table, Map<Integer, List<PinionId>> shards) {
        Map<PinionId, ObjectCache.Stamp> stamps = new HashMap<>();
        StringBuilder text = new StringBuilder(128 * shards.size());
        for (Map.Entry<Integer, List<PinionId>> entry : shards.entrySet()) {
            int shard = entry.getKey();
            if (text.length() > 0) {
                text.append("\nUNION ALL\n");
            }
            text.append("SELECT ").append(shard).append(" AS shard, ")
                    .append(SELECT_ON_HOST.formatted(ShardDatabase.table(shard, table.table()),
                            ShardDatabase.table(shard, "counters"), counterBase(shard, table)));
            for (int i = 0; i < entry.getValue().size(); i++) {
                PinionId id = entry.getValue().get(i);
                stamps.put(id, cache.stamp(id.value()));
                text.append(i == 0 ? "" : ",").append(id.local());
            }
            text.append(')');
        }
        return sql.textOnHost(shards.keySet(), text.toString()).map(rows -> {
            Map<PinionId, StoredObject> found = toObjects(table, rows, row -> row.getLong("shard").intValue());
            found.forEach((id, object) -> cache.fill(object, stamps.get(id)));
            return found;
        });
    }

    private static List<StoredObject> ordered(List<PinionId> ids, Map<PinionId, StoredObject> found) {
        List<StoredObject> ordered = new ArrayList<>(ids.size());
        for (PinionId id : ids) {
            StoredObject object = found.get(id);
            if (object != null) {
                ordered.add(object);
            }
        }
        return ordered;
    }

    /** One statement for the ids of a batch ({@link MissReads}), all on one shard. */
    private Uni<Map<PinionId, StoredObject>> getOnShard(ObjectTable table, MissReads.Lane.Batch batch) {
        return getOnShard(table, batch.shard(), batch.ids());
    }

    private Uni<Map<PinionId, StoredObject>> getOnShard(ObjectTable table, int shard, List<PinionId> ids) {
        List<Long> locals = padded(ids.stream().map(PinionId::local).toList());
        String text = SELECT_WITH_COUNTS.formatted(
                ShardDatabase.table(shard, table.table()),
                ShardDatabase.table(shard, "counters"),
                ShardSql.placeholders(locals.size()));
        Tuple args = Tuple.tuple();
        args.addLong(counterBase(shard, table));
        locals.forEach(args::addLong);
        return sql.query(shard, text, args).map(rows -> toObjects(table, rows, row -> shard));
    }

    /** What a row's local id is added to for its counters' {@code object_id}: the id of local 0 on the shard. */
    private static long counterBase(int shard, ObjectTable table) {
        return PinionId.of(shard, table.type(), 1).value() - 1;
    }

    private static Map<PinionId, StoredObject> toObjects(ObjectTable table, RowSet<Row> rows,
            ToIntFunction<Row> shardOf) {
        Map<PinionId, StoredObject> objects = new LinkedHashMap<>();
        for (Row row : rows) {
            PinionId id = PinionId.of(shardOf.applyAsInt(row), table.type(), row.getLong("local_id"));
            StoredObject object = objects.computeIfAbsent(id, key -> new StoredObject(key, row.getString("data"),
                    row.getLocalDateTime("ts").toInstant(ZoneOffset.UTC), new HashMap<>(4)));
            String counter = row.getString("name");
            if (counter != null) {
                object.counts().put(counter.intern(), row.getLong("value"));
            }
        }
        objects.replaceAll((id, object) -> object.counts().isEmpty() ? object.withCounts(Map.of())
                : object.withCounts(Map.copyOf(object.counts())));
        return objects;
    }

    /**
     * Pads the IN list to the next power of two by repeating its last element, so the prepared-statement cache
     * holds a handful of statement shapes instead of one per list length.
     */
    static List<Long> padded(List<Long> values) {
        int size = Integer.highestOneBit(Math.max(1, values.size() - 1)) << 1;
        if (values.size() == 1) {
            size = 1;
        }
        List<Long> padded = new ArrayList<>(values);
        while (padded.size() < size) {
            padded.add(values.get(values.size() - 1));
        }
        return padded;
    }
}
