package io.pinion.boards;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.Forbidden;
import io.pinion.failure.NotFound;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.paging.Cursors;
import io.pinion.paging.Page;
import io.pinion.paging.Position;
import io.pinion.store.CounterStore;
import io.pinion.store.JsonBlobs;
import io.pinion.store.MappingStore;
import io.pinion.store.MappingTable;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.store.Sequences;
import io.pinion.store.StoredObject;
import io.pinion.users.UserService;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * Boards live on their owner's shard, listed newest first through {@code user_has_boards}. Only the owner
 * changes a board; a deleted board disappears from lists and reads.
 */
@ApplicationScoped
public class BoardService {

    /** Counter name kept for boards. */
    public static final String PINS = "pins";

    private final ShardSql sql;
    private final ObjectStore objects;
    private final MappingStore mappings;
    private final CounterStore counters;
    private final JsonBlobs json;
    private final Cursors cursors;

    BoardService(ShardSql sql, ObjectStore objects, MappingStore mappings, CounterStore counters, JsonBlobs json,
            Cursors cursors) {
        this.sql = sql;
        this.objects = objects;
        this.mappings = mappings;
        this.counters = counters;
        this.json = json;
        this.cursors = cursors;
    }

    public Uni<BoardView> create(PinionId owner, CreateBoardRequest request) {
        BoardData data = new BoardData(owner.toString(), request.name().strip(), description(request.description()),
                Instant.now(), true);
        int shard = owner.shard();
        return sql.inTransaction(shard, tx -> objects.insert(tx, shard, ObjectTable.BOARDS, json.write(data))
                .call(board -> mappings.add(tx, MappingTable.USER_HAS_BOARDS, owner, board, Sequences.now()))
                .call(board -> counters.add(tx, owner, UserService.BOARDS, 1)))
                .map(board -> view(board, data, 0));
    }

    /** The active board, or null. */
    public Uni<BoardView> get(PinionId id) {
        return objects.get(ObjectTable.BOARDS, id).map(this::viewIfActive);
    }

    /** The active board's data, failing with 404 when it is missing or deleted. */
    public Uni<BoardData> require(PinionId id) {
        return objects.get(ObjectTable.BOARDS, id)
                .map(stored -> stored == null ? null : json.read(stored, BoardData.class))
                .map(data -> {
                    if (data == null || !data.active()) {
                        throw new NotFound("board_not_found", "no board " + id);
                    }
                    return data;
                });
    }

    /** The active board's data when {@code user} owns it: 404 when missing, 403 when someone else's. */
    public Uni<BoardData> requireOwned(PinionId user, PinionId id) {
        return require(id).invoke(data -> requireOwner(user, id, data));
    }

    public Uni<BoardView> update(PinionId user, PinionId id, UpdateBoardRequest request) {
        return sql.inTransaction(id.shard(), tx -> lockOwned(tx, user, id)
                .map(data -> data.withText(request.name() == null ? data.name() : request.name().strip(),
                        request.description() == null ? data.description() : description(request.description())))
                .call(updated -> objects.update(tx, id, ObjectTable.BOARDS, json.write(updated))))
                .flatMap(ignored -> get(id));
    }

    public Uni<Void> delete(PinionId user, PinionId id) {
        return sql.inTransaction(
                        id.shard(),
                        tx -> lockOwned(tx, user, id)
                                .call(data -> objects.update(tx, id, ObjectTable.BOARDS, json.write(data.deleted())))
                                .flatMap(data -> mappings.remove(tx, MappingTable.USER_HAS_BOARDS, owner(data), id))
                                .call(removed -> removed
                                        ? counters.add(tx, user, UserService.BOARDS, -1)
                                        : Uni.createFrom().voidItem()))
                .replaceWithVoid();
    }

    /** The owner of a board that exists and was deleted; null for an active board or none. */
    public Uni<PinionId> deletedOwner(PinionId id) {
        return objects.get(ObjectTable.BOARDS, id)
                .map(stored -> stored == null ? null : json.read(stored, BoardData.class))
                .map(data -> data == null || data.active() ? null : owner(data));
    }

    /** A user's boards, newest first. */
    public Uni<Page<BoardView>> listForUser(PinionId user, String cursor, int limit) {
        String list = "user-boards:" + user;
        Position after = cursors.decode(list, cursor);
        return mappings.page(MappingTable.USER_HAS_BOARDS, user, after, limit)
                .flatMap(page -> objects.getAll(ObjectTable.BOARDS, ids(page.toIds()))
                        .map(found -> new Page<>(found.stream().map(this::viewIfActive).filter(b -> b != null).toList(),
                                cursors.encode(list, page.next()))));
    }

    private Uni<BoardData> lockOwned(SqlConnection tx, PinionId user, PinionId id) {
        return objects.lock(tx, id, ObjectTable.BOARDS)
                .map(blob -> blob == null ? null : json.read(blob, BoardData.class))
                .map(data -> {
                    if (data == null || !data.active()) {
                        throw new NotFound("board_not_found", "no board " + id);
                    }
                    requireOwner(user, id, data);
                    return data;
                });
    }

    private static void requireOwner(PinionId user, PinionId board, BoardData data) {
        if (!data.ownerId().equals(user.toString())) {
            throw new Forbidden("forbidden", "board " + board + " belongs to another user");
        }
    }

    private static PinionId owner(BoardData data) {
        return PinionId.parse(data.ownerId());
    }

    private BoardView viewIfActive(StoredObject stored) {
        if (stored == null) {
            return null;
        }
        BoardData data = json.read(stored, BoardData.class);
        return data.active() ? view(stored.id(), data, stored.count(PINS)) : null;
    }

    private static BoardView view(PinionId id, BoardData data, long pins) {
        return new BoardView(id.toString(), data.ownerId(), data.name(), data.description(), data.createdAt(),
                new BoardView.Counts(pins));
    }

    private static String description(String text) {
        return text == null ? "" : text.strip();
    }

    static List<PinionId> ids(List<Long> values) {
        return values.stream().map(PinionId::decode).filter(id -> id.type() == ObjectType.BOARD).toList();
    }
}
