package io.pinion.queue.api;

import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.pinion.auth.QueueGrants;
import io.pinion.auth.Roles;
import io.pinion.failure.Forbidden;
import io.pinion.id.PinionId;
import io.pinion.queue.Queue;
import io.pinion.queue.QueueRegistry;
import io.pinion.queue.work.InAppQueues;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * Who may do what with a queue over HTTP. The service's own queues ({@link InAppQueues}) take no job from outside
 * and give none out, whoever asks; admins may read and repair them. Any other queue: admins may do everything; a
 * worker only what an admin granted it by name ({@code PUT /v1/admin/users/{id}/queues/{name}}), else 403 — the
 * same answer whether the queue exists or not.
 */
@ApplicationScoped
public class QueueAccess {

    /** What a request wants to do with a queue. */
    public enum Use {
        /** Enqueue, lease. */
        WORK,
        /** Settings, counts, scans, a job's state. */
        READ,
        /** Retry or delete jobs. */
        REPAIR
    }

    private final QueueRegistry registry;
    private final InAppQueues inApp;
    private final QueueGrants grants;
    private final SecurityIdentity identity;

    QueueAccess(QueueRegistry registry, InAppQueues inApp, QueueGrants grants, SecurityIdentity identity) {
        this.registry = registry;
        this.inApp = inApp;
        this.grants = grants;
        this.identity = identity;
    }

    /** The queue, if the caller may use it so. */
    public Uni<Queue> queue(String name, Use use) {
        return allowed(name, use).chain(() -> registry.get(name));
    }

    /** Fails unless the caller may use the queue so. */
    public Uni<Void> allowed(String name, Use use) {
        if (use == Use.WORK && inApp.contains(name)) {
            return Uni.createFrom().failure(new Forbidden("internal_queue",
                    "queue " + name + " is run by the service itself: it takes and gives no jobs over HTTP"));
        }
        if (identity.hasRole(Roles.ADMIN)) {
            return Uni.createFrom().voidItem();
        }
        if (inApp.contains(name) || !identity.hasRole(Roles.WORKER)
                || !(identity.getPrincipal() instanceof JsonWebToken token)) {
            return Uni.createFrom().failure(denied(name));
        }
        return grants.queues(PinionId.parse(token.getSubject())).map(granted -> {
            if (!granted.contains(name)) {
                throw denied(name);
            }
            return null;
        }).replaceWithVoid();
    }

    /** Whether the caller sees the queue in lists (admins all, workers those granted). */
    public Uni<Predicate<String>> visible() {
        if (identity.hasRole(Roles.ADMIN)) {
            return Uni.createFrom().item(name -> true);
        }
        if (!(identity.getPrincipal() instanceof JsonWebToken token)) {
            return Uni.createFrom().item(name -> false);
        }
        return grants.queues(PinionId.parse(token.getSubject()))
                .map(granted -> name -> !inApp.contains(name) && granted.contains(name));
    }

    private static Forbidden denied(String name) {
        return new Forbidden("forbidden", "no grant for queue " + name + ": an admin grants queues to workers by name");
    }
}
