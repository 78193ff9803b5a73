package io.pinion.health;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.pinion.auth.TokenIssuer;
import io.pinion.failure.Outages;
import io.pinion.id.PinionId;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.MysqlHost;
import io.pinion.topology.MysqlTopology;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.tuples.Tuple3;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.http.HttpClient;
import io.vertx.mutiny.core.http.HttpClientRequest;

/**
 * Warms the instance up before it reports ready: for a bounded time it sends its own HTTP server the reads clients
 * send most (users, boards, board pins, pins, follow checks, followers, and signed in: which of these users and
 * boards do I follow) on ids sampled from the newest rows of a few shards per MySQL host. The JIT compiles the
 * request paths and the token verification, the MySQL and Redis pools open their connections and prepare their
 * statements, and the object cache holds the newest objects, so the first users do not pay for it: without it the
 * first seconds of a load run answered in hundreds of milliseconds.
 *
 * <p>Features add work of their own that no request without side effects reaches ({@link WarmUpTask}: the home
 * feed's preview of a sampled user's first page and older pins, which records no visit and persists nothing; the job
 * queue's enqueue, dequeue and ack on its own warm-up queue, which runs on a stack without users too; a bounded number
 * of rounds of follows, pins, likes, saves and deletes by the warm-up's own two accounts, each ending where it began).
 *
 * <p>Over HTTP only reads with no side effect are sent: no write, no home feed request (a feed read counts as the
 * user's visit).
 * The signed-in reads carry tokens signed here for sampled users, with the {@code user} role only, valid for the
 * warm-up's duration and never handed out. The requests pass the request meters like any request. A backend that is
 * down only makes its requests fail; the warm-up ends on time all the same.
 */
@ApplicationScoped
public class WarmUp {

    private static final Logger LOG = Logger.getLogger(WarmUp.class);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration FAILURE_PAUSE = Duration.ofMillis(50);

    /** A GET of the warm-up, anonymous or as a sampled user. */
    private record Read(String path, boolean signedIn) {
    }

    /** Where the warm-up is. */
    public enum State {
        OFF, RUNNING, DONE
    }

    private final WarmUpConfig config;
    private final ObjectStore objects;
    private final TokenIssuer tokens;
    private final ActiveTopology topology;
    private final Vertx vertx;
    private final MeterRegistry registry;
    private final List<WarmUpTask> tasks;
    private final String host;
    private final int port;
    private static final List<String> OUTCOMES = List.of("ok", "client_error", "server_error", "failed");

    private final AtomicLong sent = new AtomicLong();
    private final Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
    /** The tasks whose failure this warm-up has logged. */
    private final Set<WarmUpTask> failedTasks = ConcurrentHashMap.newKeySet();
    private volatile State state = State.OFF;

    WarmUp(WarmUpConfig config, ObjectStore objects, TokenIssuer tokens, ActiveTopology topology, Vertx vertx,
            MeterRegistry registry, @Any Instance<WarmUpTask> tasks,
            @ConfigProperty(name = "quarkus.http.host") String host,
            @ConfigProperty(name = "quarkus.http.port") int port,
            @ConfigProperty(name = "quarkus.http.test-port") Optional<Integer> testPort,
            @ConfigProperty(name = "quarkus.profile") String profile) {
        this.config = config;
        this.objects = objects;
        this.tokens = tokens;
        this.topology = topology;
        this.vertx = vertx;
        this.registry = registry;
        this.tasks = tasks.stream().toList();
        this.host = "0.0.0.0".equals(host) || "::".equals(host) ? "127.0.0.1" : host;
        this.port = "test".equals(profile) ? testPort.orElse(port) : port;
    }

    /**
     * After every other start-up step; the HTTP server listens once start-up is over, so it begins a moment later.
     * A process without a fixed HTTP port ({@code quarkus.http.port=0}: bin/seed and bin/admin, which run one command
     * and exit) has nothing to warm.
     */
    void onStart(@Observes @Priority(Interceptor.Priority.LIBRARY_AFTER + 1000) StartupEvent start) {
        if (config.enabled() && port > 0) {
            start();
        }
    }

    /** Starts a warm-up unless one runs; readiness is DOWN until it ends. */
    synchronized void start() {
        if (state == State.RUNNING) {
            return;
        }
        state = State.RUNNING;
        sent.set(0);
        failedTasks.clear();
        OUTCOMES.forEach(outcome -> outcomes.put(outcome, new AtomicLong()));
        vertx.setTimer(200, ignored -> run());
    }

    public boolean running() {
        return state == State.RUNNING;
    }

    public State state() {
        return state;
    }

    /** Requests sent so far by the current or last warm-up. */
    public long sent() {
        return sent.get();
    }

    /** Requests of the current or last warm-up by outcome: ok, client_error, server_error, failed. */
    public Map<String, Long> outcomes() {
        Map<String, Long> counts = new LinkedHashMap<>();
        OUTCOMES.forEach(outcome -> counts.put(outcome, outcomes.getOrDefault(outcome, new AtomicLong()).get()));
        return counts;
    }

    private void run() {
        long started = System.nanoTime();
        long deadline = started + config.duration().toNanos();
        HttpClient client = vertx.createHttpClient(new HttpClientOptions()
                .setDefaultHost(host).setDefaultPort(port).setKeepAlive(true).setMaxPoolSize(config.concurrency()));
        boolean userFreeTasks = tasks.stream().anyMatch(task -> !task.perUser());
        sampleUsersBoardsPins()
                .flatMap(sampled -> sampled.getItem1().isEmpty() && sampled.getItem3().isEmpty() && !userFreeTasks
                        ? Uni.createFrom().voidItem()
                        : sign(sampled.getItem1()).flatMap(signed -> send(client,
                                reads(sampled.getItem1(), sampled.getItem2(), sampled.getItem3()), signed,
                                sampled.getItem1(), deadline)))
                .onTermination().call(client::close)
                .subscribe().with(ignored -> finish(started), failure -> {
                    LOG.warnf("warm-up stopped early: %s", Outages.describe(failure));
                    finish(started);
                });
    }

    /** Tokens for the sampled users, round robin; RSA signing is CPU work, so it runs off the event loop. */
    private Uni<List<String>> sign(List<PinionId> users) {
        if (users.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        Duration ttl = config.duration().plusMinutes(1);
        return vertx.executeBlocking(Uni.createFrom().item(() -> {
            List<String> signed = new ArrayList<>(config.tokens());
            for (int i = 0; i < config.tokens(); i++) {
                signed.add(tokens.issue(users.get(i % users.size()), "warm-up", List.of(), ttl));
            }
            return signed;
        }));
    }

    /** The newest users, boards and pins of a few shards of every host. */
    private Uni<Tuple3<List<PinionId>, List<PinionId>, List<PinionId>>> sampleUsersBoardsPins() {
        MysqlTopology mysql = topology.get().mysql();
        List<Integer> shards = new ArrayList<>();
        for (MysqlHost mysqlHost : mysql.hosts()) {
            int[] ofHost = mysql.shardsOf(mysqlHost);
            int count = Math.min(config.shardsPerHost(), ofHost.length);
            for (int i = 0; i < count; i++) {
                shards.add(ofHost[(int) ((long) i * ofHost.length / count)]);
            }
        }
        return Uni.combine().all().unis(sample(ObjectTable.USERS, shards), sample(ObjectTable.BOARDS, shards),
                sample(ObjectTable.PINS, shards)).asTuple();
    }

    private Uni<List<PinionId>> sample(ObjectTable table, List<Integer> shards) {
        return Multi.createFrom().iterable(shards)
                .onItem().transformToUniAndMerge(shard -> objects.newest(table, shard, config.idsPerShard())
                        .onFailure().recoverWithItem(List.of()))
                .collect().asList()
                .map(lists -> lists.stream().flatMap(List::stream).toList());
    }

    private static List<Read> reads(List<PinionId> users, List<PinionId> boards, List<PinionId> pins) {
        List<Read> reads = new ArrayList<>();
        String someUsers = String.join(",", users.stream().limit(100).map(PinionId::toString).toList());
        String someBoards = String.join(",", boards.stream().limit(100).map(PinionId::toString).toList());
        for (int i = 0; i < users.size(); i++) {
            PinionId user = users.get(i);
            PinionId other = users.get((i + 1) % users.size());
            reads.add(new Read("/v1/users/" + user, false));
            reads.add(new Read("/v1/users/" + user + "/boards?limit=25", false));
            reads.add(new Read("/v1/users/" + user + "/followers?limit=25", false));
            reads.add(new Read("/v1/users/" + user + "/following/users/" + other, false));
            reads.add(new Read("/v1/me/following/users?ids=" + someUsers, true));
            if (!boards.isEmpty()) {
                reads.add(new Read("/v1/users/" + user + "/following/boards/" + boards.get(i % boards.size()), false));
                reads.add(new Read("/v1/me/following/boards?ids=" + someBoards, true));
            }
        }
        for (PinionId board : boards) {
            reads.add(new Read("/v1/boards/" + board, false));
            reads.add(new Read("/v1/boards/" + board + "/pins?limit=25", false));
        }
        for (PinionId pin : pins) {
            reads.add(new Read("/v1/pins/" + pin, false));
        }
        Collections.shuffle(reads, new Random(reads.size()));
        return reads;
    }

    private Uni<Void> send(HttpClient client, List<Read> reads, List<String> signed, List<PinionId> users,
            long deadline) {
        AtomicInteger next = new AtomicInteger();
        List<Uni<Void>> loops = new ArrayList<>();
        for (WarmUpTask task : tasks) {
            if (task.perUser() && users.isEmpty()) {
                continue;
            }
            AtomicInteger nextUser = new AtomicInteger();
            for (int i = 0; i < config.taskConcurrency(); i++) {
                loops.add(Multi.createBy().repeating()
                        .uni(() -> {
                            next.incrementAndGet(); // a round counts as a request against the cap
                            return warm(task, task.perUser()
                                    ? users.get(Math.floorMod(nextUser.getAndIncrement(), users.size())) : null);
                        })
                        .whilst(ignored -> System.nanoTime() < deadline && next.get() < config.requests()
                                && !task.done())
                        .collect().last().replaceWithVoid());
            }
        }
        for (int i = 0; i < config.concurrency() && !reads.isEmpty(); i++) {
            loops.add(Multi.createBy()
                    .repeating()
                    .uni(() -> {
                        int n = next.getAndIncrement();
                        Read read = reads.get(Math.floorMod(n, reads.size()));
                        // a signed-in read without a token (no user sampled) is sent anonymously and counted a 401
                        String token = read.signedIn() && !signed.isEmpty()
                                ? signed.get(Math.floorMod(n, signed.size()))
                                : null;
                        return get(client, read.path(), token);
                    })
                    .whilst(ignored -> System.nanoTime() < deadline && next.get() < config.requests())
                    .collect()
                    .last()
                    .replaceWithVoid());
        }
        return Uni.join().all(loops).andCollectFailures().replaceWithVoid();
    }

    /** One GET; emits the outcome it was counted as. */
    private Uni<String> get(HttpClient client, String path, String token) {
        return client.request(HttpMethod.GET, path)
                .invoke(request -> {
                    if (token != null) {
                        request.putHeader("Authorization", "Bearer " + token);
                    }
                })
                .flatMap(HttpClientRequest::send)
                .flatMap(response -> response.body().replaceWith(response.statusCode()))
                .ifNoItem().after(REQUEST_TIMEOUT).fail()
                .map(WarmUp::outcome)
                .onFailure().recoverWithItem("failed")
                .invoke(outcome -> {
                    sent.incrementAndGet();
                    outcomes.get(outcome).incrementAndGet();
                    registry.counter("pinion.warmup.requests", "outcome", outcome).increment();
                })
                // a server or backend that fails answers at once: do not spin on it
                .call(outcome -> "ok".equals(outcome) || "client_error".equals(outcome) ? Uni.createFrom().voidItem()
                        : Uni.createFrom().voidItem().onItem().delayIt().by(FAILURE_PAUSE));
    }

    /** One read of a task, counted like a request: ok, or failed (then a pause, as for a failed request). */
    private Uni<String> warm(WarmUpTask task, PinionId user) {
        return task.warm(user)
                .ifNoItem().after(REQUEST_TIMEOUT).fail()
                .map(ignored -> "ok")
                .onFailure().invoke(failure -> {
                    if (failedTasks.add(task)) { // the first failure of each task, once per warm-up
                        LOG.warnf("warm-up task %s failed a round (later failures are only counted): %s",
                                task.getClass().getSimpleName().replace("_ClientProxy", ""), Outages.describe(failure));
                    }
                })
                .onFailure().recoverWithItem("failed")
                .invoke(outcome -> {
                    sent.incrementAndGet();
                    outcomes.get(outcome).incrementAndGet();
                    registry.counter("pinion.warmup.requests", "outcome", outcome).increment();
                })
                .call(outcome -> "ok".equals(outcome) ? Uni.createFrom().voidItem()
                        : Uni.createFrom().voidItem().onItem().delayIt().by(FAILURE_PAUSE));
    }

    private static String outcome(int status) {
        return status < 400 ? "ok" : status < 500 ? "client_error" : "server_error";
    }

    private void finish(long started) {
        state = State.DONE;
        LOG.infof("warm-up: %d requests in %d ms %s; ready", sent.get(), (System.nanoTime() - started) / 1_000_000,
                outcomes());
    }
}
