package io.pinion.queue;

import io.pinion.id.PinionId;

/**
 * What became of one ack.
 *
 * @param result {@code acked}; {@code lease_lost} when the job is no longer leased under that token (expired and
 *               given to another worker, or already acked); {@code not_found}
 */
public record AckResult(PinionId id, String result) {

    public static final String ACKED = "acked";
    public static final String LEASE_LOST = "lease_lost";
    public static final String NOT_FOUND = "not_found";
}
