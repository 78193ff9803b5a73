package io.pinion.health;

import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;

/**
 * Reads a feature runs during the warm-up ({@link WarmUp}) besides the HTTP reads, for paths no side-effect-free
 * request reaches (a home feed read records a visit and persists a chunk). Each call reads as the feature would for
 * the user and changes nothing.
 */
public interface WarmUpTask {

    /** One read for a sampled user; changes nothing. */
    Uni<Void> warm(PinionId user);
}
