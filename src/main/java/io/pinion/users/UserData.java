package io.pinion.users;

import java.time.Instant;
import java.util.List;

/**
 * What the {@code users} row's JSON blob holds. {@code roles} are the roles an admin (or the operator's
 * {@code bin/admin}) granted, beyond {@code user}; {@code queues} the queues a worker may use over HTTP. Both are
 * null in rows written before they existed, meaning none.
 */
public record UserData(String username, String displayName, String passwordHash, Instant createdAt, boolean active,
        List<String> roles, List<String> queues) {

    public UserData(String username, String displayName, String passwordHash, Instant createdAt, boolean active) {
        this(username, displayName, passwordHash, createdAt, active, List.of(), List.of());
    }

    public List<String> grantedRoles() {
        return roles == null ? List.of() : roles;
    }

    public List<String> grantedQueues() {
        return queues == null ? List.of() : queues;
    }

    UserData withGrants(List<String> newRoles, List<String> newQueues) {
        return new UserData(username, displayName, passwordHash, createdAt, active, newRoles, newQueues);
    }
}
