package io.pinion.users;

import java.time.Instant;

/**
 * What the {@code users} row's JSON blob holds.
 */
public record UserData(String username, String displayName, String passwordHash, Instant createdAt, boolean active) {
}
