package io.pinion.auth;

import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;

/**
 * Whether a worker was granted a queue by name. Queue access asks this; the users' stored grants answer it, so the
 * job queue needs no knowledge of where grants are kept.
 */
public interface QueueGrants {

    /** Whether the user may use the queue over HTTP, as granted at most a minute ago. */
    Uni<Boolean> granted(PinionId user, String queue);
}
