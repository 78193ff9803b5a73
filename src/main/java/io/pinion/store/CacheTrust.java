package io.pinion.store;

/**
 * Whether the object cache may be used, as one explicit state driven by the evidence of its invalidation channel
 * ({@link CacheChannel}): the subscription going up or down, and the instance's own numbered heartbeats coming back.
 *
 * <pre>
 *   LOST        the subscription is down, or was never up: invalidations may have been missed.
 *               The cache is empty and bypassed. The state at start.
 *   DELIVERING  subscribed, and the own heartbeats come back: every invalidation published before the last heartbeat
 *               heard has been applied. The cache is used.
 *   LATE        subscribed, but more heartbeats outstanding than allowed: invalidations are delayed, not lost (they
 *               are applied as they arrive). The cache is bypassed and keeps its entries.
 *
 *   LOST       -- own heartbeat heard while subscribed --&gt;  DELIVERING  (the cache emptied first)
 *   DELIVERING -- a check finds too many outstanding -----&gt;  LATE
 *   LATE       -- own heartbeat heard while subscribed --&gt;  DELIVERING  (entries kept)
 *   any        -- subscription lost ----------------------&gt;  LOST        (the cache emptied)
 * </pre>
 *
 * <p>Thread contract: the events come from the heartbeat timer and the subscription's callbacks, on Vert.x event
 * loops that may differ; each transition is one {@code synchronized} step that runs no I/O (the hooks only empty the
 * in-process cache), and the state is read without a lock by every request that asks whether the cache is usable.
 */
final class CacheTrust {

    enum State {
        LOST, DELIVERING, LATE
    }

    private volatile State state = State.LOST;
    private boolean subscribed;
    private long sent;
    private long heard;

    State state() {
        return state;
    }

    synchronized boolean subscribed() {
        return subscribed;
    }

    /** The number of the next heartbeat to publish. */
    synchronized long nextBeat() {
        return ++sent;
    }

    /** Heartbeats published and not heard back yet. */
    synchronized long outstanding() {
        return sent - heard;
    }

    /**
     * The subscription went up or down. Going down leads to {@link State#LOST}: {@code onLoss} runs after the state
     * changed (so nothing is filled meanwhile). Returns the state before when it changed, else null.
     */
    synchronized State subscription(boolean up, Runnable onLoss) {
        subscribed = up;
        if (up || state == State.LOST) {
            return null;
        }
        State before = state;
        state = State.LOST;
        onLoss.run();
        return before;
    }

    /**
     * An own heartbeat came back. While subscribed it leads to {@link State#DELIVERING}; from {@link State#LOST},
     * {@code beforeUse} runs before the state changes (the cache starts over from empty). Returns the state before
     * when it changed, else null.
     */
    synchronized State heard(long beat, Runnable beforeUse) {
        heard = Math.max(heard, beat);
        if (!subscribed || state == State.DELIVERING) {
            return null;
        }
        State before = state;
        if (before == State.LOST) {
            beforeUse.run();
        }
        state = State.DELIVERING;
        return before;
    }

    /**
     * The periodic check: with more than {@code allowed} heartbeats outstanding, a delivering channel is late. Returns
     * whether that happened now.
     */
    synchronized boolean check(long allowed) {
        if (state == State.DELIVERING && sent - heard > allowed) {
            state = State.LATE;
            return true;
        }
        return false;
    }
}
