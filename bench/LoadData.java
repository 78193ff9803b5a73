import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads benchmark data into a running Pinion through its public API.
 *
 * <pre>
 * java bench/LoadData.java --base http://127.0.0.1:18090 --users 10000 --pins 100000 \
 *     --boards-per-user 2 --concurrency 32 --out bench/data
 * </pre>
 *
 * Phases: sign up users (names {@code <prefix>_<n>}, a fresh prefix per run unless --prefix is given), log them in,
 * create boards, create pins on boards chosen with a Zipf-like skew (a few heavy boards, a long tail), then likes
 * (random users liking pins with the same skew). Writes {@code pins.txt}, {@code boards.txt} (boards with at least
 * one pin), {@code users.txt}, one id per line, and {@code summary.txt} into --out (replacing the previous run's
 * files, unless --append). Requests are asynchronous with at most --concurrency in flight; failed requests are
 * retried a few times and counted.
 */
public class LoadData {

    static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"(\\d+)\"");
    static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern USER_ID = Pattern.compile("\"userId\"\\s*:\\s*\"(\\d+)\"");
    static final String PASSWORD = "bench-password-1";
    static final String[] INTERESTS = {"travel", "food", "diy", "cats", "dogs", "design", "fitness", "art", "cars",
            "gardening", "recipes", "fashion", "quotes", "photography", "hiking", "coffee", "books", "music"};

    // options
    String base = "http://127.0.0.1:18090";
    int users = 10_000;
    int pins = 100_000;
    int boardsPerUser = 2;
    int likes = -1; // default pins / 5
    int concurrency = 32;
    double skew = 0.7;
    long seed = 42;
    int retries = 3;
    boolean append = false;
    String prefix = null;
    Path out = Path.of("bench/data");

    HttpClient http;
    Semaphore inFlight;
    ScheduledExecutorService ticker;

    // progress of the current phase
    volatile String phase = "";
    volatile int phaseTotal;
    final AtomicInteger phaseDone = new AtomicInteger();
    final AtomicInteger phaseFailed = new AtomicInteger();
    final AtomicLong retried = new AtomicLong();
    final AtomicLong requests = new AtomicLong();
    final Map<Integer, AtomicInteger> failuresByStatus = new java.util.concurrent.ConcurrentHashMap<>();
    volatile long phaseStartNanos;
    final Map<String, String> phaseTimes = new LinkedHashMap<>();

    public static void main(String[] args) throws Exception {
        LoadData load = new LoadData();
        load.parse(args);
        load.run();
    }

    void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                System.out.println("options: --base URL --users N --pins N --boards-per-user N --likes N --concurrency N"
                        + " --out DIR --prefix NAME --skew S --seed N --retries N --append");
                System.exit(0);
            }
            if (a.equals("--append")) {
                append = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + a);
            }
            String v = args[++i];
            switch (a) {
                case "--base" -> base = v.replaceAll("/+$", "");
                case "--users" -> users = Integer.parseInt(v);
                case "--pins" -> pins = Integer.parseInt(v);
                case "--boards-per-user" -> boardsPerUser = Integer.parseInt(v);
                case "--likes" -> likes = Integer.parseInt(v);
                case "--concurrency" -> concurrency = Integer.parseInt(v);
                case "--out" -> out = Path.of(v);
                case "--prefix" -> prefix = v;
                case "--skew" -> skew = Double.parseDouble(v);
                case "--seed" -> seed = Long.parseLong(v);
                case "--retries" -> retries = Integer.parseInt(v);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (likes < 0) {
            likes = pins / 5;
        }
        if (prefix == null) {
            // b + base-36 seconds: a fresh, valid ([a-z0-9_]) username prefix per run
            prefix = "b" + Long.toString(Instant.now().getEpochSecond(), 36);
        }
        if (!prefix.matches("[a-z0-9_]{1,20}")) {
            throw new IllegalArgumentException("--prefix must be 1-20 of a-z 0-9 _");
        }
    }

    void run() throws Exception {
        http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .executor(Executors.newFixedThreadPool(4))
                .build();
        inFlight = new Semaphore(concurrency);
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(this::progress, 5, 5, TimeUnit.SECONDS);
        Files.createDirectories(out);
        System.out.printf(Locale.ROOT, "prefix %s: %d users, %d boards, %d pins, %d likes, concurrency %d, base %s%n",
                prefix, users, users * boardsPerUser, pins, likes, concurrency, base);
        long start = System.nanoTime();
        Random random = new Random(seed);

        // 1. sign up (a 409 on a retry means an earlier attempt that timed out on our side did create the user)
        boolean[] signedUp = new boolean[users];
        runPhase("signup", users, i -> send(HttpRequest.newBuilder(URI.create(base + "/v1/users"))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json("username", prefix + "_" + i,
                                "password", PASSWORD, "displayName", "Bench user " + i)))
                        .build(), 0, true)
                .thenApply(body -> signedUp[i] = true));

        // 2. log in: the token, and the user id (also for users whose sign-up answer was lost)
        String[] tokens = new String[users];
        String[] userIds = new String[users];
        runPhase("login", users, i -> !signedUp[i] ? done()
                : post("/v1/sessions", null, json("username", prefix + "_" + i, "password", PASSWORD))
                        .thenApply(body -> {
                            userIds[i] = match(USER_ID, body);
                            return tokens[i] = match(TOKEN, body);
                        }));

        // 3. boards: board b belongs to user b % users
        int boardCount = users * boardsPerUser;
        String[] boardIds = new String[boardCount];
        runPhase("boards", boardCount, b -> {
            String token = tokens[b % users];
            return token == null ? done() : post("/v1/boards", token, json(
                    "name", "Board " + b, "description", "benchmark board " + b + " of " + prefix))
                    .thenApply(body -> boardIds[b] = match(ID, body));
        });

        // 4. pins: Zipf-like over boards in a shuffled order, so heavy boards are spread over users and shards
        int[] boardOrder = shuffled(boardCount, random);
        double[] boardCdf = zipfCdf(boardCount, skew);
        int[] pinBoard = new int[pins];
        for (int p = 0; p < pins; p++) {
            pinBoard[p] = boardOrder[sample(boardCdf, random)];
        }
        String[] pinIds = new String[pins];
        AtomicLongArray pinsPerBoard = new AtomicLongArray(boardCount);
        runPhase("pins", pins, p -> {
            int b = pinBoard[p];
            String token = tokens[b % users];
            if (boardIds[b] == null || token == null) {
                return done();
            }
            String interest1 = INTERESTS[p % INTERESTS.length];
            String interest2 = INTERESTS[(p / INTERESTS.length) % INTERESTS.length];
            String body = "{\"boardId\":\"" + boardIds[b] + "\",\"description\":\"Pin " + p + " of " + prefix
                    + ": a benchmark pin with a short description\",\"link\":\"https://example.com/articles/" + p
                    + "\",\"imageUrl\":\"https://images.example.com/" + prefix + "/" + p + ".jpg\",\"interests\":[\""
                    + interest1 + "\",\"" + interest2 + "\"]}";
            return post("/v1/pins", token, body).thenApply(resp -> {
                pinIds[p] = match(ID, resp);
                if (pinIds[p] != null) {
                    pinsPerBoard.incrementAndGet(b);
                }
                return pinIds[p];
            });
        });

        // 5. likes: random user, pin chosen with the same skew over a shuffled pin order (duplicates are idempotent)
        int[] pinOrder = shuffled(pins, random);
        double[] pinCdf = zipfCdf(pins, skew);
        int[][] likePairs = new int[likes][];
        for (int l = 0; l < likes; l++) {
            likePairs[l] = new int[] {random.nextInt(users), pinOrder[sample(pinCdf, random)]};
        }
        runPhase("likes", likes, l -> {
            String token = tokens[likePairs[l][0]];
            String pin = pinIds[likePairs[l][1]];
            return token == null || pin == null ? done() : put("/v1/pins/" + pin + "/like", token);
        });

        long totalNanos = System.nanoTime() - start;
        ticker.shutdownNow();

        // outputs
        List<String> pinLines = new ArrayList<>();
        for (String id : pinIds) {
            if (id != null) {
                pinLines.add(id);
            }
        }
        List<String> boardLines = new ArrayList<>();
        long[] counts = new long[boardCount];
        int emptyBoards = 0;
        for (int b = 0; b < boardCount; b++) {
            counts[b] = pinsPerBoard.get(b);
            if (boardIds[b] != null && counts[b] > 0) {
                boardLines.add(boardIds[b]);
            } else if (boardIds[b] != null) {
                emptyBoards++;
            }
        }
        List<String> userLines = new ArrayList<>();
        for (String id : userIds) {
            if (id != null) {
                userLines.add(id);
            }
        }
        write("pins.txt", pinLines);
        write("boards.txt", boardLines);
        write("users.txt", userLines);
        Arrays.sort(counts);
        long full = Arrays.stream(counts).filter(c -> c >= 25).count();

        StringBuilder summary = new StringBuilder();
        summary.append(String.format(Locale.ROOT, "prefix            %s%n", prefix));
        summary.append(String.format(Locale.ROOT, "base              %s%n", base));
        summary.append(String.format(Locale.ROOT, "finished          %s%n", Instant.now()));
        summary.append(String.format(Locale.ROOT, "concurrency       %d%n", concurrency));
        summary.append(String.format(Locale.ROOT, "users             %d of %d (logged in: %d)%n", userLines.size(), users,
                Arrays.stream(tokens).filter(t -> t != null).count()));
        summary.append(String.format(Locale.ROOT, "boards            %d of %d (%d with pins -> boards.txt, %d empty, %d with >= 25 pins)%n",
                Arrays.stream(boardIds).filter(t -> t != null).count(), boardCount, boardLines.size(), emptyBoards, full));
        summary.append(String.format(Locale.ROOT, "pins              %d of %d%n", pinLines.size(), pins));
        summary.append(String.format(Locale.ROOT, "pins per board    max %d, p99 %d, p90 %d, median %d (skew %.2f)%n",
                counts[boardCount - 1], counts[(int) (boardCount * 0.99)], counts[(int) (boardCount * 0.9)],
                counts[boardCount / 2], skew));
        summary.append(String.format(Locale.ROOT, "like requests     %d%n", likes));
        summary.append(String.format(Locale.ROOT, "http requests     %d (retries %d, failures after retries %s)%n",
                requests.get(), retried.get(), failuresByStatus));
        phaseTimes.forEach((name, time) -> summary.append(String.format(Locale.ROOT, "time %-12s %s%n", name, time)));
        summary.append(String.format(Locale.ROOT, "time total        %.1f s%n", totalNanos / 1e9));
        Files.writeString(out.resolve("summary.txt"), summary.toString(), StandardCharsets.UTF_8,
                append ? new java.nio.file.OpenOption[] {java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND}
                        : new java.nio.file.OpenOption[0]);
        System.out.println();
        System.out.print(summary);
        System.out.println("wrote " + out.resolve("pins.txt") + ", boards.txt, users.txt, summary.txt");
        System.exit(failuresByStatus.isEmpty() ? 0 : 1);
    }

    /** Runs task(i) for i in [0, n) with at most `concurrency` requests in flight; waits for all of them. */
    void runPhase(String name, int n, IntFunction<CompletableFuture<?>> task) throws InterruptedException {
        phase = name;
        phaseTotal = n;
        phaseDone.set(0);
        phaseFailed.set(0);
        phaseStartNanos = System.nanoTime();
        lastDone = 0;
        lastTick = phaseStartNanos;
        for (int i = 0; i < n; i++) {
            inFlight.acquire();
            CompletableFuture<?> f;
            try {
                f = task.apply(i);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((ok, error) -> {
                if (error != null) {
                    phaseFailed.incrementAndGet();
                }
                phaseDone.incrementAndGet();
                inFlight.release();
            });
        }
        inFlight.acquire(concurrency); // wait for the tail
        inFlight.release(concurrency);
        double secs = (System.nanoTime() - phaseStartNanos) / 1e9;
        String line = String.format(Locale.ROOT, "%.1f s (%d requests, %.0f/s, %d failed)", secs, n, n / secs,
                phaseFailed.get());
        phaseTimes.put(name, line);
        System.out.printf(Locale.ROOT, "%-7s done: %s%n", name, line);
    }

    volatile int lastDone;
    volatile long lastTick;

    void progress() {
        long now = System.nanoTime();
        int done = phaseDone.get();
        double interval = (now - lastTick) / 1e9;
        double elapsed = (now - phaseStartNanos) / 1e9;
        double rate = (done - lastDone) / interval;
        double avg = done / elapsed;
        double eta = avg > 0 ? (phaseTotal - done) / avg : Double.NaN;
        System.out.printf(Locale.ROOT, "%-7s %7d/%-7d %6.0f req/s now, %6.0f avg, in flight %2d, failed %d, retries %d, eta %.0f s%n",
                phase, done, phaseTotal, rate, avg, concurrency - inFlight.availablePermits(), phaseFailed.get(),
                retried.get(), eta);
        lastDone = done;
        lastTick = now;
    }

    CompletableFuture<String> post(String path, String token, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.build(), 0, false);
    }

    CompletableFuture<String> put(String path, String token) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .PUT(HttpRequest.BodyPublishers.noBody())
                .build();
        return send(request, 0, false);
    }

    /**
     * Sends with retries on I/O errors and 5xx / 429; a 4xx other than 429 fails at once, except a 409 on a retry
     * when conflictOk (the earlier attempt succeeded on the server), which completes with an empty body.
     */
    CompletableFuture<String> send(HttpRequest request, int attempt, boolean conflictOk) {
        requests.incrementAndGet();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .handle((response, error) -> {
                    int status = error != null ? -1 : response.statusCode();
                    if (status >= 200 && status < 300) {
                        return CompletableFuture.completedFuture(response.body());
                    }
                    if (status == 409 && attempt > 0 && conflictOk) {
                        return CompletableFuture.completedFuture("");
                    }
                    boolean retryable = status == -1 || status == 429 || status >= 500;
                    if (retryable && attempt < retries) {
                        retried.incrementAndGet();
                        return CompletableFuture.supplyAsync(() -> null,
                                        CompletableFuture.delayedExecutor(100L << attempt, TimeUnit.MILLISECONDS))
                                .thenCompose(ignored -> send(request, attempt + 1, conflictOk));
                    }
                    failuresByStatus.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                    if (failuresByStatus.get(status).get() <= 5) {
                        System.err.printf("%s %s -> %s%n", request.method(), request.uri().getPath(),
                                error != null ? error : status + " " + response.body());
                    }
                    return CompletableFuture.<String>failedFuture(
                            new IOException(request.uri().getPath() + " -> " + (error != null ? error : status)));
                })
                .thenCompose(f -> f);
    }

    static CompletableFuture<Object> done() {
        return CompletableFuture.completedFuture(null);
    }

    static String match(Pattern pattern, String body) {
        Matcher m = pattern.matcher(body);
        if (!m.find()) {
            throw new IllegalStateException("unexpected response: " + body);
        }
        return m.group(1);
    }

    static String json(String... keyValues) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < keyValues.length; i += 2) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append('"').append(keyValues[i]).append("\":\"")
                    .append(keyValues[i + 1].replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        }
        return sb.append('}').toString();
    }

    static int[] shuffled(int n, Random random) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return a;
    }

    /** Cumulative weights of ranks 1..n with weight 1/rank^s. */
    static double[] zipfCdf(int n, double s) {
        double[] cdf = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1.0 / Math.pow(i + 1, s);
            cdf[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            cdf[i] /= sum;
        }
        return cdf;
    }

    static int sample(double[] cdf, Random random) {
        int i = Arrays.binarySearch(cdf, random.nextDouble());
        return Math.min(cdf.length - 1, i >= 0 ? i : -i - 1);
    }

    void write(String name, List<String> lines) throws IOException {
        Path file = out.resolve(name);
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                append ? new java.nio.file.OpenOption[] {java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND}
                        : new java.nio.file.OpenOption[0]))) {
            lines.forEach(w::println);
        }
    }
}
