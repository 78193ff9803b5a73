package io.pinion.queue.api;

import java.time.Instant;

import io.pinion.queue.Job;
import io.pinion.queue.JobState;

/** A job as stored. {@code body} is text when valid UTF-8, otherwise {@code bodyBase64} carries it. */
public record JobView(String id, String queue, int partition, JobState state, int priority, String body,
        String bodyBase64, int attemptsMade, int attemptsAllowed, Instant runAfter, String leaseOwner,
        Instant leaseExpiresAt, Instant createdAt, Instant updatedAt, String status, String dedupeKey) {

    static JobView of(Job job) {
        String text = Bodies.text(job.body());
        return new JobView(
                job.id().toString(),
                job.queue(),
                job.partition(),
                job.state(),
                job.priority(),
                text,
                text == null ? Bodies.base64(job.body()) : null,
                job.attemptsMade(),
                job.attemptsAllowed(),
                Instant.ofEpochMilli(job.runAfter()),
                job.leaseOwner(),
                job.leaseExpires() == null ? null : Instant.ofEpochMilli(job.leaseExpires()),
                Instant.ofEpochMilli(job.createdAt()),
                Instant.ofEpochMilli(job.updatedAt()),
                job.status(),
                job.dedupeKey());
    }
}
