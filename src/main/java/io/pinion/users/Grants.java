package io.pinion.users;

import java.util.List;

/**
 * What a user was granted: roles beyond {@code user}, and the queues they may use over HTTP as a worker.
 */
public record Grants(List<String> roles, List<String> queues) {

    public static final Grants NONE = new Grants(List.of(), List.of());

    public boolean hasRole(String role) {
        return roles.contains(role);
    }

    public boolean hasQueue(String queue) {
        return queues.contains(queue);
    }
}
