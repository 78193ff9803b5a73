package io.pinion.users;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Which shard holds a username's lookup row: a stable hash of the name modulo the shard count, so every instance
 * finds it without asking anyone. (The shard count is fixed for the life of a deployment.)
 */
public final class UsernamePlacement {

    private UsernamePlacement() {
    }

    public static int shardOf(String username, int shardCount) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(username.getBytes(StandardCharsets.UTF_8));
            long hash = 0;
            for (int i = 0; i < 8; i++) {
                hash = (hash << 8) | (digest[i] & 0xff);
            }
            return (int) Math.floorMod(hash, (long) shardCount);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
