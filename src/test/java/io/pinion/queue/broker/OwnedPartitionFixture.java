package io.pinion.queue.broker;

import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.Queue;
import io.pinion.queue.QueueConfig;
import io.pinion.queue.QueueMetricsForTests;
import io.pinion.queue.QueuePartition;
import io.pinion.queue.RetryPolicy;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * An owned partition of queue {@code q} on an in-memory table ({@link FakePartitionTable}), a virtual clock and a
 * virtual event loop ({@link VirtualLoop}), with the settings of {@link BrokerTestSettings} (buffer of 10 jobs) and
 * leases of {@value #LEASE_MS} ms. It counts how often it tells the broker that jobs arrived.
 */
abstract class OwnedPartitionFixture {

    static final long LEASE_MS = 10_000;

    final VirtualLoop loop = new VirtualLoop();
    final QueuePartition row = new QueuePartition(1, 0, 1);
    final FakePartitionTable table = new FakePartitionTable(loop, row);
    final BrokerTestSettings settings = new BrokerTestSettings();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    int jobsArrived;
    boolean serving = true;
    long queueDemand;

    /** Opens the partition with the settings as the test left them. */
    OwnedPartition open(boolean fifo) {
        BrokerContext context = new BrokerContext(null, null, null, null, settings,
                QueueMetricsForTests.on(registry));
        return new OwnedPartition(context, new PartitionRuntime(table, loop, loop), FakePartitionTable.BROKER, row,
                queue(fifo), () -> jobsArrived++, () -> queueDemand, () -> serving);
    }

    /** Opens a partition of a queue handled in this process: it always wants jobs. */
    OwnedPartition openInApp(boolean fifo) {
        OwnedPartition partition = open(fifo);
        partition.update(queue(fifo), true);
        return partition;
    }

    Queue queue(boolean fifo) {
        QueueConfig config = new QueueConfig(1, null, 5, RetryPolicy.defaults(), LEASE_MS, 2, fifo,
                QueueConfig.DEFAULT_RETENTION_MS, 1_000);
        return new Queue(1, "q", config, 1, 0, 0, List.of(row));
    }

    long now() {
        return loop.now();
    }

    static List<Long> ids(List<LeasedJob> jobs) {
        return jobs.stream().map(job -> job.id().value()).toList();
    }

    static void await(Uni<Void> work) {
        work.subscribe().withSubscriber(UniAssertSubscriber.create()).assertCompleted();
    }

    /** The gaps between the given times. */
    static List<Long> gaps(List<Long> times) {
        return java.util.stream.IntStream.range(1, times.size()).mapToObj(i -> times.get(i) - times.get(i - 1))
                .toList();
    }
}
