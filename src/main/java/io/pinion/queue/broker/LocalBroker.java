package io.pinion.queue.broker;

import java.util.List;
import java.util.Optional;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.pinion.mysql.ShardSql;
import io.pinion.queue.JobsAcked;
import io.pinion.queue.JobsEnqueued;
import io.pinion.queue.LeasedJob;
import io.pinion.queue.NewJob;
import io.pinion.queue.Queue;
import io.pinion.queue.QueueMetrics;
import io.pinion.queue.QueueRegistry;
import io.pinion.queue.QueueSettings;
import io.pinion.queue.WriteLeases;
import io.pinion.zookeeper.BrokerSeats;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * This instance's dequeue broker, with the instance's id: started after the shard schema is migrated, stopped
 * cleanly at shutdown (its buffered jobs go back to PENDING and its partitions are released at once rather than
 * when ZooKeeper expires its session).
 */
@ApplicationScoped
public class LocalBroker implements WriteLeases {

    private static final Logger LOG = Logger.getLogger(LocalBroker.class);

    private final BrokerContext context;
    private final QueueSettings settings;
    private final String address;
    private final Optional<java.time.Duration> shutdownDelay;
    private volatile DequeueBroker broker;

    LocalBroker(Vertx vertx, ShardSql sql, QueueRegistry registry, BrokerSeats seats, QueueSettings settings,
            QueueMetrics metrics, @ConfigProperty(name = "quarkus.http.host") String host,
            @ConfigProperty(name = "quarkus.http.port") int port,
            @ConfigProperty(name = "quarkus.http.test-port") Optional<Integer> testPort,
            @ConfigProperty(name = "quarkus.profile") String profile,
            @ConfigProperty(name = "quarkus.shutdown.delay") Optional<java.time.Duration> shutdownDelay) {
        this.shutdownDelay = shutdownDelay;
        this.context = new BrokerContext(vertx, sql, registry, seats, settings, metrics);
        this.settings = settings;
        int listening = "test".equals(profile) ? testPort.orElse(port) : port;
        this.address = settings.brokerAddress().orElseGet(() -> reachableHost(host) + ":" + listening);
    }

    /** The host others reach this instance at: the one it listens on, or its host name when it listens on all. */
    private static String reachableHost(String host) {
        if (!"0.0.0.0".equals(host) && !"::".equals(host)) {
            return host;
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return host;
        }
    }

    void start(@Observes @Priority(Interceptor.Priority.LIBRARY_AFTER + 500) StartupEvent event) {
        if (!settings.brokerEnabled()) {
            LOG.info("dequeue broker disabled (pinion.queue.broker-enabled=false)");
            return;
        }
        try {
            context.registry().refresh().await().atMost(java.time.Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            LOG.warnf("queue configuration not loaded yet (%s: %s); the broker retries every heartbeat", e.getMessage(),
                    io.pinion.failure.Outages.describe(e));
        }
        broker = new DequeueBroker(context.seats().instanceId(), address, context);
        broker.start();
        LOG.infof("dequeue broker %s started", broker.id());
    }

    /**
     * Shutdown begins (readiness is down, the load balancer still routes here until it notices): dequeue waits end
     * within half of the shutdown delay, so they answer before the HTTP server stops taking requests.
     */
    void draining(@Observes ShutdownDelayInitiatedEvent event) {
        DequeueBroker running = broker;
        if (running != null) {
            long withinMs = shutdownDelay.map(delay -> delay.toMillis() / 2).orElse(0L);
            LOG.infof("shutting down: dequeue waits end within %d ms", withinMs);
            running.drain(withinMs);
        }
    }

    /** After the HTTP server drained: buffered jobs go back to PENDING, the partitions are released at once. */
    void stop(@Observes ShutdownEvent event) {
        DequeueBroker running = broker;
        if (running != null) {
            running.stop().await().atMost(java.time.Duration.ofSeconds(5));
        }
    }

    /** Keeps the local broker informed of acks made through this instance. */
    void acked(@Observes JobsAcked acked) {
        DequeueBroker running = broker;
        if (running != null) {
            running.acked(acked);
        }
    }

    /** Lets the local broker look at once for jobs enqueued through this instance. */
    void enqueued(@Observes JobsEnqueued enqueued) {
        DequeueBroker running = broker;
        if (running != null) {
            running.enqueued(enqueued);
        }
    }

    /** Room in a partition this instance owns for jobs about to be written leased to its broker, or null. */
    @Override
    public WriteLeases.Reservation reserve(Queue queue, List<NewJob> jobs) {
        DequeueBroker running = broker;
        return running == null || !running.running() ? null : running.reserve(queue, jobs);
    }

    /** What this instance's broker runs on; another broker in the same process (tests) can share it. */
    public BrokerContext context() {
        return context;
    }

    public Optional<DequeueBroker> broker() {
        return Optional.ofNullable(broker);
    }

    /** The addresses of the other instances' brokers assigned partitions of the queue. */
    public List<String> peersFor(String queue) {
        DequeueBroker running = broker;
        return running == null ? List.of() : running.peersFor(queue);
    }

    /** Whether this instance's broker serves partitions of the queue now. */
    public boolean serves(String queue) {
        DequeueBroker running = broker;
        return running != null && running.serves(queue);
    }

    /** Up to {@code max} jobs from the partitions this instance owns, waiting up to {@code waitMs} for some. */
    public Uni<List<LeasedJob>> take(String queue, int max, long waitMs) {
        DequeueBroker running = broker;
        if (running == null) {
            return Uni.createFrom().item(List.of());
        }
        return running.take(queue, max, waitMs);
    }
}
