package io.pinion.queue.api;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

import io.pinion.failure.InvalidInput;
import io.pinion.failure.TooLarge;
import io.pinion.queue.JobSql;
import io.pinion.queue.NewJob;
import io.pinion.queue.Queue;
import io.pinion.queue.QueueConfig;
import io.pinion.queue.RetryPolicy;

/**
 * Turns queue and job requests into validated settings and jobs; every problem is a 400 naming the field (a body
 * over the queue's limit is a 413).
 */
final class QueueInput {

    static final int MAX_PARTITIONS = 64;
    static final int MAX_BATCH = 1_000;
    static final int MAX_DEDUPE_KEY = 191;
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    private static final long MAX_DELAY_MS = 365L * 24 * 3600 * 1000;

    private QueueInput() {
    }

    static String name(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidInput("invalid_queue_name",
                    "name must be 1-64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        return name;
    }

    /** The settings of a new queue: the request over the defaults. */
    static QueueConfig create(QueueRequest request, int defaultMaxBody, int shardCount) {
        boolean fifo = Boolean.TRUE.equals(request.fifo());
        QueueConfig defaults = QueueConfig.defaults(defaultMaxBody);
        int partitions = request.partitions() != null ? request.partitions() : fifo ? 1 : defaults.partitions();
        if (fifo && partitions != 1) {
            throw new InvalidInput("invalid_partitions", "a FIFO queue has exactly 1 partition");
        }
        return merge(new QueueConfig(partitions, defaults.rateLimit(), defaults.maxAttempts(), defaults.retry(),
                defaults.leaseMs(), defaults.defaultPriority(), fifo, defaults.retentionMs(), defaults.maxBodyBytes()),
                request, shardCount, partitions);
    }

    /** The settings after an update: the request over the current settings. */
    static QueueConfig update(Queue queue, QueueRequest request, int shardCount) {
        if (request.name() != null && !request.name().equals(queue.name())) {
            throw new InvalidInput("immutable_field", "a queue cannot be renamed");
        }
        if (request.fifo() != null && request.fifo() != queue.config().fifo()) {
            throw new InvalidInput("immutable_field", "fifo is fixed when the queue is created");
        }
        int partitions = request.partitions() != null ? request.partitions() : queue.config().partitions();
        if (partitions < queue.config().partitions()) {
            throw new InvalidInput(
                    "invalid_partitions",
                    "partitions can only grow (now " + queue.config().partitions() + ")");
        }
        if (queue.config().fifo() && partitions != 1) {
            throw new InvalidInput("invalid_partitions", "a FIFO queue has exactly 1 partition");
        }
        return merge(queue.config(), request, shardCount, partitions);
    }

    private static QueueConfig merge(QueueConfig base, QueueRequest request, int shardCount, int partitions) {
        if (partitions < 1 || partitions > Math.min(MAX_PARTITIONS, shardCount)) {
            throw new InvalidInput("invalid_partitions",
                    "partitions must be between 1 and " + Math.min(MAX_PARTITIONS, shardCount));
        }
        Double rate = Boolean.TRUE.equals(request.unlimited()) ? null
                : request.rateLimit() != null ? request.rateLimit() : base.rateLimit();
        if (rate != null && (rate < 0 || rate.isNaN() || rate > 1_000_000)) {
            throw new InvalidInput("invalid_rate_limit", "rateLimit must be between 0 (paused) and 1,000,000 jobs/s");
        }
        int attempts = request.maxAttempts() != null ? request.maxAttempts() : base.maxAttempts();
        range("maxAttempts", attempts, 1, 10_000);
        long lease = request.leaseMs() != null ? request.leaseMs() : base.leaseMs();
        range("leaseMs", lease, 1_000, 86_400_000);
        int priority = request.defaultPriority() != null ? request.defaultPriority() : base.defaultPriority();
        range("defaultPriority", priority, QueueConfig.MIN_PRIORITY, QueueConfig.MAX_PRIORITY);
        long retention = request.retentionMs() != null ? request.retentionMs() : base.retentionMs();
        range("retentionMs", retention, 0, 10L * 365 * 24 * 3600 * 1000);
        int maxBody = request.maxBodyBytes() != null ? request.maxBodyBytes() : base.maxBodyBytes();
        range("maxBodyBytes", maxBody, 1, 16 * 1024 * 1024 - 1);
        return new QueueConfig(partitions, rate, attempts, retry(base.retry(), request.retry()), lease, priority,
                base.fifo(), retention, maxBody);
    }

    private static RetryPolicy retry(RetryPolicy base, QueueRequest.RetryRequest request) {
        if (request == null) {
            return base;
        }
        String kind = request.kind() != null ? request.kind() : base.kind();
        if (!RetryPolicy.FIXED.equals(kind) && !RetryPolicy.EXPONENTIAL.equals(kind)) {
            throw new InvalidInput("invalid_retry", "retry.kind must be 'fixed' or 'exponential'");
        }
        long delay = request.delayMs() != null ? request.delayMs() : base.delayMs();
        long max = request.maxDelayMs() != null ? request.maxDelayMs() : Math.max(base.maxDelayMs(), delay);
        range("retry.delayMs", delay, 0, MAX_DELAY_MS);
        range("retry.maxDelayMs", max, delay, MAX_DELAY_MS);
        return new RetryPolicy(kind, delay, max);
    }

    /** The jobs of an enqueue request, one or a batch. */
    static List<NewJob> jobs(EnqueueRequest request, QueueConfig config) {
        if (request.jobs() == null) {
            return List.of(job(request, config, "job"));
        }
        if (request.body() != null || request.bodyBase64() != null || request.priority() != null
                || request.runAfter() != null || request.delayMs() != null || request.dedupeKey() != null) {
            throw new InvalidInput("invalid_batch", "a batch carries its jobs in 'jobs' and nothing else");
        }
        if (request.jobs().isEmpty() || request.jobs().size() > MAX_BATCH) {
            throw new InvalidInput("invalid_batch", "a batch has 1 to " + MAX_BATCH + " jobs");
        }
        List<NewJob> jobs = new ArrayList<>(request.jobs().size());
        for (int i = 0; i < request.jobs().size(); i++) {
            EnqueueRequest item = request.jobs().get(i);
            if (item == null || item.jobs() != null) {
                throw new InvalidInput("invalid_batch", "jobs[" + i + "] must be a job, not a batch");
            }
            jobs.add(job(item, config, "jobs[" + i + "]"));
        }
        return jobs;
    }

    private static NewJob job(EnqueueRequest request, QueueConfig config, String field) {
        if (request.body() != null && request.bodyBase64() != null) {
            throw new InvalidInput("invalid_body", field + ": give body or bodyBase64, not both");
        }
        byte[] body;
        if (request.bodyBase64() != null) {
            try {
                body = Base64.getDecoder().decode(request.bodyBase64());
            } catch (IllegalArgumentException e) {
                throw new InvalidInput("invalid_body", field + ".bodyBase64 is not base64");
            }
        } else {
            body = request.body() == null ? new byte[0] : request.body().getBytes(StandardCharsets.UTF_8);
        }
        if (body.length > config.maxBodyBytes()) {
            throw new TooLarge("body_too_large",
                    field + ": body has " + body.length + " bytes; this queue takes at most " + config.maxBodyBytes());
        }
        int priority = request.priority() != null ? request.priority() : config.defaultPriority();
        range(field + ".priority", priority, QueueConfig.MIN_PRIORITY, QueueConfig.MAX_PRIORITY);
        long now = System.currentTimeMillis();
        long runAfter = now;
        if (request.runAfter() != null && request.delayMs() != null) {
            throw new InvalidInput("invalid_schedule", field + ": give runAfter or delayMs, not both");
        }
        if (request.runAfter() != null) {
            try {
                runAfter = Instant.parse(request.runAfter()).toEpochMilli();
            } catch (DateTimeParseException | ArithmeticException e) {
                throw new InvalidInput(
                        "invalid_schedule",
                        field + ".runAfter must be an ISO-8601 instant such as 2026-01-31T10:00:00Z");
            }
            if (runAfter - now > MAX_DELAY_MS) {
                throw new InvalidInput("invalid_schedule", field + ".runAfter is more than a year away");
            }
        } else if (request.delayMs() != null) {
            range(field + ".delayMs", request.delayMs(), 0, MAX_DELAY_MS);
            runAfter = now + request.delayMs();
        }
        String key = request.dedupeKey();
        if (key != null && (key.isEmpty() || key.length() > MAX_DEDUPE_KEY)) {
            throw new InvalidInput(
                    "invalid_dedupe_key", field + ".dedupeKey must have 1 to " + MAX_DEDUPE_KEY + " characters");
        }
        return new NewJob(body, priority, runAfter, key);
    }

    static String status(String status, String field) {
        if (status != null && status.length() > JobSql.MAX_STATUS_CHARS) {
            throw new InvalidInput(
                    "invalid_status", field + " has more than " + JobSql.MAX_STATUS_CHARS + " characters");
        }
        return status;
    }

    static void range(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new InvalidInput(
                    "invalid_"
                            + field.replaceAll(".*\\.", "")
                                    .replaceAll("([A-Z])", "_$1")
                                    .toLowerCase(),
                    field + " must be between " + min + " and " + max);
        }
    }
}
