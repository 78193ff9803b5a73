package io.pinion.pins;

import java.util.List;

import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;

/**
 * What other features do when pins change, told by {@link PinService} and {@link PinLikes} after their transaction
 * has committed. The pins feature knows nothing of who listens: the home feed implements this and turns each event
 * into recent-pin entries or queued fan-out jobs. Implementations never fail the caller's request: what cannot be
 * done at once is queued and retried.
 */
public interface PinEvents {

    /** A pin was created on, or saved to, a board. */
    Uni<Void> pinAdded(PinionId pin, PinionId board, PinionId author, long created, List<String> interests);

    /** A pin was (soft) deleted. */
    Uni<Void> pinDeleted(PinionId pin, PinionId board, PinionId author, List<String> interests);

    /** A user liked or saved a pin, showing interest in pins like it. */
    Uni<Void> related(PinionId user, PinionId pin);
}
