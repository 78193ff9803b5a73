package io.pinion.pins;

import java.util.Objects;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.boards.BoardService;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.paging.Cursors;
import io.pinion.paging.Page;
import io.pinion.paging.Position;
import io.pinion.store.MappingPage;
import io.pinion.store.MappingStore;
import io.pinion.store.MappingTable;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.users.UserService;
import io.pinion.users.UserView;
import io.smallrye.mutiny.Uni;

/**
 * The paged lists around pins: a board's pins, a user's pins and likes, a pin's likers. Each page is one keyset
 * query on the list's mapping table followed by an application-layer join of the objects (one query per shard,
 * in parallel).
 */
@ApplicationScoped
public class PinLists {

    private final MappingStore mappings;
    private final ObjectStore objects;
    private final PinViews views;
    private final Cursors cursors;
    private final BoardService boards;
    private final UserService users;

    PinLists(MappingStore mappings, ObjectStore objects, PinViews views, Cursors cursors, BoardService boards,
            UserService users) {
        this.mappings = mappings;
        this.objects = objects;
        this.views = views;
        this.cursors = cursors;
        this.boards = boards;
        this.users = users;
    }

    /** A board's pins in board order (newest first unless re-ordered); 404 for a missing or deleted board. */
    public Uni<Page<PinView>> boardPins(PinionId board, String cursor, int limit) {
        Position after = cursors.decode("board-pins:" + board, cursor);
        return boards.require(board)
                .flatMap(ignored -> pinPage(MappingTable.BOARD_HAS_PINS, board, "board-pins:", after, limit));
    }

    public Uni<Page<PinView>> userPins(PinionId user, String cursor, int limit) {
        return pinPage(
                MappingTable.USER_HAS_PINS, user, "user-pins:", cursors.decode("user-pins:" + user, cursor), limit);
    }

    public Uni<Page<PinView>> userLikes(PinionId user, String cursor, int limit) {
        return pinPage(
                MappingTable.USER_LIKES_PINS, user, "user-likes:", cursors.decode("user-likes:" + user, cursor), limit);
    }

    /** Who liked a pin, most recent first. */
    public Uni<Page<UserView>> likers(PinionId pin, String cursor, int limit) {
        String list = "pin-likers:" + pin;
        Position after = cursors.decode(list, cursor);
        return mappings.page(MappingTable.PIN_LIKED_BY_USERS, pin, after, limit)
                .flatMap(page -> objects.getAll(ObjectTable.USERS, page.toIds().stream()
                                .map(PinionId::decode).filter(id -> id.type() == ObjectType.USER).toList())
                        .map(found -> new Page<>(found.stream().map(users::viewOf).filter(Objects::nonNull).toList(),
                                cursors.encode(list, page.next()))));
    }

    private Uni<Page<PinView>> pinPage(
            MappingTable table, PinionId from, String listPrefix, Position after, int limit) {
        String list = listPrefix + from;
        return mappings.page(table, from, after, limit)
                .flatMap((MappingPage page) -> objects.getAll(ObjectTable.PINS, PinViews.pinIds(page.toIds()))
                        .map(found -> new Page<>(views.activeViews(found), cursors.encode(list, page.next()))));
    }
}
