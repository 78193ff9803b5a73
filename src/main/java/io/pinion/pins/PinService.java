package io.pinion.pins;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.boards.BoardService;
import io.pinion.failure.Forbidden;
import io.pinion.failure.NotFound;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.store.CounterStore;
import io.pinion.store.JsonBlobs;
import io.pinion.store.MappingStore;
import io.pinion.store.MappingTable;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.store.Sequences;
import io.pinion.users.UserService;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * Creating, reading, deleting and saving pins. A pin lives on its board's shard, which is its owner's shard,
 * so a pin, its board's list entry, its owner's list entry and their counters change in one transaction.
 */
@ApplicationScoped
public class PinService {

    private final ShardSql sql;
    private final ObjectStore objects;
    private final MappingStore mappings;
    private final CounterStore counters;
    private final JsonBlobs json;
    private final PinViews views;
    private final BoardService boards;
    private final PinEvents events;

    PinService(ShardSql sql, ObjectStore objects, MappingStore mappings, CounterStore counters, JsonBlobs json,
            PinViews views, BoardService boards, PinEvents events) {
        this.sql = sql;
        this.objects = objects;
        this.mappings = mappings;
        this.counters = counters;
        this.json = json;
        this.views = views;
        this.boards = boards;
        this.events = events;
    }

    public Uni<PinView> create(PinionId owner, PinionId boardId, CreatePinRequest request) {
        PinData data = new PinData(owner.toString(), boardId.toString(),
                request.description() == null ? "" : request.description().strip(), request.link(), request.imageUrl(),
                PinViews.normalizeInterests(request.interests()), null, Instant.now(), true);
        return boards.requireOwned(owner, boardId)
                .flatMap(board -> insert(owner, boardId, data))
                .call(pin -> events.pinAdded(pin, boardId, owner, data.createdAt().toEpochMilli(), data.interests()))
                .map(pin -> PinViews.view(pin, data, 0, 0));
    }

    /** The active pin, or null. */
    public Uni<PinView> get(PinionId id) {
        return objects.get(ObjectTable.PINS, id).map(views::viewIfActive);
    }

    /** The active pin with its JSON (made once per cached pin), or null. */
    public Uni<RenderedPin> rendered(PinionId id) {
        return objects.get(ObjectTable.PINS, id).map(views::rendered);
    }

    /** The pin's stored data, deleted or not (see {@link PinData#active()}); null when there is no such pin. */
    public Uni<PinData> stored(PinionId id) {
        return objects.get(ObjectTable.PINS, id).map(stored -> stored == null ? null : views.data(stored));
    }

    /** The active pin's data, failing with 404 when missing or deleted. */
    public Uni<PinData> require(PinionId id) {
        return objects.get(ObjectTable.PINS, id)
                .map(stored -> stored == null ? null : views.data(stored))
                .map(data -> {
                    if (data == null || !data.active()) {
                        throw new NotFound("pin_not_found", "no pin " + id);
                    }
                    return data;
                });
    }

    /**
     * Soft delete: the pin leaves its board's and owner's lists at once, every other list drops it on read, and a
     * feed job purges it from its receivers' feeds.
     */
    public Uni<Void> delete(PinionId user, PinionId id) {
        return sql.inTransaction(
                        id.shard(),
                        tx -> objects.lock(tx, id, ObjectTable.PINS)
                                .map(blob -> blob == null ? null : json.read(blob, PinData.class))
                                .map(data -> {
                                    if (data == null || !data.active()) {
                                        throw new NotFound("pin_not_found", "no pin " + id);
                                    }
                                    if (!data.ownerId().equals(user.toString())) {
                                        throw new Forbidden("forbidden", "pin " + id + " belongs to another user");
                                    }
                                    return data;
                                })
                                .call(data -> objects.update(tx, id, ObjectTable.PINS, json.write(data.deleted())))
                                .call(data -> unlist(
                                        tx,
                                        MappingTable.BOARD_HAS_PINS,
                                        PinionId.parse(data.boardId()),
                                        id,
                                        BoardService.PINS))
                                .call(data -> unlist(tx, MappingTable.USER_HAS_PINS, user, id, UserService.PINS)))
                .call(data -> events.pinDeleted(id, PinionId.parse(data.boardId()), user, data.interests()))
                .call(data -> data.savedFrom() == null
                        ? Uni.createFrom().voidItem()
                        : unsaved(PinionId.parse(data.savedFrom()), id))
                .replaceWithVoid();
    }

    /**
     * A deleted copy leaves its original's {@code pin_saved_to_pins} and save count (on the original's shard, like
     * the save itself); a copy already gone from the list changes nothing, so a retried delete counts once.
     */
    private Uni<Void> unsaved(PinionId original, PinionId copy) {
        return sql.inTransaction(
                original.shard(), tx -> unlist(tx, MappingTable.PIN_SAVED_TO_PINS, original, copy, PinViews.SAVES));
    }

    /**
     * Saves a pin to one of the caller's boards: a new pin on that board that references the original, and an
     * entry in the original's {@code pin_saved_to_pins} with its save count, on the original's shard.
     */
    public Uni<PinView> save(PinionId user, PinionId original, PinionId boardId) {
        return Uni.combine()
                .all()
                .unis(require(original), boards.requireOwned(user, boardId))
                .asTuple()
                .flatMap(both -> {
                    PinData copy = both.getItem1().savedAs(user.toString(), boardId.toString(), original.toString());
                    return insert(user, boardId, copy)
                            .call(saved -> events.pinAdded(
                                    saved, boardId, user, copy.createdAt().toEpochMilli(), copy.interests()))
                            .call(saved -> events.related(user, original))
                            .call(saved -> sql.inTransaction(
                                    original.shard(),
                                    tx -> mappings.add(
                                                    tx,
                                                    MappingTable.PIN_SAVED_TO_PINS,
                                                    original,
                                                    saved,
                                                    Sequences.now())
                                            .call(added -> added
                                                    ? counters.add(tx, original, PinViews.SAVES, 1)
                                                    : Uni.createFrom().voidItem())))
                            .map(saved -> PinViews.view(saved, copy, 0, 0));
                });
    }

    private Uni<PinionId> insert(PinionId owner, PinionId boardId, PinData data) {
        int shard = boardId.shard();
        long sequence = Sequences.now();
        return sql.inTransaction(shard, tx -> objects.insert(tx, shard, ObjectTable.PINS, json.write(data))
                .call(pin -> mappings.add(tx, MappingTable.BOARD_HAS_PINS, boardId, pin, sequence))
                .call(pin -> mappings.add(tx, MappingTable.USER_HAS_PINS, owner, pin, sequence))
                .call(pin -> counters.add(tx, boardId, BoardService.PINS, 1))
                .call(pin -> counters.add(tx, owner, UserService.PINS, 1)));
    }

    private Uni<Void> unlist(SqlConnection tx, MappingTable table, PinionId from, PinionId pin, String counter) {
        return mappings.remove(tx, table, from, pin)
                .flatMap(removed -> removed ? counters.add(tx, from, counter, -1) : Uni.createFrom().voidItem());
    }
}
