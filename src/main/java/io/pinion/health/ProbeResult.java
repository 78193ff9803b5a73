package io.pinion.health;

/**
 * The outcome of one {@link BackendProbe}.
 *
 * @param probe     what was probed
 * @param up        whether it answered in time
 * @param latencyMs how long the probe took
 * @param detail    what the backend said, or why it is down
 */
public record ProbeResult(BackendProbe probe, boolean up, long latencyMs, String detail) {
}
