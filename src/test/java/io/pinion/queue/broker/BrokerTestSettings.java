package io.pinion.queue.broker;

import java.time.Duration;
import java.util.Optional;

import io.pinion.queue.QueueSettings;

/** The service's defaults, with a small buffer and short intervals that the tests name. */
final class BrokerTestSettings implements QueueSettings {

    static final long POLL_MS = 50;
    static final long POLL_MAX_MS = 1_000;
    static final long SWEEP_MS = 250;
    static final long DEMAND_WINDOW_MS = 5_000;

    int bufferCapacity = 10;
    long bufferMaxBytes = 1_000_000;
    int prefetchBatch = 500;

    // @formatter:off
    @Override public int maxBodyBytes() { return 1_000; }
    @Override public boolean brokerEnabled() { return true; }
    @Override public Duration heartbeatInterval() { return Duration.ofSeconds(1); }
    @Override public Duration brokerSessionTimeout() { return Duration.ofSeconds(6); }
    @Override public Optional<String> brokerAddress() { return Optional.empty(); }
    @Override public Duration refreshInterval() { return Duration.ofSeconds(1); }
    @Override public int bufferCapacity() { return bufferCapacity; }
    @Override public long bufferMaxBytes() { return bufferMaxBytes; }
    @Override public long groupCommitMaxBytes() { return 16_777_216; }
    @Override public int prefetchBatch() { return prefetchBatch; }
    @Override public Duration pollInterval() { return Duration.ofMillis(POLL_MS); }
    @Override public Duration pollIntervalMax() { return Duration.ofMillis(POLL_MAX_MS); }
    @Override public Duration leaseMaxTotal() { return Duration.ofDays(7); }
    @Override public Duration sweepInterval() { return Duration.ofMillis(SWEEP_MS); }
    @Override public Duration gcInterval() { return Duration.ofSeconds(30); }
    @Override public Duration statsInterval() { return Duration.ofSeconds(10); }
    @Override public Duration demandWindow() { return Duration.ofMillis(DEMAND_WINDOW_MS); }
    @Override public Duration dispatchInterval() { return Duration.ofSeconds(1); }
    @Override public int groupCommitInFlight() { return 1; }
    @Override public int maxIdBlock() { return 65_536; }
    @Override public Duration maxDequeueWait() { return Duration.ofSeconds(20); }
    // @formatter:on
}
