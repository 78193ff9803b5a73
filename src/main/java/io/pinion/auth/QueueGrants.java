package io.pinion.auth;

import java.util.Collection;

import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;

/**
 * The queues a worker was granted by name. Queue access asks this; the users' stored grants answer it, so the job
 * queue needs no knowledge of where grants are kept.
 */
public interface QueueGrants {

    /** The queues the user may use over HTTP, as granted at most a minute ago. */
    Uni<Collection<String>> queues(PinionId user);
}
