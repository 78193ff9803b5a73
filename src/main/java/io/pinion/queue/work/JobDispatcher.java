package io.pinion.queue.work;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.pinion.failure.Conflict;
import io.pinion.failure.Outages;
import io.pinion.failure.Unavailable;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.QueueConfig;
import io.pinion.queue.QueueMetrics;
import io.pinion.queue.QueueRegistry;
import io.pinion.queue.QueueSettings;
import io.pinion.queue.RetryPolicy;
import io.pinion.queue.broker.DequeueBroker;
import io.pinion.queue.broker.LocalBroker;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * Runs the in-app {@link JobHandler}s: takes jobs of their queues from the local broker's buffers, at most
 * {@link JobHandler#concurrency()} at a time per queue, whenever jobs arrive and on every scheduler tick, and
 * acks them in batches. A handler that fails or outlives the job's lease fails the attempt.
 */
@ApplicationScoped
public class JobDispatcher {

    private static final Logger LOG = Logger.getLogger(JobDispatcher.class);

    private record Handler(String queue, JobWorker worker, int concurrency, AtomicInteger running) {
    }

    private final Instance<JobWorker> workers;
    private final LocalBroker localBroker;
    private final QueueRegistry registry;
    private final QueueSettings settings;
    private final QueueMetrics metrics;
    private final AckBatcher acks;
    private static final long QUEUE_SET_UP_WAIT_SECONDS = 10;

    private final Map<String, Handler> handlers = new ConcurrentHashMap<>();

    JobDispatcher(@Any Instance<JobWorker> workers, LocalBroker localBroker, QueueRegistry registry,
            QueueSettings settings, QueueMetrics metrics, AckBatcher acks) {
        this.workers = workers;
        this.localBroker = localBroker;
        this.registry = registry;
        this.settings = settings;
        this.metrics = metrics;
        this.acks = acks;
    }

    void start(@Observes @Priority(Interceptor.Priority.LIBRARY_AFTER + 600) StartupEvent event) {
        DequeueBroker broker = localBroker.broker().orElse(null);
        if (broker == null) {
            return;
        }
        List<Instance.Handle<JobWorker>> annotated = new ArrayList<>();
        for (Instance.Handle<JobWorker> handle : workers.handles()) {
            Class<?> type = handle.getBean().getBeanClass();
            if (type.isAnnotationPresent(JobHandler.class)) {
                annotated.add(handle);
            } else {
                LOG.warnf("%s implements JobWorker without @JobHandler; it is not run", type.getName());
            }
        }
        CountDownLatch setUp = new CountDownLatch(annotated.size());
        for (Instance.Handle<JobWorker> handle : annotated) {
            Class<?> type = handle.getBean().getBeanClass();
            JobHandler annotation = type.getAnnotation(JobHandler.class);
            Handler handler = new Handler(annotation.value(), handle.get(), Math.max(1, annotation.concurrency()),
                    new AtomicInteger());
            ensureQueue(annotation).subscribe().with(ignored -> {
                handlers.put(handler.queue(), handler);
                broker.handleInApp(handler.queue());
                LOG.infof("in-app handler %s runs queue %s (concurrency %d)", type.getSimpleName(), handler.queue(),
                        handler.concurrency());
                setUp.countDown();
                drain(handler.queue());
            }, failure -> {
                LOG.errorf("in-app handler %s does not run: queue %s cannot be set up: %s", type.getSimpleName(),
                        handler.queue(), Outages.describe(failure));
                setUp.countDown();
            });
        }
        broker.onJobsAvailable(this::drain);
        awaitSetUp(setUp);
    }

    /**
     * Gives the queues a few seconds to be found or created, so that a healthy start serves with every handler
     * running; a queue whose MySQL host is down does not hold the start up longer.
     */
    private void awaitSetUp(CountDownLatch setUp) {
        try {
            if (!setUp.await(QUEUE_SET_UP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warnf("in-app handlers start once their queues can be set up (a MySQL host is unavailable); "
                        + "running now: %s", handlers.keySet());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The queues whose in-app handler runs here (a handler starts once its queue exists). */
    public Set<String> handledQueues() {
        return Set.copyOf(handlers.keySet());
    }

    @Scheduled(every = "${pinion.queue.dispatch-interval:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void tick() {
        handlers.keySet().forEach(this::drain);
    }

    /** Starts as many jobs of the queue as its concurrency allows. */
    void drain(String queue) {
        Handler handler = handlers.get(queue);
        DequeueBroker broker = localBroker.broker().orElse(null);
        if (handler == null || broker == null) {
            return;
        }
        int free = handler.concurrency() - handler.running().get();
        if (free <= 0) {
            return;
        }
        List<LeasedJob> jobs = broker.take(queue, free);
        handler.running().addAndGet(jobs.size());
        jobs.forEach(job -> run(handler, job));
    }

    private void run(Handler handler, LeasedJob job) {
        long started = System.nanoTime();
        long leaseLeft = Math.max(1, job.leaseExpires() - System.currentTimeMillis());
        Uni.createFrom()
                .deferred(() -> handler.worker().handle(job))
                .ifNoItem()
                .after(java.time.Duration.ofMillis(leaseLeft))
                .failWith(() -> new IllegalStateException("did not finish within its lease"))
                .subscribe()
                .with(ignored -> done(handler, job, started, null), failure -> done(handler, job, started, failure));
    }

    private void done(Handler handler, LeasedJob job, long started, Throwable failure) {
        metrics.handled(handler.queue(), failure == null, System.nanoTime() - started);
        String status = failure == null ? null
                : "attempt " + job.attempt() + ": " + failure.getClass().getSimpleName() + ": " + failure.getMessage();
        acks.add(job, failure == null, status);
        handler.running().decrementAndGet();
        drain(handler.queue());
    }

    /**
     * Finds or creates the handler's queue, and creates any of its partition tables that are missing (a creation
     * cut short). The start does not wait for it: a MySQL host that is down (the control
     * shard's, or one that would hold a partition of a new queue) is retried until it answers, every 2 s at most, and
     * the handler starts then.
     */
    private Uni<Void> ensureQueue(JobHandler annotation) {
        QueueConfig defaults = QueueConfig.defaults(settings.maxBodyBytes());
        QueueConfig config = new QueueConfig(
                annotation.fifo() ? 1 : annotation.partitions(),
                null,
                annotation.maxAttempts(),
                new RetryPolicy(RetryPolicy.EXPONENTIAL, annotation.retryDelayMs(), annotation.retryMaxDelayMs()),
                annotation.leaseMs(),
                defaults.defaultPriority(),
                annotation.fifo(),
                annotation.retentionMs(),
                defaults.maxBodyBytes());
        return Uni.createFrom().deferred(() -> registry.get(annotation.value()))
                .onFailure(failure -> !(failure instanceof Unavailable))
                .recoverWithUni(missing -> registry.create(annotation.value(), config))
                .onFailure(Conflict.class).recoverWithUni(exists -> registry.get(annotation.value()))
                .chain(queue -> registry.ensureTables(queue).onFailure().retry()
                        .withBackOff(java.time.Duration.ofMillis(200), java.time.Duration.ofSeconds(2)).atMost(10))
                .onFailure(Unavailable.class).retry().withBackOff(java.time.Duration.ofMillis(200),
                        java.time.Duration.ofSeconds(2)).indefinitely()
                .replaceWithVoid();
    }
}
