package io.pinion.queue.api;

import java.time.Instant;

import io.pinion.queue.LeasedJob;

/**
 * A leased job. Ack it with its {@code leaseToken} before {@code leaseExpiresAt}, or extend the lease with a
 * checkpoint. {@code body} is the body as text when it is valid UTF-8, otherwise {@code bodyBase64} carries it.
 */
public record LeaseView(String id, String queue, int priority, String body, String bodyBase64, int attempt,
        int attemptsAllowed, String leaseToken, Instant leaseExpiresAt, Instant enqueuedAt) {

    static LeaseView of(LeasedJob job, LeaseTokens tokens) {
        String text = Bodies.text(job.body());
        return new LeaseView(job.id().toString(), job.queue(), job.priority(), text,
                text == null ? Bodies.base64(job.body()) : null, job.attempt(), job.attemptsAllowed(),
                tokens.issue(job.id(), job.lease()), Instant.ofEpochMilli(job.leaseExpires()),
                Instant.ofEpochMilli(job.createdAt()));
    }
}
