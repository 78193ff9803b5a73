package io.pinion.pins;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.boards.BoardService;
import io.pinion.failure.InvalidInput;
import io.pinion.failure.NotFound;
import io.pinion.id.PinionId;
import io.pinion.mysql.ShardSql;
import io.pinion.paging.Position;
import io.pinion.store.MappingStore;
import io.pinion.store.MappingTable;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.store.Sequences;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;

/**
 * The owner's custom order of a board: a pin moves just before (above) or after (below) another pin by taking a
 * sequence halfway between its new neighbours. When two neighbours are adjacent the board is renumbered with
 * even gaps first. Moves on one board are serialized by locking the board row.
 */
@ApplicationScoped
public class BoardPinOrder {

    private final ShardSql sql;
    private final ObjectStore objects;
    private final MappingStore mappings;
    private final BoardService boards;

    BoardPinOrder(ShardSql sql, ObjectStore objects, MappingStore mappings, BoardService boards) {
        this.sql = sql;
        this.objects = objects;
        this.mappings = mappings;
        this.boards = boards;
    }

    /** Moves {@code pin} next to {@code anchor}: above it when {@code before}, else below it. */
    public Uni<Void> move(PinionId user, PinionId board, PinionId pin, PinionId anchor, boolean before) {
        if (pin.equals(anchor)) {
            throw new InvalidInput("invalid_move", "a pin cannot be moved next to itself");
        }
        return boards.requireOwned(user, board)
                .flatMap(ignored -> sql.inTransaction(board.shard(), tx -> objects.lock(tx, board, ObjectTable.BOARDS)
                        .flatMap(locked -> require(tx, board, pin, "pin"))
                        .flatMap(moving -> require(tx, board, anchor, "anchor pin")
                                .flatMap(at -> place(tx, board, pin, at, before, true)))));
    }

    private Uni<Void> place(SqlConnection tx, PinionId board, PinionId pin, Position anchor, boolean before,
            boolean mayRenumber) {
        Uni<Position> neighbour = before
                ? mappings.above(tx, MappingTable.BOARD_HAS_PINS, board, anchor, pin)
                : mappings.below(tx, MappingTable.BOARD_HAS_PINS, board, anchor, pin);
        return neighbour.flatMap(next -> {
            Long sequence;
            if (next == null) {
                sequence = before ? anchor.sequence() + Sequences.GAP : anchor.sequence() - Sequences.GAP;
            } else {
                sequence = before ? Sequences.between(anchor.sequence(), next.sequence())
                        : Sequences.between(next.sequence(), anchor.sequence());
            }
            if (sequence != null) {
                return mappings.setSequence(tx, MappingTable.BOARD_HAS_PINS, board, pin.value(), sequence);
            }
            if (!mayRenumber) {
                throw new IllegalStateException("no room to move pin " + pin + " after renumbering board " + board);
            }
            return renumber(tx, board)
                    .flatMap(ignored -> mappings.positionOf(tx, MappingTable.BOARD_HAS_PINS, board, PinionId.decode(anchor.toId())))
                    .flatMap(renumbered -> place(tx, board, pin, renumbered, before, false));
        });
    }

    /** Rewrites every sequence of the board with even gaps, keeping the order and the highest sequence. */
    private Uni<Void> renumber(SqlConnection tx, PinionId board) {
        return mappings.allInOrder(tx, MappingTable.BOARD_HAS_PINS, board)
                .flatMap(positions -> {
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    long top = positions.isEmpty() ? Sequences.now() : positions.get(0).sequence();
                    for (int i = 0; i < positions.size(); i++) {
                        long toId = positions.get(i).toId();
                        long sequence = top - i * Sequences.GAP;
                        chain = chain.flatMap(ignored -> mappings.setSequence(tx, MappingTable.BOARD_HAS_PINS, board, toId, sequence));
                    }
                    return chain;
                });
    }

    private Uni<Position> require(SqlConnection tx, PinionId board, PinionId pin, String what) {
        return mappings.positionOf(tx, MappingTable.BOARD_HAS_PINS, board, pin)
                .onItem().ifNull().failWith(() -> new NotFound("pin_not_found", what + " " + pin + " is not on board " + board));
    }
}
