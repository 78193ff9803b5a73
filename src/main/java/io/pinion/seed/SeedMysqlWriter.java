package io.pinion.seed;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.boards.BoardData;
import io.pinion.boards.BoardService;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.pins.PinData;
import io.pinion.pins.PinViews;
import io.pinion.store.CounterStore;
import io.pinion.store.JsonBlobs;
import io.pinion.store.MappingStore;
import io.pinion.store.MappingTable;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.store.Sequences;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.ShardRange;
import io.pinion.users.UserData;
import io.pinion.users.UserRepository;
import io.pinion.users.UserService;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * Writes a {@link SeedData} set's users, boards, pins and likes to the shard databases through the store layer's
 * bulk statements: rows grouped by shard, up to {@value #CHUNK} per statement, each group's objects, mappings and
 * counters in one transaction, {@value #CONCURRENCY} transactions at a time. What it stores is what the API would
 * have stored for the same objects (same JSON, mappings, sequences and counters), with past creation times.
 */
@ApplicationScoped
class SeedMysqlWriter {

    static final int CHUNK = 500;
    static final int CONCURRENCY = 8;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final ShardSql sql;
    private final ObjectStore objects;
    private final MappingStore mappings;
    private final CounterStore counters;
    private final UserRepository usernames;
    private final JsonBlobs json;
    private final ActiveTopology topology;

    SeedMysqlWriter(ShardSql sql, ObjectStore objects, MappingStore mappings, CounterStore counters,
            UserRepository usernames, JsonBlobs json, ActiveTopology topology) {
        this.sql = sql;
        this.objects = objects;
        this.mappings = mappings;
        this.counters = counters;
        this.usernames = usernames;
        this.json = json;
        this.topology = topology;
    }

    /** Fails when a multi-row INSERT would not get consecutive ids on some host. */
    Uni<Void> checkHosts() {
        var hosts = topology.get().mysql().hosts();
        List<Uni<Boolean>> checks = hosts.stream()
                .map(host -> objects.consecutiveIds(topology.get().mysql().shardsOf(host)[0]))
                .toList();
        return Uni.join()
                .all(checks)
                .andFailFast()
                .invoke(results -> {
                    if (results.contains(false)) {
                        throw new IllegalStateException(
                                "bulk loading needs innodb_autoinc_lock_mode 0 or 1 on every MySQL host");
                    }
                })
                .replaceWithVoid();
    }

    /** Whether the plan's first username is already taken (the prefix was seeded before). */
    Uni<Boolean> alreadySeeded(SeedPlan plan) {
        return usernames.findIdByUsername(SeedNames.username(plan, 0)).map(id -> id != null);
    }

    /** Users on random open shards (as sign-up places them), then their usernames; fills {@code ids.users}. */
    Uni<Void> users(SeedData data, SeedIds ids, String passwordHash, SeedProgress progress) {
        ShardRange open = topology.get().mysql().openShards();
        SplittableRandom random = new SplittableRandom(data.plan.seed() + 8);
        int[] shard = new int[data.plan.users()];
        for (int u = 0; u < shard.length; u++) {
            shard[u] = open.from() + random.nextInt(open.size());
        }
        Uni<Void> rows = run(
                groups(shard.length, u -> shard[u]),
                progress,
                (tx, s, members) -> objects.insertAll(
                                tx,
                                s,
                                ObjectTable.USERS,
                                members.stream()
                                        .map(u -> json.write(new UserData(
                                                SeedNames.username(data.plan, u),
                                                SeedNames.displayName(u),
                                                passwordHash,
                                                Instant.ofEpochMilli(data.userCreated[u]),
                                                true)))
                                        .toList(),
                                members.stream()
                                        .map(u -> Instant.ofEpochMilli(data.userCreated[u]))
                                        .toList())
                        .invoke(created -> assign(ids.users, members, created))
                        .replaceWithVoid());
        return rows.chain(() -> run(
                groups(shard.length, u -> usernames.shardOf(SeedNames.username(data.plan, u))),
                null,
                (tx, s, members) -> {
                    Map<String, PinionId> names = new LinkedHashMap<>();
                    members.forEach(u -> names.put(SeedNames.username(data.plan, u), PinionId.decode(ids.users[u])));
                    return usernames
                            .claimAll(tx, s, names)
                            .invoke(claimed -> {
                                if (claimed != names.size()) {
                                    throw new IllegalStateException(
                                            "usernames of prefix " + data.plan.prefix() + " are taken");
                                }
                            })
                            .replaceWithVoid();
                }));
    }

    /** Boards on their owners' shards, with the owners' board lists and counts; fills {@code ids.boards}. */
    Uni<Void> boards(SeedData data, SeedIds ids, SeedProgress progress) {
        return run(
                groups(
                        data.boards(),
                        b -> PinionId.decode(ids.users[data.boardOwner[b]]).shard()),
                progress,
                (tx, s, members) -> {
                    List<String> rows = new ArrayList<>();
                    List<Instant> times = new ArrayList<>();
                    for (int b : members) {
                        int owner = data.boardOwner[b];
                        rows.add(json.write(new BoardData(
                                Long.toString(ids.users[owner]),
                                SeedNames.boardName(b - data.boardStart[owner]),
                                "",
                                Instant.ofEpochMilli(data.boardCreated[b]),
                                true)));
                        times.add(Instant.ofEpochMilli(data.boardCreated[b]));
                    }
                    return objects.insertAll(tx, s, ObjectTable.BOARDS, rows, times)
                            .chain(created -> {
                                assign(ids.boards, members, created);
                                List<MappingStore.Entry> entries = new ArrayList<>();
                                List<CounterStore.Delta> deltas = new ArrayList<>();
                                for (int i = 0; i < members.size(); i++) {
                                    int b = members.get(i);
                                    PinionId owner = PinionId.decode(ids.users[data.boardOwner[b]]);
                                    entries.add(new MappingStore.Entry(
                                            owner, created.get(i), sequence(data.boardCreated[b], b)));
                                    deltas.add(new CounterStore.Delta(owner, UserService.BOARDS, 1));
                                }
                                return mappings.addAll(tx, MappingTable.USER_HAS_BOARDS, s, entries)
                                        .chain(() -> counters.addAll(tx, s, deltas));
                            });
                });
    }

    /** Pins on their boards' shards, with the board's and the owner's pin lists and counts; fills {@code ids.pins}. */
    Uni<Void> pins(SeedData data, SeedIds ids, SeedProgress progress) {
        return run(
                groups(
                        data.plan.pins(),
                        p -> PinionId.decode(ids.boards[data.pinBoard[p]]).shard()),
                progress,
                (tx, s, members) -> {
                    List<String> rows = new ArrayList<>();
                    List<Instant> times = new ArrayList<>();
                    for (int p : members) {
                        Instant created = Instant.ofEpochMilli(data.pinCreated[p]);
                        rows.add(json.write(new PinData(
                                Long.toString(ids.users[data.pinOwner(p)]),
                                Long.toString(ids.boards[data.pinBoard[p]]),
                                SeedNames.pinDescription(p, data.pinInterests[p]),
                                "https://example.com/p/" + p,
                                "https://img.example.com/" + p + ".jpg",
                                SeedNames.interests(data.pinInterests[p]),
                                null,
                                created,
                                true)));
                        times.add(created);
                    }
                    return objects.insertAll(tx, s, ObjectTable.PINS, rows, times)
                            .chain(created -> {
                                assign(ids.pins, members, created);
                                List<MappingStore.Entry> boardEntries = new ArrayList<>();
                                List<MappingStore.Entry> userEntries = new ArrayList<>();
                                Map<PinionId, Long> perObject = new LinkedHashMap<>();
                                for (int i = 0; i < members.size(); i++) {
                                    int p = members.get(i);
                                    PinionId board = PinionId.decode(ids.boards[data.pinBoard[p]]);
                                    PinionId owner = PinionId.decode(ids.users[data.pinOwner(p)]);
                                    long sequence = sequence(data.pinCreated[p], p);
                                    boardEntries.add(new MappingStore.Entry(board, created.get(i), sequence));
                                    userEntries.add(new MappingStore.Entry(owner, created.get(i), sequence));
                                    perObject.merge(board, 1L, Long::sum);
                                    perObject.merge(owner, 1L, Long::sum);
                                }
                                List<CounterStore.Delta> deltas = new ArrayList<>();
                                perObject.forEach((id, count) -> deltas.add(new CounterStore.Delta(
                                        id,
                                        id.type() == io.pinion.id.ObjectType.BOARD
                                                ? BoardService.PINS
                                                : UserService.PINS,
                                        count)));
                                return mappings.addAll(tx, MappingTable.BOARD_HAS_PINS, s, boardEntries)
                                        .chain(() -> mappings.addAll(tx, MappingTable.USER_HAS_PINS, s, userEntries))
                                        .chain(() -> counters.addAll(tx, s, deltas));
                            });
                });
    }

    /** Likes: the pin's side (likers, like count) on the pin's shard, then the user's side on the user's shard. */
    Uni<Void> likes(SeedData data, SeedIds ids, SeedProgress progress) {
        int n = data.likes();
        long[] at = new long[n];
        for (int i = 0; i < n; i++) {
            long created = data.pinCreated[data.likePin[i]];
            at[i] = created + (long) ((data.nowMs - created) * ((i * 0.6180339887) % 1));
        }
        Uni<Void> pinSide = run(
                groups(n, i -> PinionId.decode(ids.pins[data.likePin[i]]).shard()),
                progress,
                (tx, s, members) -> side(
                        tx,
                        s,
                        members,
                        MappingTable.PIN_LIKED_BY_USERS,
                        PinViews.LIKES,
                        i -> PinionId.decode(ids.pins[data.likePin[i]]),
                        i -> PinionId.decode(ids.users[data.likeUser[i]]),
                        at));
        return pinSide.chain(() -> run(
                groups(n, i -> PinionId.decode(ids.users[data.likeUser[i]]).shard()),
                progress,
                (tx, s, members) -> side(
                        tx,
                        s,
                        members,
                        MappingTable.USER_LIKES_PINS,
                        UserService.LIKES,
                        i -> PinionId.decode(ids.users[data.likeUser[i]]),
                        i -> PinionId.decode(ids.pins[data.likePin[i]]),
                        at)));
    }

    private Uni<Void> side(SqlConnection tx, int shard, List<Integer> members, MappingTable table, String counter,
            IntFunction<PinionId> from, IntFunction<PinionId> to, long[] at) {
        List<MappingStore.Entry> entries = new ArrayList<>();
        Map<PinionId, Long> perObject = new LinkedHashMap<>();
        for (int i : members) {
            entries.add(new MappingStore.Entry(from.apply(i), to.apply(i), sequence(at[i], i)));
            perObject.merge(from.apply(i), 1L, Long::sum);
        }
        List<CounterStore.Delta> deltas = new ArrayList<>();
        perObject.forEach((id, count) -> deltas.add(new CounterStore.Delta(id, counter, count)));
        return mappings.addAll(tx, table, shard, entries)
                .invoke(added -> {
                    if (added != entries.size()) {
                        throw new IllegalStateException(table.table() + " on shard " + shard + " already held "
                                + (entries.size() - added) + " entries");
                    }
                })
                .chain(() -> counters.addAll(tx, shard, deltas));
    }

    /**
     * A list sequence for an entry created at {@code ms}, as {@link Sequences#now()} gives it, made unique by {@code
     * salt}.
     */
    static long sequence(long ms, int salt) {
        return (ms << Sequences.GAP_BITS) | (salt & ((1 << Sequences.GAP_BITS) - 1));
    }

    private static void assign(long[] ids, List<Integer> members, List<PinionId> created) {
        for (int i = 0; i < members.size(); i++) {
            ids[members.get(i)] = created.get(i).value();
        }
    }

    /** Indexes 0..n-1 grouped by shard (in index order), cut into chunks. */
    private static List<Map.Entry<Integer, List<Integer>>> groups(int n, IntFunction<Integer> shardOf) {
        Map<Integer, List<Integer>> byShard = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            byShard.computeIfAbsent(shardOf.apply(i), key -> new ArrayList<>()).add(i);
        }
        List<Map.Entry<Integer, List<Integer>>> chunks = new ArrayList<>();
        byShard.forEach((shard, members) -> {
            for (int start = 0; start < members.size(); start += CHUNK) {
                chunks.add(Map.entry(shard, members.subList(start, Math.min(members.size(), start + CHUNK))));
            }
        });
        return chunks;
    }

    /** Work of one chunk inside its shard's transaction. */
    interface ChunkWork {
        Uni<Void> write(SqlConnection tx, int shard, List<Integer> members);
    }

    /**
     * Runs the chunks: those of one shard one after the other (their counter rows overlap, and concurrent
     * transactions on them would deadlock), {@value #CONCURRENCY} shards at a time. A transaction that still meets a
     * deadlock or lock timeout is retried.
     */
    private Uni<Void> run(List<Map.Entry<Integer, List<Integer>>> chunks, SeedProgress progress, ChunkWork work) {
        if (chunks.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Map<Integer, List<Map.Entry<Integer, List<Integer>>>> byShard = new LinkedHashMap<>();
        chunks.forEach(chunk -> byShard.computeIfAbsent(chunk.getKey(), key -> new ArrayList<>()).add(chunk));
        return Multi.createFrom().iterable(byShard.values())
                .onItem().transformToUni(shardChunks -> Multi.createFrom().iterable(shardChunks)
                        .onItem().transformToUniAndConcatenate(chunk -> write(chunk, progress, work))
                        .collect().last())
                .merge(CONCURRENCY)
                .collect().last().replaceWithVoid();
    }

    private Uni<Void> write(Map.Entry<Integer, List<Integer>> chunk, SeedProgress progress, ChunkWork work) {
        return Uni.createFrom()
                .deferred(() -> sql.inTransaction(
                        chunk.getKey(), TIMEOUT, tx -> work.write(tx, chunk.getKey(), chunk.getValue())))
                .onFailure(SeedMysqlWriter::lockConflict)
                .retry()
                .withBackOff(Duration.ofMillis(50), Duration.ofSeconds(2))
                .atMost(10)
                .invoke(() -> {
                    if (progress != null) {
                        progress.add(chunk.getValue().size());
                    }
                });
    }

    private static boolean lockConflict(Throwable failure) {
        return failure instanceof io.vertx.mysqlclient.MySQLException mysql
                && (mysql.getErrorCode() == 1213 || mysql.getErrorCode() == 1205);
    }
}
