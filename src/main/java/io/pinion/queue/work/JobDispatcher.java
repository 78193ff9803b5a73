package io.pinion.queue.work;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.pinion.failure.Conflict;
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
        for (Instance.Handle<JobWorker> handle : workers.handles()) {
            Class<?> type = handle.getBean().getBeanClass();
            JobHandler annotation = type.getAnnotation(JobHandler.class);
            if (annotation == null) {
                LOG.warnf("%s implements JobWorker without @JobHandler; it is not run", type.getName());
                continue;
            }
            ensureQueue(annotation);
            handlers.put(annotation.value(), new Handler(annotation.value(), handle.get(),
                    Math.max(1, annotation.concurrency()), new AtomicInteger()));
            broker.handleInApp(annotation.value());
            LOG.infof("in-app handler %s runs queue %s (concurrency %d)", type.getSimpleName(), annotation.value(),
                    annotation.concurrency());
        }
        broker.onJobsAvailable(this::drain);
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
        Uni.createFrom().deferred(() -> handler.worker().handle(job))
                .ifNoItem().after(java.time.Duration.ofMillis(leaseLeft))
                .failWith(() -> new IllegalStateException("did not finish within its lease"))
                .subscribe().with(ignored -> done(handler, job, started, null), failure -> done(handler, job, started, failure));
    }

    private void done(Handler handler, LeasedJob job, long started, Throwable failure) {
        metrics.handled(handler.queue(), failure == null, System.nanoTime() - started);
        String status = failure == null ? null
                : "attempt " + job.attempt() + ": " + failure.getClass().getSimpleName() + ": " + failure.getMessage();
        acks.add(job, failure == null, status);
        handler.running().decrementAndGet();
        drain(handler.queue());
    }

    private void ensureQueue(JobHandler annotation) {
        if (registry.cached(annotation.value()).isPresent()) {
            return;
        }
        QueueConfig defaults = QueueConfig.defaults(settings.maxBodyBytes());
        QueueConfig config = new QueueConfig(annotation.fifo() ? 1 : annotation.partitions(), null, annotation.maxAttempts(),
                new RetryPolicy(RetryPolicy.EXPONENTIAL, annotation.retryDelayMs(), annotation.retryMaxDelayMs()),
                annotation.leaseMs(), defaults.defaultPriority(), annotation.fifo(),
                defaults.retentionMs(), defaults.maxBodyBytes());
        // a host that is briefly unavailable at start (a fresh stack's first statements, a breaker still open) is
        // retried: the queue must exist before its handler runs, and the start fails only after 30 s
        registry.get(annotation.value())
                .onFailure(failure -> !(failure instanceof Unavailable))
                .recoverWithUni(missing -> registry.create(annotation.value(), config))
                .onFailure(Conflict.class).recoverWithUni(exists -> registry.get(annotation.value()))
                .onFailure(Unavailable.class).retry().withBackOff(java.time.Duration.ofMillis(200),
                        java.time.Duration.ofSeconds(2)).expireIn(30_000)
                .await().atMost(java.time.Duration.ofSeconds(40));
    }
}
