package io.pinion.pins;

import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.boards.BoardService;
import io.pinion.failure.NotFound;
import io.pinion.failure.Outages;
import io.pinion.id.PinionId;
import io.pinion.queue.JobWriter;
import io.pinion.queue.NewJob;
import io.pinion.queue.QueueRegistry;
import io.pinion.store.MappingStore;
import io.pinion.store.MappingTable;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Deleting a board deletes its pins: each as {@link PinService#delete} does (gone from reads, from its board's and
 * owner's lists with their counts, purged from the home feeds by the feed's purge jobs, a saved copy's save given
 * back). The purge job is stored before the board changes, so a board deleted is a board whose pins go, also when the
 * instance dies right after; the first {@value #AT_ONCE} pins go before the answer (a board of that size has none left
 * when its owner gets the 204), the rest in the {@value #QUEUE} job, {@value #PER_JOB} per run.
 */
@ApplicationScoped
public class BoardPurges {

    public static final String QUEUE = "board-purge";
    /** Pins deleted while the owner waits for the answer. */
    static final int AT_ONCE = 100;
    /** Pins deleted by one run of the purge job; a board with more gets another job. */
    static final int PER_JOB = 2_000;
    /** Runs of a purge job that wait for its board's delete (about 15 s with the worker's backoff). */
    static final int ATTEMPTS_FOR_AN_ACTIVE_BOARD = 5;
    /** Pins deleted at the same time. */
    private static final int CONCURRENCY = 8;

    private static final Logger LOG = Logger.getLogger(BoardPurges.class);

    private final BoardService boards;
    private final PinService pins;
    private final MappingStore mappings;
    private final QueueRegistry queues;
    private final JobWriter writer;

    BoardPurges(BoardService boards, PinService pins, MappingStore mappings, QueueRegistry queues, JobWriter writer) {
        this.boards = boards;
        this.pins = pins;
        this.mappings = mappings;
        this.queues = queues;
        this.writer = writer;
    }

    /** Deletes the user's board and its pins (see the class comment). */
    public Uni<Void> delete(PinionId user, PinionId board) {
        return boards.requireOwned(user, board)
                .chain(() -> schedule(board, "board-purge:" + board))
                .chain(() -> boards.delete(user, board))
                .chain(() -> purge(board, user, AT_ONCE).onFailure().recoverWithItem(failure -> {
                    LOG.debugf("pins of board %s left to its purge job: %s", board, Outages.describe(failure));
                    return 1;
                }))
                .replaceWithVoid();
    }

    /**
     * One run of the purge job: up to {@value #PER_JOB} pins of a deleted board; a board with more left gets another
     * job. A board not deleted yet fails the run (retried with backoff: the request that stored the job may still be
     * deleting it) until {@value #ATTEMPTS_FOR_AN_ACTIVE_BOARD} attempts; after that it is taken for a delete that
     * failed, and keeps its pins.
     */
    public Uni<Void> purgeRun(PinionId board, int attempt) {
        return boards.deletedOwner(board).chain(owner -> {
            if (owner == null) {
                if (attempt < ATTEMPTS_FOR_AN_ACTIVE_BOARD) {
                    return Uni.createFrom()
                            .failure(new IllegalStateException("board " + board + " is not deleted (yet)"));
                }
                return Uni.createFrom().voidItem();
            }
            return purge(board, owner, PER_JOB)
                    .chain(left ->
                            left > 0 ? schedule(board, null) : Uni.createFrom().voidItem());
        });
    }

    /** Deletes up to {@code most} pins of the board, newest first; how many may be left (0: none). */
    private Uni<Integer> purge(PinionId board, PinionId owner, int most) {
        return mappings.page(MappingTable.BOARD_HAS_PINS, board, null, most).chain(page -> {
            List<Long> ids = page.toIds();
            if (ids.isEmpty()) {
                return Uni.createFrom().item(0);
            }
            return Multi.createFrom()
                    .iterable(ids)
                    .onItem()
                    .transformToUni(id -> pins.delete(owner, PinionId.decode(id))
                            .replaceWith(1)
                            .onFailure(NotFound.class)
                            .recoverWithItem(0))
                    .merge(CONCURRENCY)
                    .collect()
                    .with(java.util.stream.Collectors.summingInt(Integer::intValue))
                    .map(deleted -> {
                        if (deleted == 0 && page.next() != null) {
                            // entries whose pins are gone already: another run would read them again
                            LOG.warnf(
                                    "board %s: %d list entries without a live pin; its purge stops", board, ids.size());
                            return 0;
                        }
                        return page.next() == null ? 0 : 1;
                    });
        });
    }

    private Uni<Void> schedule(PinionId board, String dedupeKey) {
        // due a moment later: the request that stores it deletes the board and its first pins meanwhile
        NewJob job = new NewJob(
                board.toString().getBytes(StandardCharsets.UTF_8), 2, System.currentTimeMillis() + 1_000, dedupeKey);
        return queues.get(QUEUE).chain(queue -> writer.enqueue(queue, List.of(job))).replaceWithVoid();
    }
}
