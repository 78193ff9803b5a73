package io.pinion.redis;

/**
 * Sentinel moved an instance's master: it failed over to a replica (or was told to).
 *
 * @param instance the instance (Sentinel's master name)
 * @param from     the master's address before, {@code host:port}
 * @param to       the master's address now
 * @param seenAtMs when this instance saw the change (epoch ms)
 */
public record RedisMasterChanged(String instance, String from, String to, long seenAtMs) {
}
