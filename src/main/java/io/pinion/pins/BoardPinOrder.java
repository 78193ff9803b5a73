package io.pinion.pins;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.boards.BoardService;
import io.pinion.failure.InvalidInput;
import io.pinion.failure.NotFound;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.paging.Position;
import io.pinion.store.ListOrder;
import io.pinion.store.MappingTable;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.store.Sequences;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * The owner's custom order of a board: a pin moves just before (above) or after (below) another pin by taking a
 * sequence halfway between its new neighbours. When two neighbours are adjacent, the entries around the anchor are
 * spread evenly first: a window of {@value #FIRST_WINDOW} entries on each side, eight times wider each time the room
 * between its outer neighbours is too small for gaps of at least {@code MIN_SPACING}, up to {@value #LAST_WINDOW};
 * past that the whole board is renumbered by one set-based statement. A spread is one range read per side and one
 * {@code UPDATE} per 512 entries, and leaves room for at least ten more moves into the same place, so repeated moves
 * cost bounded work on a board of any size (50,000 pins in the test). A move's transaction may take up to
 * {@value #MOVE_TIMEOUT_MS} ms (renumbering a whole large board). Moves on one board are serialized by locking the
 * board row.
 */
@ApplicationScoped
public class BoardPinOrder {

    private final ShardSql sql;
    private final ObjectStore objects;
    private final ListOrder order;
    private final BoardService boards;

    BoardPinOrder(ShardSql sql, ObjectStore objects, ListOrder order, BoardService boards) {
        this.sql = sql;
        this.objects = objects;
        this.order = order;
        this.boards = boards;
    }

    /** Moves {@code pin} next to {@code anchor}: above it when {@code before}, else below it. */
    public Uni<Void> move(PinionId user, PinionId board, PinionId pin, PinionId anchor, boolean before) {
        if (pin.equals(anchor)) {
            throw new InvalidInput("invalid_move", "a pin cannot be moved next to itself");
        }
        return boards.requireOwned(user, board)
                .flatMap(ignored -> sql.inTransaction(
                        board.shard(),
                        MOVE_TIMEOUT,
                        tx -> objects.lock(tx, board, ObjectTable.BOARDS)
                                .flatMap(locked -> require(tx, board, pin, "pin"))
                                .flatMap(moving -> require(tx, board, anchor, "anchor pin")
                                        .flatMap(at -> place(tx, board, pin, at, before, true)))));
    }

    private Uni<Void> place(SqlConnection tx, PinionId board, PinionId pin, Position anchor, boolean before,
            boolean mayRenumber) {
        Uni<Position> neighbour = before
                ? order.above(tx, MappingTable.BOARD_HAS_PINS, board, anchor, pin)
                : order.below(tx, MappingTable.BOARD_HAS_PINS, board, anchor, pin);
        return neighbour.flatMap(next -> {
            Long sequence;
            if (next == null) {
                sequence = before ? anchor.sequence() + Sequences.GAP : anchor.sequence() - Sequences.GAP;
            } else {
                sequence = before
                        ? Sequences.between(anchor.sequence(), next.sequence())
                        : Sequences.between(next.sequence(), anchor.sequence());
            }
            if (sequence != null) {
                return order.setSequence(tx, MappingTable.BOARD_HAS_PINS, board, pin.value(), sequence);
            }
            if (!mayRenumber) {
                throw new IllegalStateException(
                        "no room to move pin " + pin + " after spreading the entries of board " + board);
            }
            return spread(tx, board, anchor, pin, FIRST_WINDOW)
                    .flatMap(ignored ->
                            order.positionOf(tx, MappingTable.BOARD_HAS_PINS, board, PinionId.decode(anchor.toId())))
                    .flatMap(spread -> place(tx, board, pin, spread, before, false));
        });
    }

    static final long MOVE_TIMEOUT_MS = 5_000;
    private static final Duration MOVE_TIMEOUT = Duration.ofMillis(MOVE_TIMEOUT_MS);
    /** Entries read on each side of the anchor by the first spread. */
    static final int FIRST_WINDOW = 32;
    /** The widest window spread; a board without room within it is renumbered whole. */
    static final int LAST_WINDOW = 2_048;
    /** The smallest gap a spread leaves between neighbours: room for ten halvings. */
    static final long MIN_SPACING = 1L << 10;

    /**
     * Spreads the anchor and up to {@code window} entries on each side of it evenly between the entries just outside
     * them (past an end of the list, as far as the spread needs), skipping the moving pin; widens the window when that
     * room is too small.
     */
    private Uni<Void> spread(SqlConnection tx, PinionId board, Position anchor, PinionId moving, int window) {
        return Uni.combine()
                .all()
                .unis(
                        order.nearAbove(tx, MappingTable.BOARD_HAS_PINS, board, anchor, moving, window + 1),
                        order.nearBelow(tx, MappingTable.BOARD_HAS_PINS, board, anchor, moving, window + 1))
                .asTuple()
                .flatMap(near -> {
                    List<Position> above = near.getItem1();
                    List<Position> below = near.getItem2();
                    boolean headOpen = above.size() <= window;
                    boolean tailOpen = below.size() <= window;
                    // the window from the head side down: the entries above (farthest first), the anchor, those below
                    List<Position> entries = new ArrayList<>();
                    for (int i = Math.min(window, above.size()) - 1; i >= 0; i--) {
                        entries.add(above.get(i));
                    }
                    entries.add(anchor);
                    entries.addAll(below.subList(0, Math.min(window, below.size())));
                    long slots = entries.size() + 1L;
                    long upper = headOpen
                            ? entries.get(0).sequence() + slots * Sequences.GAP
                            : above.get(window).sequence();
                    long lower = tailOpen
                            ? entries.get(entries.size() - 1).sequence() - slots * Sequences.GAP
                            : below.get(window).sequence();
                    long spacing = (upper - lower) / slots;
                    if (spacing < MIN_SPACING && !(headOpen && tailOpen)) {
                        return window >= LAST_WINDOW
                                ? renumber(tx, board)
                                : spread(tx, board, anchor, moving, window * 8);
                    }
                    List<Position> spread = new ArrayList<>(entries.size());
                    for (int i = 0; i < entries.size(); i++) {
                        spread.add(new Position(
                                upper - (i + 1) * spacing, entries.get(i).toId()));
                    }
                    return order.setSequences(tx, MappingTable.BOARD_HAS_PINS, board, spread);
                });
    }

    /** Every entry of the board with {@link Sequences#GAP} between neighbours, keeping the order and the head. */
    private Uni<Void> renumber(SqlConnection tx, PinionId board) {
        return order.allInOrder(tx, MappingTable.BOARD_HAS_PINS, board).flatMap(all -> {
            List<Position> renumbered = new ArrayList<>(all.size());
            long top = all.isEmpty() ? 0 : all.get(0).sequence();
            for (int i = 0; i < all.size(); i++) {
                renumbered.add(new Position(top - i * Sequences.GAP, all.get(i).toId()));
            }
            return order.setSequences(tx, MappingTable.BOARD_HAS_PINS, board, renumbered);
        });
    }

    private Uni<Position> require(SqlConnection tx, PinionId board, PinionId pin, String what) {
        return order.positionOf(tx, MappingTable.BOARD_HAS_PINS, board, pin)
                .onItem()
                .ifNull()
                .failWith(() -> new NotFound("pin_not_found", what + " " + pin + " is not on board " + board));
    }
}
