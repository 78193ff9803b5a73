package io.pinion.health;

import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;

/**
 * Work a feature runs during the warm-up ({@link WarmUp}) besides the HTTP reads, for paths no side-effect-free
 * request reaches (a home feed read records a visit and persists a chunk; a job is enqueued, leased and acked). Each
 * call does what the feature would do for a request and changes no user's data: a read for a sampled user, or work
 * on the feature's own warm-up state.
 */
public interface WarmUpTask {

    /** One round for a sampled user (null when {@link #perUser()} is false); changes no user's data. */
    Uni<Void> warm(PinionId user);

    /** Whether a round is for a sampled user; a task that is not runs on a stack without users too. */
    default boolean perUser() {
        return true;
    }

    /** Whether the task has done all its rounds (a task with a bounded number of them); no round is started after. */
    default boolean done() {
        return false;
    }
}
