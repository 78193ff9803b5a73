import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load driver for the job-queue HTTP API of a running Pinion (see bench/app.sh; the app must list the user in
 * granted admin and worker with {@code bench/admin-account.sh}).
 *
 * <pre>
 * java bench/QueueLoad.java &lt;scenario&gt; [--base URL] [--jobs N] [--batch N] [--concurrency N] [--partitions N]
 *     [--user NAME] [--password PW] [--wait-ms MS] [--sync]
 * </pre>
 *
 * Scenarios (after PinLater's published measurement: 100k jobs with ~15-byte bodies):
 * <ul>
 * <li>{@code enqueue-single}: --jobs jobs, one per POST, --concurrency (default 5) requests in flight;</li>
 * <li>{@code enqueue-batch}: --jobs jobs in POSTs of --batch (default 10), --concurrency (default 10);</li>
 * <li>{@code dequeue-ack}: preload --jobs jobs in batches of 1000 (not measured), wait until the queue's stats show
 *     them all PENDING (and its partitions owned by a broker), then --concurrency (default 10) loops of
 *     dequeue(max = --batch (default 100), waitMs = --wait-ms (1000)) + one ack call for what it returned, until
 *     --jobs acks came back "acked"; measured from the first dequeue to the last ack. Latencies of dequeues that
 *     return after the last ack (idle loops waiting out waitMs) are left out. Gives up after 120 s without an ack.</li>
 * </ul>
 * Each run signs up (409 ignored) and logs in --user (default $BENCH_USER or bench_admin, password $BENCH_PASSWORD or
 * bench-admin-password), creates a fresh queue {@code bench-<scenario>-<utc time>} with --partitions (default 8)
 * partitions and leaseMs 60000, and deletes it at the end. Prints one machine-readable line
 * <pre>
 * RESULT scenario=enqueue-batch queue=... jobs=100000 expected=100000 seconds=12.3 jobs_per_s=8130 req_per_s=813
 *     p50_ms=1.10 p99_ms=4.20 errors=0 requests=10000 ... driver_cpu_s=3.1 check=ok
 * </pre>
 * with latency percentiles per HTTP request; errors = non-2xx answers and exceptions (the first of each kind is
 * printed with its body). After the run the queue's stats are checked (check=ok: PENDING = jobs after an enqueue
 * scenario, SUCCEEDED = jobs and nothing PENDING or RUNNING after dequeue-ack). Exits 1 when errors &gt; 0, fewer
 * jobs than expected were processed, or the check fails. With --sync (used by bench/run-queue.sh) the driver prints
 * {@code SYNC start} / {@code SYNC end} right before / after the measured window and waits (at most 10 s) for a line
 * on stdin each time, so the caller can sample CPU counters exactly around the measurement.
 */
public class QueueLoad {

    static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern ITEM_ID = Pattern.compile("[{,]\\s*\"id\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern LEASE_TOKEN = Pattern.compile("\"leaseToken\"\\s*:\\s*\"([^\"]*)\"");
    static final Pattern RESULT = Pattern.compile("\"result\"\\s*:\\s*\"([^\"]*)\"");
    static final Pattern PARTITIONS = Pattern.compile("\"partitions\"\\s*:\\s*\\[[^\\]]*\\]");
    static final Pattern PARTITION = Pattern.compile("\"partition\"\\s*:");
    static final Pattern OWNED = Pattern.compile("\"owner\"\\s*:\\s*\"");
    static final Pattern UNAVAILABLE = Pattern.compile("\"available\"\\s*:\\s*false");
    static final String[] STATES = {"PENDING", "RUNNING", "SUCCEEDED", "FAILED"};
    static final Set<String> SCENARIOS = Set.of("enqueue-single", "enqueue-batch", "dequeue-ack");
    static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(120);
    static final String USAGE = """
            usage: java bench/QueueLoad.java <scenario> [options]
              scenarios: enqueue-single | enqueue-batch | dequeue-ack
              --base URL         Pinion base URL (default http://127.0.0.1:18090)
              --jobs N           jobs to enqueue / dequeue and ack (default 100000)
              --batch N          jobs per enqueue (enqueue-batch, default 10) or dequeue max (dequeue-ack, default 100)
              --concurrency N    requests / loops in flight (enqueue-single 5, others 10)
              --partitions N     partitions of the bench queue (default 8)
              --user NAME        admin + worker user (default $BENCH_USER or bench_admin)
              --password PW      its password (default $BENCH_PASSWORD or bench-admin-password)
              --wait-ms MS       dequeue waitMs (default 1000)
              --sync             print SYNC start/end around the measured window and wait for a stdin line each time
            """;

    // options
    String scenario;
    String base = "http://127.0.0.1:18090";
    int jobs = 100_000;
    int batch = -1;
    int concurrency = -1;
    int partitions = 8;
    String user = envOr("BENCH_USER", "bench_admin");
    String password = envOr("BENCH_PASSWORD", "bench-admin-password");
    long waitMs = 1000;
    boolean sync;

    HttpClient http;
    ExecutorService pool;
    ScheduledExecutorService ticker;
    String bearer;
    String queue;
    BufferedReader stdin;

    // errors of the current phase; the first of each kind is printed
    final Set<String> reported = ConcurrentHashMap.newKeySet();

    // progress of the current phase, printed every 5 s
    volatile String phase = "";
    volatile long phaseTotal;
    final AtomicLong phaseDone = new AtomicLong();
    volatile AtomicLong phaseErrors = new AtomicLong();
    volatile long lastDone;

    public static void main(String[] args) {
        QueueLoad load = new QueueLoad();
        try {
            load.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
        }
        int rc;
        try {
            rc = load.run();
        } catch (Exception e) {
            System.err.println("FATAL " + e);
            rc = 1;
        }
        System.out.flush();
        System.exit(rc);
    }

    void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                System.out.print(USAGE);
                System.exit(0);
            }
            if (a.equals("--sync")) {
                sync = true;
                continue;
            }
            if (!a.startsWith("--")) {
                if (scenario != null) {
                    throw new IllegalArgumentException("more than one scenario: " + scenario + ", " + a);
                }
                scenario = a;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + a);
            }
            String v = args[++i];
            switch (a) {
                case "--base" -> base = v.replaceAll("/+$", "");
                case "--jobs" -> jobs = Integer.parseInt(v);
                case "--batch" -> batch = Integer.parseInt(v);
                case "--concurrency" -> concurrency = Integer.parseInt(v);
                case "--partitions" -> partitions = Integer.parseInt(v);
                case "--user" -> user = v;
                case "--password" -> password = v;
                case "--wait-ms" -> waitMs = Long.parseLong(v);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (scenario == null || !SCENARIOS.contains(scenario)) {
            throw new IllegalArgumentException(scenario == null ? "no scenario" : "unknown scenario " + scenario);
        }
        if (batch < 0) {
            batch = scenario.equals("dequeue-ack") ? 100 : scenario.equals("enqueue-batch") ? 10 : 1;
        }
        if (concurrency < 0) {
            concurrency = scenario.equals("enqueue-single") ? 5 : 10;
        }
        if (jobs < 1 || concurrency < 1 || batch < 1 || batch > 1000 || partitions < 1) {
            throw new IllegalArgumentException("need --jobs >= 1, --concurrency >= 1, 1 <= --batch <= 1000, --partitions >= 1");
        }
    }

    int run() throws Exception {
        pool = Executors.newFixedThreadPool(4, daemon("http"));
        http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .executor(pool)
                .build();
        ticker = Executors.newSingleThreadScheduledExecutor(daemon("progress"));
        ticker.scheduleAtFixedRate(this::progress, 5, 5, TimeUnit.SECONDS);
        if (sync) {
            stdin = new BufferedReader(new InputStreamReader(System.in));
        }
        login();
        queue = "bench-" + scenario + "-"
                + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
        HttpResponse<String> created = call("POST", "/v1/queues", "{\"name\":\"" + queue + "\",\"partitions\":"
                + partitions + ",\"leaseMs\":60000}");
        if (created.statusCode() != 201) {
            throw new IllegalStateException("create queue " + queue + " -> " + created.statusCode() + " " + created.body()
                    + (created.statusCode() == 403 ? " (grant " + user + " the admin role: bench/admin-account.sh)" : ""));
        }
        System.out.printf(Locale.ROOT, "queue %s: %d partitions; %s, jobs %d, batch %d, concurrency %d, base %s%n",
                queue, partitions, scenario, jobs, batch, concurrency, base);
        try {
            return scenario.equals("dequeue-ack") ? dequeueAck() : enqueue(scenario.equals("enqueue-batch"));
        } finally {
            ticker.shutdownNow();
            try {
                HttpResponse<String> deleted = call("DELETE", "/v1/queues/" + queue, null);
                if (deleted.statusCode() != 204) {
                    System.err.println("WARN delete queue " + queue + " -> " + deleted.statusCode() + " " + cut(deleted.body()));
                }
            } catch (IOException e) {
                System.err.println("WARN delete queue " + queue + ": " + e);
            }
        }
    }

    void login() throws IOException, InterruptedException {
        HttpResponse<String> signUp = call("POST", "/v1/users", "{\"username\":\"" + esc(user) + "\",\"password\":\""
                + esc(password) + "\",\"displayName\":\"Queue benchmark\"}");
        if (signUp.statusCode() != 201 && signUp.statusCode() != 409) {
            throw new IllegalStateException("sign-up " + user + " -> " + signUp.statusCode() + " " + cut(signUp.body()));
        }
        HttpResponse<String> session = call("POST", "/v1/sessions", "{\"username\":\"" + esc(user) + "\",\"password\":\""
                + esc(password) + "\"}");
        Matcher m = TOKEN.matcher(session.body());
        if (session.statusCode() != 200 || !m.find()) {
            throw new IllegalStateException("login " + user + " -> " + session.statusCode() + " " + cut(session.body()));
        }
        bearer = "Bearer " + m.group(1);
    }

    // ---- enqueue-single, enqueue-batch

    int enqueue(boolean batched) throws Exception {
        int size = batched ? batch : 1;
        Recorder latencies = new Recorder(requestsFor(jobs, size));
        AtomicLong errors = new AtomicLong();
        AtomicLong enqueued = new AtomicLong();
        startPhase(scenario, jobs, errors);
        sync("start");
        long cpu0 = cpuNanos();
        long t0 = System.nanoTime();
        enqueueAll(size, batched, 0, latencies, errors, enqueued);
        long t1 = System.nanoTime();
        long cpu1 = cpuNanos();
        sync("end");
        long[] stats = stats();
        boolean ok = stats[0] == enqueued.get() && stats[0] == jobs && stats[6] == 0;
        String check = ok ? "ok" : String.format(Locale.ROOT, "PENDING=%d,RUNNING=%d,unavailable=%d", stats[0],
                stats[1], stats[6]);
        double secs = (t1 - t0) / 1e9;
        long[] sorted = latencies.sorted();
        long requests = latencies.count() + latencies.failures.get();
        System.out.printf(Locale.ROOT, "RESULT scenario=%s queue=%s jobs=%d expected=%d seconds=%.3f jobs_per_s=%.0f"
                        + " req_per_s=%.0f p50_ms=%.2f p99_ms=%.2f errors=%d requests=%d batch=%d concurrency=%d"
                        + " partitions=%d max_ms=%.2f driver_cpu_s=%.2f check=%s%n",
                scenario, queue, enqueued.get(), jobs, secs, enqueued.get() / secs, requests / secs,
                pct(sorted, 0.50), pct(sorted, 0.99), errors.get(), requests, size, concurrency, partitions,
                pct(sorted, 1.0), (cpu1 - cpu0) / 1e9, check);
        return errors.get() == 0 && enqueued.get() == jobs && ok ? 0 : 1;
    }

    /** How often a preload batch is sent in all before its failure counts (its outcome unknown when it timed out). */
    static final int PRELOAD_ATTEMPTS = 5;
    final AtomicLong preloadRetries = new AtomicLong();

    /**
     * Enqueues `jobs` jobs, `size` per request (in a 'jobs' batch when batched), with `concurrency` in flight. With
     * `attempts` > 1 (the preload, not measured) a request that fails is sent again a second later, up to that many
     * times in all: a busy service answers 503 with Retry-After, and a request that timed out may have been stored
     * all the same, so the preload may store more jobs than asked (waitUntilReady takes the stored count).
     */
    void enqueueAll(int size, boolean batched, int attempts, Recorder latencies, AtomicLong errors,
            AtomicLong enqueued) throws InterruptedException {
        URI uri = URI.create(base + "/v1/queues/" + queue + "/jobs");
        Semaphore inFlight = new Semaphore(concurrency);
        for (int first = 0; first < jobs; first += size) {
            int n = Math.min(size, jobs - first);
            StringBuilder sb = new StringBuilder(16 + n * 30);
            if (batched) {
                sb.append("{\"jobs\":[");
                for (int i = 0; i < n; i++) {
                    sb.append(i == 0 ? "{\"body\":\"" : ",{\"body\":\"");
                    body(sb, first + i).append("\"}");
                }
                sb.append("]}");
            } else {
                body(sb.append("{\"body\":\""), first).append("\"}");
            }
            inFlight.acquire();
            sendRetrying(post(uri, sb.toString(), 30_000), attempts, latencies, errors).whenComplete((resp, error) -> {
                try {
                    if (resp != null) {
                        int ids = batched ? count(ITEM_ID, resp) : 1;
                        enqueued.addAndGet(ids);
                        phaseDone.addAndGet(ids);
                    }
                } finally {
                    inFlight.release();
                }
            });
        }
        inFlight.acquire(concurrency); // wait for the tail
        inFlight.release(concurrency);
    }

    // ---- dequeue-ack

    final AtomicLong acked = new AtomicLong();
    final AtomicLong dequeued = new AtomicLong();
    final AtomicLong emptyDequeues = new AtomicLong();
    final AtomicLong notAcked = new AtomicLong();
    final AtomicLong lastAckNanos = new AtomicLong();
    final AtomicLong firstItemNanos = new AtomicLong();
    final AtomicBoolean stop = new AtomicBoolean();
    volatile long lastProgressNanos;

    int dequeueAck() throws Exception {
        // preload, not measured
        Recorder preloadLatencies = new Recorder(requestsFor(jobs, 1000));
        AtomicLong preloadErrors = new AtomicLong();
        AtomicLong preloaded = new AtomicLong();
        startPhase("preload", jobs, preloadErrors);
        long p0 = System.nanoTime();
        enqueueAll(1000, true, PRELOAD_ATTEMPTS, preloadLatencies, preloadErrors, preloaded);
        System.out.printf(Locale.ROOT, "preload: %d jobs in %.1f s, %d errors, %d batches sent again%n",
                preloaded.get(), (System.nanoTime() - p0) / 1e9, preloadErrors.get(), preloadRetries.get());
        if (preloadErrors.get() > 0 || preloaded.get() != jobs) {
            System.err.println("ERROR preload enqueued " + preloaded.get() + " of " + jobs + " jobs");
            return 1;
        }
        if (!waitUntilReady(preloadRetries.get() > 0)) {
            return 1;
        }

        URI dequeueUri = URI.create(base + "/v1/queues/" + queue + "/dequeue");
        URI ackUri = URI.create(base + "/v1/jobs/ack");
        String dequeueBody = "{\"max\":" + batch + ",\"waitMs\":" + waitMs + "}";
        int expectedCalls = 2 * requestsFor(jobs, batch) + 1000;
        Recorder dequeueLatencies = new Recorder(expectedCalls);
        Recorder ackLatencies = new Recorder(expectedCalls / 2);
        AtomicLong errors = new AtomicLong();
        CountDownLatch finished = new CountDownLatch(concurrency);
        startPhase(scenario, jobs, errors);
        sync("start");
        long cpu0 = cpuNanos();
        long t0 = System.nanoTime();
        lastProgressNanos = t0;
        for (int i = 0; i < concurrency; i++) {
            step(dequeueUri, dequeueBody, ackUri, dequeueLatencies, ackLatencies, errors, finished);
        }
        // wait for the last ack (or a stall), end the measured window, then let the loops end (idle dequeues)
        long stoppedAt = 0;
        while (acked.get() < jobs && finished.getCount() > 0) {
            finished.await(20, TimeUnit.MILLISECONDS);
            long now = System.nanoTime();
            if (!stop.get() && now - lastProgressNanos > STALL_NANOS) {
                System.err.printf(Locale.ROOT, "ERROR no ack for %d s: giving up at %d of %d acked%n",
                        STALL_NANOS / 1_000_000_000L, acked.get(), jobs);
                stop.set(true);
            }
            if (stop.get() && stoppedAt == 0) {
                stoppedAt = now;
            } else if (stoppedAt != 0 && now - stoppedAt > TimeUnit.MILLISECONDS.toNanos(waitMs + 60_000)) {
                break; // loops that never ended: reported below
            }
        }
        long t1 = lastAckNanos.get() != 0 ? lastAckNanos.get() : System.nanoTime();
        long cpu1 = cpuNanos();
        sync("end");
        if (!finished.await(waitMs + 60_000, TimeUnit.MILLISECONDS)) {
            System.err.println("WARN " + finished.getCount() + " loops did not end; going on without them");
        }
        long[] stats = stats();
        boolean ok = stats[2] == jobs && stats[0] == 0 && stats[1] == 0 && stats[6] == 0;
        String check = ok ? "ok" : String.format(Locale.ROOT, "PENDING=%d,RUNNING=%d,SUCCEEDED=%d,FAILED=%d,unavailable=%d",
                stats[0], stats[1], stats[2], stats[3], stats[6]);
        double secs = (t1 - t0) / 1e9;
        long[] deq = dequeueLatencies.sorted();
        long[] ack = ackLatencies.sorted();
        long[] all = new long[deq.length + ack.length];
        System.arraycopy(deq, 0, all, 0, deq.length);
        System.arraycopy(ack, 0, all, deq.length, ack.length);
        Arrays.sort(all);
        long requests = all.length + dequeueLatencies.failures.get() + ackLatencies.failures.get();
        System.out.printf(Locale.ROOT, "RESULT scenario=%s queue=%s jobs=%d expected=%d seconds=%.3f jobs_per_s=%.0f"
                        + " req_per_s=%.0f p50_ms=%.2f p99_ms=%.2f errors=%d requests=%d batch=%d concurrency=%d"
                        + " partitions=%d max_ms=%.2f dequeue_p50_ms=%.2f dequeue_p99_ms=%.2f ack_p50_ms=%.2f"
                        + " ack_p99_ms=%.2f dequeued=%d empty_dequeues=%d not_acked=%d first_item_ms=%.1f"
                        + " driver_cpu_s=%.2f check=%s%n",
                scenario, queue, acked.get(), jobs, secs, acked.get() / secs, requests / secs, pct(all, 0.50),
                pct(all, 0.99), errors.get(), requests, batch, concurrency, partitions, pct(all, 1.0),
                pct(deq, 0.50), pct(deq, 0.99), pct(ack, 0.50), pct(ack, 0.99), dequeued.get(), emptyDequeues.get(),
                notAcked.get(), firstItemNanos.get() == 0 ? Double.NaN : (firstItemNanos.get() - t0) / 1e6,
                (cpu1 - cpu0) / 1e9, check);
        return errors.get() == 0 && acked.get() >= jobs && ok ? 0 : 1;
    }

    /** A request sent up to `attempts` times (once when 0), a second apart; failures of earlier tries not counted. */
    CompletableFuture<String> sendRetrying(HttpRequest request, int attempts, Recorder latencies, AtomicLong errors) {
        if (attempts <= 1) {
            return send(request, "enqueue", latencies, errors);
        }
        return send(request, "enqueue (will be sent again)", latencies, new AtomicLong()).thenCompose(body -> {
            if (body != null) {
                return CompletableFuture.completedFuture(body);
            }
            preloadRetries.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> request, CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS,
                    pool)).thenCompose(again -> sendRetrying(again, attempts - 1, latencies, errors));
        });
    }

    /**
     * Waits (up to 120 s) until the stats show the preloaded jobs PENDING, and (up to 30 s more) every partition
     * owned. After a preload that sent batches again (`resent`), the stored count may be higher: it is taken once it
     * holds still for 2 s.
     */
    boolean waitUntilReady(boolean resent) throws Exception {
        long start = System.nanoTime();
        long[] stats = stats();
        while (stats[0] != jobs && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(120)) {
            if (resent && stats[0] > jobs) {
                Thread.sleep(2000);
                long[] again = stats();
                if (again[0] == stats[0]) {
                    System.out.printf(Locale.ROOT, "preload: %d jobs stored (%d more than asked, by batches that timed"
                            + " out and were sent again): measuring them all%n", again[0], again[0] - jobs);
                    jobs = (int) again[0];
                }
                stats = again;
                continue;
            }
            Thread.sleep(250);
            stats = stats();
        }
        if (stats[0] != jobs) {
            System.err.printf(Locale.ROOT, "ERROR stats show PENDING=%d RUNNING=%d (unavailable partitions %d), expected %d%n",
                    stats[0], stats[1], stats[6], jobs);
            return false;
        }
        long owned = System.nanoTime();
        while (stats[5] < stats[4] && System.nanoTime() - owned < TimeUnit.SECONDS.toNanos(30)) {
            Thread.sleep(250);
            stats = stats();
        }
        if (stats[5] < stats[4]) {
            System.err.printf(Locale.ROOT, "WARN only %d of %d partitions have an owner; measuring anyway%n", stats[5], stats[4]);
        }
        System.out.printf(Locale.ROOT, "ready: PENDING=%d, %d/%d partitions owned, after %.1f s%n", stats[0], stats[5],
                stats[4], (System.nanoTime() - start) / 1e9);
        return true;
    }

    /** One loop iteration: dequeue, ack what came back, repeat until every job is acked (or stop). */
    void step(URI dequeueUri, String dequeueBody, URI ackUri, Recorder dequeueLatencies, Recorder ackLatencies,
            AtomicLong errors, CountDownLatch finished) {
        if (stop.get() || acked.get() >= jobs) {
            finished.countDown();
            return;
        }
        Runnable next = () -> step(dequeueUri, dequeueBody, ackUri, dequeueLatencies, ackLatencies, errors, finished);
        send(post(dequeueUri, dequeueBody, waitMs + 30_000), "dequeue", dequeueLatencies, errors)
                .whenComplete((body, failure) -> guarded(finished, errors, failure, () -> {
                    if (body == null) {
                        later(next);
                        return;
                    }
                    List<String> ids = all(ITEM_ID, body);
                    List<String> tokens = all(LEASE_TOKEN, body);
                    if (ids.size() != tokens.size()) {
                        throw new IllegalStateException(ids.size() + " ids but " + tokens.size() + " lease tokens in " + cut(body));
                    }
                    if (ids.isEmpty()) {
                        if (!dequeueLatencies.closed) {
                            emptyDequeues.incrementAndGet();
                        }
                        next.run();
                        return;
                    }
                    firstItemNanos.compareAndSet(0, System.nanoTime());
                    dequeued.addAndGet(ids.size());
                    StringBuilder sb = new StringBuilder(16 + ids.size() * 64).append("{\"acks\":[");
                    for (int i = 0; i < ids.size(); i++) {
                        sb.append(i == 0 ? "{\"id\":\"" : ",{\"id\":\"").append(ids.get(i)).append("\",\"leaseToken\":\"")
                                .append(tokens.get(i)).append("\",\"outcome\":\"success\"}");
                    }
                    sb.append("]}");
                    send(post(ackUri, sb.toString(), 30_000), "ack", ackLatencies, errors)
                            .whenComplete((answer, ackFailure) -> guarded(finished, errors, ackFailure, () -> {
                                if (answer == null) {
                                    later(next);
                                    return;
                                }
                                int results = 0;
                                int ok = 0;
                                Matcher m = RESULT.matcher(answer);
                                while (m.find()) {
                                    results++;
                                    if (m.group(1).equals("acked")) {
                                        ok++;
                                    }
                                }
                                if (results != ids.size()) {
                                    throw new IllegalStateException(results + " ack results for " + ids.size() + " acks: " + cut(answer));
                                }
                                notAcked.addAndGet(results - ok);
                                long now = System.nanoTime();
                                lastProgressNanos = now;
                                phaseDone.addAndGet(ok);
                                if (acked.addAndGet(ok) >= jobs) {
                                    // from here on, dequeues only wait out waitMs: keep them out of the latencies
                                    dequeueLatencies.closed = true;
                                }
                                if (ok > 0) {
                                    lastAckNanos.accumulateAndGet(now, Math::max);
                                }
                                next.run();
                            }));
                }));
    }

    /** Runs the step; an unexpected exception (here or in `failure`) counts as an error and ends this loop. */
    void guarded(CountDownLatch finished, AtomicLong errors, Throwable failure, Runnable step) {
        try {
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
            step.run();
        } catch (RuntimeException e) {
            errors.incrementAndGet();
            System.err.println("ERROR " + e);
            finished.countDown();
        }
    }

    /** After a failed request: go on in 100 ms (no hot loop against a failing server); stop after 100 errors. */
    void later(Runnable next) {
        if (phaseErrors.get() >= 100 && stop.compareAndSet(false, true)) {
            System.err.println("ERROR 100 failed requests: stopping");
        }
        CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS, pool).execute(next);
    }

    // ---- HTTP

    HttpRequest post(URI uri, String body, long timeoutMs) {
        return HttpRequest.newBuilder(uri)
                .timeout(Duration.ofMillis(timeoutMs))
                .header("Content-Type", "application/json")
                .header("Authorization", bearer)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    /**
     * Sends asynchronously; the latency of every answered request goes to `latencies`. Completes with the body of a
     * 2xx answer, or with null for a non-2xx answer or an exception, which count in `errors` (the first of each kind
     * is printed with its body).
     */
    CompletableFuture<String> send(HttpRequest request, String what, Recorder latencies, AtomicLong errors) {
        long start = System.nanoTime();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).handle((response, error) -> {
            long nanos = System.nanoTime() - start;
            if (error == null) {
                latencies.add(nanos);
                if (response.statusCode() / 100 == 2) {
                    return response.body();
                }
            } else {
                latencies.failures.incrementAndGet();
            }
            errors.incrementAndGet();
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            String kind = what + " " + (cause != null ? cause.getClass().getSimpleName() : response.statusCode());
            if (reported.add(kind)) {
                System.err.printf("ERROR %s %s -> %s (further '%s' errors are only counted)%n", request.method(),
                        request.uri().getPath(), cause != null ? cause : response.statusCode() + " " + cut(response.body()),
                        kind);
            }
            return null;
        });
    }

    /** A synchronous call for set-up and checks (not measured). */
    HttpResponse<String> call(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120));
        if (bearer != null) {
            b.header("Authorization", bearer);
        }
        if (body != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Queue stats: PENDING, RUNNING, SUCCEEDED, FAILED, partitions, partitions with an owner, unavailable partitions. */
    long[] stats() throws IOException, InterruptedException {
        HttpResponse<String> r = call("GET", "/v1/queues/" + queue + "/stats", null);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("stats -> " + r.statusCode() + " " + cut(r.body()));
        }
        long[] out = new long[7];
        Matcher parts = PARTITIONS.matcher(r.body());
        String partList = parts.find() ? parts.group() : "";
        String totals = parts.replaceAll(""); // the queue's own counts, without the per-partition ones
        for (int i = 0; i < STATES.length; i++) {
            Matcher m = Pattern.compile("\"" + STATES[i] + "\"\\s*:\\s*(\\d+)").matcher(totals);
            out[i] = m.find() ? Long.parseLong(m.group(1)) : 0;
        }
        out[4] = count(PARTITION, partList);
        out[5] = count(OWNED, partList);
        out[6] = count(UNAVAILABLE, partList);
        return out;
    }

    // ---- helpers

    /** Latencies in ns, in a growing long[]; after `closed` is set, further ones are dropped. */
    static final class Recorder {
        private long[] nanos;
        private int n;
        volatile boolean closed;
        final AtomicLong failures = new AtomicLong(); // requests without an answer

        Recorder(int capacity) {
            nanos = new long[Math.max(16, capacity)];
        }

        synchronized void add(long value) {
            if (closed) {
                return;
            }
            if (n == nanos.length) {
                nanos = Arrays.copyOf(nanos, n * 2);
            }
            nanos[n++] = value;
        }

        synchronized int count() {
            return n;
        }

        synchronized long[] sorted() {
            long[] a = Arrays.copyOf(nanos, n);
            Arrays.sort(a);
            return a;
        }
    }

    /** Nearest-rank percentile of sorted ns values, in ms. */
    static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }

    /** A 15-byte body: job-000012345xx. */
    static StringBuilder body(StringBuilder sb, int i) {
        String digits = Integer.toString(i);
        sb.append("job-");
        for (int k = digits.length(); k < 9; k++) {
            sb.append('0');
        }
        return sb.append(digits).append("xx");
    }

    static int requestsFor(int jobs, int size) {
        return (jobs + size - 1) / size;
    }

    static int count(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    static List<String> all(Pattern pattern, String text) {
        List<String> out = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    static String esc(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    static String cut(String body) {
        return body == null ? "" : body.length() > 500 ? body.substring(0, 500) + "..." : body;
    }

    static String envOr(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isEmpty() ? fallback : v;
    }

    static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** CPU time of this JVM (all threads), ns. */
    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** With --sync: tell the caller where the measured window starts / ends and wait for its line on stdin. */
    void sync(String where) {
        if (!sync) {
            return;
        }
        System.out.println("SYNC " + where);
        System.out.flush();
        try {
            CompletableFuture.supplyAsync(() -> {
                try {
                    return stdin.readLine();
                } catch (IOException e) {
                    return null;
                }
            }, Executors.newSingleThreadExecutor(daemon("stdin"))).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("WARN no answer to SYNC " + where + " within 10 s; going on");
        }
    }

    void startPhase(String name, long total, AtomicLong errors) {
        phase = name;
        phaseTotal = total;
        phaseDone.set(0);
        phaseErrors = errors;
        lastDone = 0;
    }

    void progress() {
        if (phase.isEmpty()) {
            return;
        }
        long done = phaseDone.get();
        System.out.printf(Locale.ROOT, "  %-14s %7d/%-7d jobs, %6.0f jobs/s (last 5 s), errors %d%n", phase, done,
                phaseTotal, (done - lastDone) / 5.0, phaseErrors.get());
        lastDone = done;
    }
}
