package io.pinion.queue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pinion.failure.Conflict;
import io.pinion.failure.NotFound;
import io.pinion.mysql.ShardDatabase;
import io.pinion.mysql.ShardSql;
import io.pinion.topology.ActiveTopology;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.mysqlclient.MySQLException;

/**
 * Queues and their partitions, stored in the control tables and cached by every instance. The cache is refreshed
 * every {@code pinion.queue.refresh-interval}, so a change made through any instance takes effect everywhere
 * without a restart; a name missing from the cache is looked up in MySQL before it is called unknown.
 */
@ApplicationScoped
public class QueueRegistry {

    private static final Logger LOG = Logger.getLogger(QueueRegistry.class);
    private static final int CONTROL = ShardDatabase.CONTROL_SHARD;
    private static final String QUEUES = ShardDatabase.table(CONTROL, "queues");
    private static final String PARTITIONS = ShardDatabase.table(CONTROL, "queue_partitions");
    private static final String QUEUE_COLUMNS = "queue_id, name, config, version, created_at, updated_at";
    private static final int DUPLICATE_KEY = 1062;
    private static final String PARTITION_COLUMNS = "queue_id, partition_no, shard";

    private final ShardSql sql;
    private final JobTables tables;
    private final ActiveTopology topology;
    private final ObjectMapper json;
    private final QueueMetrics metrics;
    private volatile Map<String, Queue> byName = Map.of();
    private volatile Map<Long, Queue> byId = Map.of();

    QueueRegistry(ShardSql sql, JobTables tables, ActiveTopology topology, ObjectMapper json, QueueMetrics metrics) {
        this.metrics = metrics;
        this.sql = sql;
        this.tables = tables;
        this.topology = topology;
        this.json = json;
    }

    /** Every queue as of the last refresh, by name. */
    public Collection<Queue> cached() {
        return byName.values();
    }

    public Optional<Queue> cached(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public Optional<Queue> cachedById(long id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The queue, from the cache or else from MySQL; 404 {@code queue_not_found} when there is none. */
    public Uni<Queue> get(String name) {
        Queue cached = byName.get(name);
        if (cached != null) {
            return Uni.createFrom().item(cached);
        }
        return load(name).map(found -> found.orElseThrow(() -> unknown(name)));
    }

    /** The queue with this numeric id, from the cache or else from MySQL. */
    public Uni<Optional<Queue>> getById(long id) {
        Queue cached = byId.get(id);
        if (cached != null) {
            return Uni.createFrom().item(Optional.of(cached));
        }
        return refresh().map(ignored -> Optional.ofNullable(byId.get(id)));
    }

    /** Creates the queue, places its partitions and creates their tables; 409 when the name is taken. */
    public Uni<Queue> create(String name, QueueConfig config) {
        long now = System.currentTimeMillis();
        return refresh()
                .flatMap(ignored -> sql.inTransaction(
                        CONTROL,
                        connection -> sql.execute(
                                        connection,
                                        "INSERT INTO " + QUEUES
                                                + " (name, config, version, created_at, updated_at) VALUES (?, ?, 1,"
                                                + " ?, ?)",
                                        Tuple.of(name, toJson(config), now, now))
                                .flatMap(rows -> {
                                    long id = ShardSql.lastInsertId(rows);
                                    List<QueuePartition> partitions = place(id, name, 0, config.partitions(), Set.of());
                                    return insertPartitions(connection, partitions)
                                            .replaceWith(new Queue(id, name, config, 1, now, now, partitions));
                                })))
                .onFailure(MySQLException.class)
                .transform(failure -> ((MySQLException) failure).getErrorCode() == DUPLICATE_KEY
                        ? new Conflict("queue_exists", "a queue named '" + name + "' exists")
                        : failure)
                .call(queue -> createTables(queue.partitions())
                        .onFailure()
                        .call(failure -> delete(queue).onFailure().recoverWithNull()))
                .call(this::refresh);
    }

    /**
     * Creates whichever of the queue's partition tables are missing ({@code CREATE TABLE IF NOT EXISTS}, one statement
     * per partition): a creation whose table statements failed after its rows were committed, and whose clean-up
     * failed too (a host that stalled for seconds), left a queue whose enqueues fail with "table doesn't exist".
     */
    public Uni<Queue> ensureTables(Queue queue) {
        return createTables(queue.partitions()).replaceWith(queue);
    }

    /**
     * Replaces the queue's settings if it is still at {@code expectedVersion}; new partitions (the count may only
     * grow) are placed and their tables created. 409 {@code version_conflict} when someone changed it meanwhile.
     */
    public Uni<Queue> update(Queue queue, QueueConfig config) {
        long now = System.currentTimeMillis();
        List<QueuePartition> added = config.partitions() > queue.partitions().size()
                ? place(queue.id(), queue.name(), queue.partitions().size(),
                        config.partitions() - queue.partitions().size(),
                        queue.partitions().stream().map(QueuePartition::shard).collect(Collectors.toSet()))
                : List.of();
        return createTables(added)
                .flatMap(ignored -> sql.inTransaction(CONTROL, connection -> sql.execute(connection,
                                "UPDATE " + QUEUES + " SET config = ?, version = version + 1, updated_at = ?"
                                        + " WHERE queue_id = ? AND version = ?",
                                Tuple.of(toJson(config), now, queue.id(), queue.version()))
                        .flatMap(rows -> {
                            if (rows.rowCount() != 1) {
                                throw new Conflict("version_conflict",
                                        "queue '" + queue.name() + "' changed meanwhile; read it and try again");
                            }
                            return insertPartitions(connection, added);
                        })))
                .flatMap(ignored -> refresh())
                .map(ignored -> byId.get(queue.id()));
    }

    /** Removes the queue and drops its partition tables with every job in them. */
    public Uni<Void> delete(Queue queue) {
        return sql.inTransaction(CONTROL, connection -> sql.execute(connection,
                                "DELETE FROM " + PARTITIONS + " WHERE queue_id = ?", Tuple.of(queue.id()))
                        .flatMap(ignored -> sql.execute(connection,
                                "DELETE FROM " + QUEUES + " WHERE queue_id = ?", Tuple.of(queue.id()))))
                .flatMap(ignored -> Uni.join().all(queue.partitions().stream().map(tables::drop).toList())
                        .andCollectFailures().replaceWithVoid())
                .call(this::refresh);
    }

    /** Reloads every queue and partition from MySQL into the cache. */
    public Uni<Void> refresh() {
        return sql.query(CONTROL, "SELECT " + QUEUE_COLUMNS + " FROM " + QUEUES, Tuple.tuple())
                .flatMap(queueRows -> sql.query(CONTROL, "SELECT " + PARTITION_COLUMNS + " FROM " + PARTITIONS
                                + " ORDER BY queue_id, partition_no", Tuple.tuple())
                        .invoke(partitionRows -> install(queueRows, partitionRows)))
                .replaceWithVoid();
    }

    @Scheduled(every = "${pinion.queue.refresh-interval:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> refreshPeriodically() {
        return refresh()
                .onFailure()
                .invoke(failure -> LOG.debugf("queue configuration refresh failed: %s", failure.getMessage()))
                .onFailure()
                .recoverWithNull();
    }

    private Uni<Optional<Queue>> load(String name) {
        return sql.query(CONTROL, "SELECT " + QUEUE_COLUMNS + " FROM " + QUEUES + " WHERE name = ?", Tuple.of(name))
                .flatMap(rows -> {
                    if (rows.size() == 0) {
                        return Uni.createFrom().item(Optional.<Queue>empty());
                    }
                    return refresh().map(ignored -> Optional.ofNullable(byName.get(name)));
                });
    }

    private void install(RowSet<Row> queueRows, RowSet<Row> partitionRows) {
        Map<Long, List<QueuePartition>> partitions = new HashMap<>();
        for (Row row : partitionRows) {
            QueuePartition partition = new QueuePartition(row.getLong("queue_id"), row.getInteger("partition_no"),
                    row.getInteger("shard"));
            partitions.computeIfAbsent(partition.queueId(), id -> new ArrayList<>()).add(partition);
        }
        Map<String, Queue> names = new LinkedHashMap<>();
        Map<Long, Queue> ids = new HashMap<>();
        Set<String> existing = new HashSet<>();
        for (Row row : queueRows) {
            existing.add(row.getString("name"));
            long id = row.getLong("queue_id");
            QueueConfig config = fromJson(row.getValue("config"));
            List<QueuePartition> own = partitions.getOrDefault(id, List.of());
            if (own.size() < config.partitions()) {
                continue; // being created or grown: visible once its partitions are recorded
            }
            Queue queue = new Queue(id, row.getString("name"), config, row.getLong("version"),
                    row.getLong("created_at"), row.getLong("updated_at"), own.subList(0, config.partitions()));
            names.put(queue.name(), queue);
            ids.put(id, queue);
        }
        byName = names;
        byId = ids;
        metrics.keepOnly(existing);
    }

    private List<QueuePartition> place(long queueId, String name, int first, int count, Set<Integer> used) {
        List<QueuePartition> existing = byName.values().stream().flatMap(queue -> queue.partitions().stream()).toList();
        List<Integer> shards = QueuePlacement.choose(topology.get().mysql(), existing, name, first, count, used);
        List<QueuePartition> placed = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            placed.add(new QueuePartition(queueId, first + i, shards.get(i)));
        }
        return placed;
    }

    private Uni<Void> insertPartitions(SqlConnection connection, List<QueuePartition> partitions) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (QueuePartition partition : partitions) {
            chain = chain.flatMap(ignored -> sql.execute(connection,
                    "INSERT INTO " + PARTITIONS + " (queue_id, partition_no, shard) VALUES (?, ?, ?)",
                    Tuple.of(partition.queueId(), partition.partition(), partition.shard())).replaceWithVoid());
        }
        return chain;
    }

    private Uni<Void> createTables(List<QueuePartition> partitions) {
        if (partitions.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Uni.join().all(partitions.stream().map(tables::create).toList()).andFailFast().replaceWithVoid();
    }

    private String toJson(QueueConfig config) {
        try {
            return json.writeValueAsString(config);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private QueueConfig fromJson(Object value) {
        try {
            String text = value instanceof String s ? s : value.toString();
            return json.readValue(text, QueueConfig.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable queue configuration: " + e.getMessage(), e);
        }
    }

    static NotFound unknown(String name) {
        return new NotFound("queue_not_found", "no queue named '" + name + "'");
    }
}
