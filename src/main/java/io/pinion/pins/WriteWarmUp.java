package io.pinion.pins;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.graph.FollowWrites;
import io.pinion.health.WarmUpConfig;
import io.pinion.health.WarmUpTask;
import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;

/**
 * The writes' part of the warm-up: {@code pinion.warm-up.write-rounds} rounds of what users write most, by the
 * warm-up's own accounts ({@link WarmUpAccounts}) on their own boards. A round: the follower follows the author and
 * the author's board, the author pins on it (the pin is fanned out to the follower), the follower likes it, unlikes
 * it and saves it to their own board, both pins are deleted (and purged from the pools they reached), and the
 * follower unfollows board and author. Each round ends where it began, so the accounts follow nobody and keep no
 * active pin; a round that fails midway still unfollows. No user's data is touched.
 *
 * <p>Without it, the first writes after a start (their classes loaded, Lua scripts and statements first used, the
 * feed's job handlers first run) stalled the reads beside them: the first {@code k6/follow.js} run after a restart
 * crossed its thresholds, the second passed (docs/benchmarks.md).
 *
 * <p>Thread contract: rounds may run on several event loops at once; the round count is atomic, and the order of two
 * rounds' follows and unfollows does not matter, since every round ends with its unfollows.
 */
@ApplicationScoped
public class WriteWarmUp implements WarmUpTask {

    private static final Logger LOG = Logger.getLogger(WriteWarmUp.class);
    private static final String IMAGE = "https://example.com/warm-up.jpg";

    private final WarmUpAccounts accounts;
    private final FollowWrites follows;
    private final PinService pins;
    private final PinLikes likes;
    private final WarmUpConfig config;
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger ended = new AtomicInteger();
    private volatile long firstNanos;

    WriteWarmUp(WarmUpAccounts accounts, FollowWrites follows, PinService pins, PinLikes likes, WarmUpConfig config) {
        this.accounts = accounts;
        this.follows = follows;
        this.pins = pins;
        this.likes = likes;
        this.config = config;
    }

    @Override
    public boolean perUser() {
        return false;
    }

    @Override
    public boolean done() {
        return started.get() >= config.writeRounds();
    }

    /** Rounds started so far, by every warm-up of this instance (at most {@code pinion.warm-up.write-rounds}). */
    public int rounds() {
        return Math.min(started.get(), config.writeRounds());
    }

    @Override
    public Uni<Void> warm(PinionId ignored) {
        int round = started.getAndIncrement();
        if (round >= config.writeRounds()) {
            return Uni.createFrom().voidItem();
        }
        if (round == 0) {
            firstNanos = System.nanoTime();
        }
        return accounts.get().chain(this::round).onTermination().invoke(() -> {
            if (ended.incrementAndGet() == config.writeRounds()) {
                LOG.infof("warm-up: %d write rounds in %d ms", config.writeRounds(),
                        (System.nanoTime() - firstNanos) / 1_000_000);
            }
        });
    }

    private Uni<Void> round(WarmUpAccounts.Accounts both) {
        PinionId follower = both.follower().user();
        PinionId author = both.author().user();
        PinionId board = both.author().board();
        Uni<Void> unfollow = follows.unfollowBoard(follower, board)
                .chain(() -> follows.unfollowUser(follower, author))
                .replaceWithVoid();
        return follows.followUser(follower, author)
                .chain(() -> follows.followBoard(follower, board))
                .chain(() -> pins.create(author, board,
                        new CreatePinRequest(board.toString(), "warm-up", null, IMAGE, List.of())))
                .chain(pin -> saved(both, PinionId.parse(pin.id())))
                .chain(() -> unfollow)
                .onFailure().call(failure -> {
                    LOG.debugf("warm-up write round failed: %s", Outages.describe(failure));
                    return unfollow.onFailure().recoverWithNull();
                });
    }

    /** The pin liked, unliked and saved by the follower; then the saved copy and the pin deleted. */
    private Uni<Void> saved(WarmUpAccounts.Accounts both, PinionId pin) {
        PinionId follower = both.follower().user();
        return likes.like(follower, pin)
                .chain(() -> likes.unlike(follower, pin))
                .chain(() -> pins.save(follower, pin, both.follower().board()))
                .chain(copy -> pins.delete(follower, PinionId.parse(copy.id())))
                .chain(() -> pins.delete(both.author().user(), pin));
    }
}
