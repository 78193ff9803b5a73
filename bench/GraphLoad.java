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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads a power-law follow graph into a running Pinion through its public API, and pages through board receivers.
 *
 * <pre>
 * java bench/GraphLoad.java --base http://127.0.0.1:18090 --users 120000 --edges 1000000 --celebrities 3 \
 *     --concurrency 64 --out bench/data/graph [--prefix NAME]
 * GRAPH_TOKEN=&lt;worker token&gt; java bench/GraphLoad.java receivers --base http://127.0.0.1:18090 \
 *     --celebrities-file bench/data/graph/celebrities.txt [--limit 1000] [--runs 3] [--warmup 1]
 * </pre>
 *
 * <b>Load.</b> Phases: sign up --users users (names {@code <prefix>_<n>}, a fresh prefix per run unless --prefix is
 * given; one fixed password, so a run with an existing --prefix logs the same users in again: a 409 at sign-up is
 * taken as "exists"), log each in (tokens stay in memory), one board per celebrity, then the follows
 * ({@code PUT /v1/me/following/users/{id}}) in a shuffled order. Users 0..celebrities-1 are the celebrities: every
 * other user follows each of them. The remaining edges go from a uniformly random follower to a target drawn with
 * weight 1/rank^skew (skew 1) over the non-celebrity users in a shuffled rank order; self-follows and duplicates
 * (a long hash set of follower*N+target) are drawn again. A final verify phase asks the API for each celebrity's
 * follower count, for a sample of the check pairs and for a sample of the which-lines, and compares with what was
 * loaded (mismatches are reported; they would be bugs, since only definite outcomes are sampled).
 *
 * <p>Writes into --out (replacing the previous files): {@code users.txt} (user ids), {@code checks.txt}
 * ({@code <followerId> <targetId>}: --checks pairs, half loaded edges, half pairs never followed, shuffled),
 * {@code which.txt} ({@code <token> <id>,<id>,...}: --which-users random users, --which-size ids each, up to half of
 * them followed), {@code celebrities.txt} ({@code <userId> <boardId>}), {@code zscore.txt} ({@code <port> <key>
 * <member>}: each celebrity's explicit-follower zset on its Redis instance and one of its followers),
 * {@code redis-keys.txt} ({@code <port> <key>}: the explicit following and follower zsets of every loaded user, for
 * an exact MEMORY USAGE sum) and {@code summary.txt}, whose last line is machine-readable:
 * {@code RESULT name=graph-load users=.. edges=.. edges_new=.. failures=.. elapsed_s=.. edges_per_s=..}.
 * Tokens appear only in which.txt (they expire with pinion.auth.token-ttl, 24 h by default).
 *
 * <p><b>Receivers.</b> For every board of the celebrities file: page through
 * {@code GET /v1/boards/{id}/receivers?limit=L} until a null nextCursor (sequentially, one connection), with the
 * worker/admin token from $GRAPH_TOKEN (or --token). Checks that ids are unique, followedAt never increases, and that
 * the total equals the owner's counts.followers (the board has no own followers or unfollowers in this load). Prints
 * one {@code RECEIVERS} line per board and run and one {@code RESULT name=receivers ...} line per run.
 *
 * <p>Requests are asynchronous with at most --concurrency in flight; I/O errors, 429 and 5xx are retried --retries
 * times with back-off (PUT follows are idempotent), like bench/LoadData.java.
 */
public class GraphLoad {

    static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"(\\d+)\"");
    static final Pattern TOKEN = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern USER_ID = Pattern.compile("\"userId\"\\s*:\\s*\"(\\d+)\"");
    static final Pattern CHANGED = Pattern.compile("\"changed\"\\s*:\\s*(true|false)");
    static final Pattern FOLLOWING = Pattern.compile("\"following\"\\s*:\\s*(true|false)");
    static final Pattern FOLLOWING_LIST = Pattern.compile("\"following\"\\s*:\\s*\\[([^\\]]*)\\]");
    static final Pattern FOLLOWERS = Pattern.compile("\"followers\"\\s*:\\s*(\\d+|null)");
    static final Pattern ITEM = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"\\s*,\\s*\"followedAt\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern NEXT = Pattern.compile("\"nextCursor\"\\s*:\\s*(null|\"([^\"]*)\")");
    static final String PASSWORD = "bench-graph-password-1";

    // options
    String base = "http://127.0.0.1:18090";
    int users = 120_000;
    long edges = 1_000_000;
    int celebrities = 3;
    int concurrency = 64;
    double skew = 1.0;
    long seed = 42;
    int retries = 4;
    int checks = 100_000;
    int whichUsers = 2_000;
    int whichSize = 25;
    int verifyChecks = 2_000;
    int verifyWhich = 200;
    int virtualShards = 8192;
    String redis = "63791:0-4095,63792:4096-8191";
    String prefix = null;
    Path out = Path.of("bench/data/graph");
    // receivers mode
    Path celebritiesFile = null;
    String token = System.getenv("GRAPH_TOKEN");
    int limit = 1000;
    int runs = 1;
    int warmup = 0;

    HttpClient http;
    Semaphore inFlight;
    ScheduledExecutorService ticker;

    volatile String phase = "";
    volatile long phaseTotal;
    final AtomicLong phaseDone = new AtomicLong();
    final AtomicLong phaseFailed = new AtomicLong();
    final AtomicLong retried = new AtomicLong();
    final AtomicLong requests = new AtomicLong();
    final Map<Integer, AtomicInteger> failuresByStatus = new java.util.concurrent.ConcurrentHashMap<>();
    volatile long phaseStartNanos;
    final Map<String, String> phaseTimes = new LinkedHashMap<>();

    public static void main(String[] args) throws Exception {
        GraphLoad load = new GraphLoad();
        boolean receivers = args.length > 0 && args[0].equals("receivers");
        load.parse(receivers ? Arrays.copyOfRange(args, 1, args.length) : args, receivers);
        if (receivers) {
            System.exit(load.receivers());
        }
        load.run();
    }

    void parse(String[] args, boolean receivers) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                System.out.println("load: --base URL --users N --edges N --celebrities N --concurrency N --out DIR"
                        + " --prefix NAME --skew S --seed N --retries N --checks N --which-users N --which-size N"
                        + " --verify-checks N --verify-which N --virtual-shards N --redis PORT:FROM-TO,...\n"
                        + "receivers: receivers --base URL --celebrities-file FILE [--token T | $GRAPH_TOKEN]"
                        + " --limit N --runs N --warmup N");
                System.exit(0);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + a);
            }
            String v = args[++i];
            switch (a) {
                case "--base" -> base = v.replaceAll("/+$", "");
                case "--users" -> users = Integer.parseInt(v);
                case "--edges" -> edges = Long.parseLong(v);
                case "--celebrities" -> celebrities = Integer.parseInt(v);
                case "--concurrency" -> concurrency = Integer.parseInt(v);
                case "--out" -> out = Path.of(v);
                case "--prefix" -> prefix = v;
                case "--skew" -> skew = Double.parseDouble(v);
                case "--seed" -> seed = Long.parseLong(v);
                case "--retries" -> retries = Integer.parseInt(v);
                case "--checks" -> checks = Integer.parseInt(v);
                case "--which-users" -> whichUsers = Integer.parseInt(v);
                case "--which-size" -> whichSize = Integer.parseInt(v);
                case "--verify-checks" -> verifyChecks = Integer.parseInt(v);
                case "--verify-which" -> verifyWhich = Integer.parseInt(v);
                case "--virtual-shards" -> virtualShards = Integer.parseInt(v);
                case "--redis" -> redis = v;
                case "--celebrities-file" -> celebritiesFile = Path.of(v);
                case "--token" -> token = v;
                case "--limit" -> limit = Integer.parseInt(v);
                case "--runs" -> runs = Integer.parseInt(v);
                case "--warmup" -> warmup = Integer.parseInt(v);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (receivers) {
            if (celebritiesFile == null) {
                celebritiesFile = out.resolve("celebrities.txt");
            }
            if (token == null || token.isBlank()) {
                throw new IllegalArgumentException("receivers needs a worker or admin token: $GRAPH_TOKEN or --token");
            }
            return;
        }
        if (prefix == null) {
            // g + base-36 seconds: a fresh, valid ([a-z0-9_]) username prefix per run
            prefix = "g" + Long.toString(Instant.now().getEpochSecond(), 36);
        }
        if (!prefix.matches("[a-z0-9_]{1,20}")) {
            throw new IllegalArgumentException("--prefix must be 1-20 of a-z 0-9 _");
        }
        if (users < 2 || celebrities < 0 || celebrities >= users) {
            throw new IllegalArgumentException("need --users >= 2 and 0 <= --celebrities < --users");
        }
        if (whichSize < 1 || whichSize > 100) {
            throw new IllegalArgumentException("--which-size must be 1..100");
        }
        redisPorts(); // validate
    }

    // ------------------------------------------------------------------------------------------------ load

    void run() throws Exception {
        startClient();
        Files.createDirectories(out);
        long start = System.nanoTime();
        Random random = new Random(seed);

        // 0. the edges, planned up front: follower index -> target index
        long celebrityEdges = (long) celebrities * (users - 1);
        long randomEdges = Math.max(0, edges - celebrityEdges);
        if (celebrityEdges > edges) {
            System.out.printf(Locale.ROOT, "note: %d celebrity edges alone exceed --edges %d; creating them all%n",
                    celebrityEdges, edges);
        }
        long total = celebrityEdges + randomEdges;
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many edges");
        }
        int n = (int) total;
        int[] from = new int[n];
        int[] to = new int[n];
        LongHashSet planned = new LongHashSet(n);
        int e = 0;
        for (int c = 0; c < celebrities; c++) {
            for (int u = 0; u < users; u++) {
                if (u != c) {
                    from[e] = u;
                    to[e] = c;
                    planned.add(pair(u, c));
                    e++;
                }
            }
        }
        int others = users - celebrities;
        int[] rankOrder = shuffled(others, random);
        double[] cdf = zipfCdf(others, skew);
        long attempts = 0;
        long maxAttempts = 50 * randomEdges + 1000;
        long duplicates = 0;
        while (e < n && attempts < maxAttempts && others > 0) {
            attempts++;
            int follower = random.nextInt(users);
            int target = celebrities + rankOrder[sample(cdf, random)];
            if (follower == target || !planned.add(pair(follower, target))) {
                duplicates++;
                continue;
            }
            from[e] = follower;
            to[e] = target;
            e++;
        }
        if (e < n) {
            System.out.printf(Locale.ROOT, "note: only %d of %d random edges found after %d draws (graph too dense)%n",
                    e - celebrityEdges, randomEdges, attempts);
            n = e;
        }
        final int edgeCount = n;
        int[] order = shuffled(edgeCount, random);
        long[] inDegree = new long[users];
        for (int k = 0; k < edgeCount; k++) {
            inDegree[to[k]]++;
        }
        long maxOther = 0;
        for (int u = celebrities; u < users; u++) {
            maxOther = Math.max(maxOther, inDegree[u]);
        }
        System.out.printf(Locale.ROOT, "prefix %s: %d users, %d celebrities, %d edges planned (%d to celebrities, %d"
                        + " Zipf s=%.2f; %d redrawn duplicates/self; top non-celebrity in-degree %d), concurrency %d, base %s%n",
                prefix, users, celebrities, edgeCount, celebrityEdges, edgeCount - celebrityEdges, skew, duplicates,
                maxOther, concurrency, base);

        // 1. sign up (409: the user exists, from an earlier attempt or an earlier run with this prefix)
        boolean[] signedUp = new boolean[users];
        runPhase("signup", users, i -> send(HttpRequest.newBuilder(URI.create(base + "/v1/users"))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json("username", prefix + "_" + i,
                                "password", PASSWORD, "displayName", "Graph user " + i)))
                        .build(), 0, true)
                .thenApply(body -> signedUp[i] = true));

        // 2. log in: token and user id
        String[] tokens = new String[users];
        long[] userIds = new long[users];
        runPhase("login", users, i -> !signedUp[i] ? done()
                : post("/v1/sessions", null, json("username", prefix + "_" + i, "password", PASSWORD))
                        .thenApply(body -> {
                            userIds[i] = Long.parseLong(match(USER_ID, body));
                            return tokens[i] = match(TOKEN, body);
                        }));

        // 3. one board per celebrity: its receivers are the celebrity's followers
        String[] boardIds = new String[celebrities];
        runPhase("boards", celebrities, c -> tokens[c] == null ? done()
                : post("/v1/boards", tokens[c], json("name", "Celebrity board " + c,
                        "description", "graph benchmark board of celebrity " + c + " of " + prefix))
                        .thenApply(body -> boardIds[c] = match(ID, body)));

        // 4. follows, in a shuffled order. status: 0 not sent, 1 new, 2 already there (changed=false), 3 failed
        byte[] status = new byte[edgeCount];
        AtomicLong created = new AtomicLong();
        AtomicLong already = new AtomicLong();
        runPhase("follows", edgeCount, k -> {
            int edge = order[k];
            int a = from[edge];
            int b = to[edge];
            if (tokens[a] == null || userIds[b] == 0) {
                status[edge] = 3;
                return CompletableFuture.failedFuture(new IOException("follower or target was not created"));
            }
            return put("/v1/me/following/users/" + userIds[b], tokens[a]).handle((body, error) -> {
                if (error != null) {
                    status[edge] = 3;
                    throw new java.util.concurrent.CompletionException(error);
                }
                boolean changed = "true".equals(find(CHANGED, body));
                status[edge] = (byte) (changed ? 1 : 2);
                (changed ? created : already).incrementAndGet();
                return body;
            });
        });
        double followSecs = lastPhaseSeconds;
        long failedEdges = 0;
        for (int k = 0; k < edgeCount; k++) {
            if (status[k] == 3) {
                failedEdges++;
            }
        }
        long existing = created.get() + already.get();

        // outputs: indexes of the edges that exist for sure, and the followed targets per follower
        int[] ok = new int[(int) existing];
        int m = 0;
        for (int k = 0; k < edgeCount; k++) {
            if (status[k] == 1 || status[k] == 2) {
                ok[m++] = k;
            }
        }
        int[] start0 = new int[users + 1];
        for (int k : ok) {
            start0[from[k] + 1]++;
        }
        for (int u = 0; u < users; u++) {
            start0[u + 1] += start0[u];
        }
        int[] adjacency = new int[m];
        int[] fill = Arrays.copyOf(start0, users);
        for (int k : ok) {
            adjacency[fill[from[k]]++] = to[k];
        }
        long[] followersOf = new long[celebrities];
        for (int k : ok) {
            if (to[k] < celebrities) {
                followersOf[to[k]]++;
            }
        }

        Random outRandom = new Random(seed + 1);
        List<String> userLines = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            if (userIds[u] != 0) {
                userLines.add(Long.toString(userIds[u]));
            }
        }
        // checks: half loaded edges, half pairs that were never followed (not even attempted)
        List<long[]> checkPairs = new ArrayList<>(); // {a, b, expected 0|1}
        int wantEdges = m == 0 ? 0 : checks / 2;
        for (int c = 0; c < wantEdges; c++) {
            int k = ok[outRandom.nextInt(m)];
            checkPairs.add(new long[] {from[k], to[k], 1});
        }
        int tries = 0;
        while (checkPairs.size() < checks && tries++ < checks * 20) {
            int a = outRandom.nextInt(users);
            int b = outRandom.nextInt(users);
            if (a == b || userIds[a] == 0 || userIds[b] == 0 || planned.contains(pair(a, b))) {
                continue;
            }
            checkPairs.add(new long[] {a, b, 0});
        }
        java.util.Collections.shuffle(checkPairs, outRandom);
        List<String> checkLines = new ArrayList<>(checkPairs.size());
        for (long[] p : checkPairs) {
            checkLines.add(userIds[(int) p[0]] + " " + userIds[(int) p[1]]);
        }
        // which: random users with a token; up to half followed, the rest never followed
        List<String> whichLines = new ArrayList<>();
        List<Set<Long>> whichExpected = new ArrayList<>();
        List<Integer> whichUser = new ArrayList<>();
        int[] candidates = shuffled(users, outRandom);
        for (int idx = 0; idx < users && whichLines.size() < whichUsers; idx++) {
            int u = candidates[idx];
            if (tokens[u] == null) {
                continue;
            }
            int degree = start0[u + 1] - start0[u];
            int followed = Math.min(degree, Math.max(1, whichSize / 2 - outRandom.nextInt(Math.max(1, whichSize / 4))));
            List<Long> ids = new ArrayList<>();
            Set<Integer> chosen = new HashSet<>();
            Set<Long> expected = new HashSet<>();
            for (int t = 0; t < followed * 4 && expected.size() < followed; t++) {
                int target = adjacency[start0[u] + outRandom.nextInt(degree)];
                if (chosen.add(target)) {
                    ids.add(userIds[target]);
                    expected.add(userIds[target]);
                }
            }
            for (int t = 0; t < whichSize * 50 && ids.size() < whichSize; t++) {
                int target = outRandom.nextInt(users);
                if (target != u && userIds[target] != 0 && !planned.contains(pair(u, target)) && chosen.add(target)) {
                    ids.add(userIds[target]);
                }
            }
            java.util.Collections.shuffle(ids, outRandom);
            StringBuilder line = new StringBuilder(tokens[u]).append(' ');
            for (int k = 0; k < ids.size(); k++) {
                line.append(k == 0 ? "" : ",").append(ids.get(k));
            }
            whichLines.add(line.toString());
            whichExpected.add(expected);
            whichUser.add(u);
        }
        List<String> celebrityLines = new ArrayList<>();
        List<String> zscoreLines = new ArrayList<>();
        for (int c = 0; c < celebrities; c++) {
            if (userIds[c] == 0 || boardIds[c] == null) {
                continue;
            }
            celebrityLines.add(userIds[c] + " " + boardIds[c]);
            // a follower of c whose edge exists
            for (int t = 0; t < 1000 && m > 0; t++) {
                int k = ok[outRandom.nextInt(m)];
                if (to[k] == c) {
                    int vs = virtualShard(userIds[c]);
                    zscoreLines.add(portOf(vs) + " g:{" + vs + "}:u:" + userIds[c] + ":fre " + userIds[from[k]]);
                    break;
                }
            }
        }
        List<String> keyLines = new ArrayList<>(2 * users);
        for (int u = 0; u < users; u++) {
            if (userIds[u] != 0) {
                int vs = virtualShard(userIds[u]);
                int port = portOf(vs);
                keyLines.add(port + " g:{" + vs + "}:u:" + userIds[u] + ":fu");
                keyLines.add(port + " g:{" + vs + "}:u:" + userIds[u] + ":fre");
            }
        }
        write("users.txt", userLines);
        write("checks.txt", checkLines);
        write("which.txt", whichLines);
        write("celebrities.txt", celebrityLines);
        write("zscore.txt", zscoreLines);
        write("redis-keys.txt", keyLines);

        // 5. verify a sample against the API (not part of the timed follow phase)
        AtomicLong mismatches = new AtomicLong();
        long[] apiFollowers = new long[celebrities];
        Arrays.fill(apiFollowers, -1);
        runPhase("verify-celebrities", celebrities, c -> userIds[c] == 0 ? done()
                : get("/v1/users/" + userIds[c], null).thenApply(body -> {
                    String count = find(FOLLOWERS, body);
                    apiFollowers[c] = count == null || count.equals("null") ? -1 : Long.parseLong(count);
                    if (apiFollowers[c] != followersOf[c]) {
                        mismatches.incrementAndGet();
                        System.err.printf(Locale.ROOT, "MISMATCH celebrity %d: counts.followers %s, loaded %d%n",
                                userIds[c], count, followersOf[c]);
                    }
                    return body;
                }));
        int vc = Math.min(verifyChecks, checkPairs.size());
        runPhase("verify-checks", vc, i -> {
            long[] p = checkPairs.get(i);
            return get("/v1/users/" + userIds[(int) p[0]] + "/following/users/" + userIds[(int) p[1]], null)
                    .thenApply(body -> {
                        boolean following = "true".equals(find(FOLLOWING, body));
                        if (following != (p[2] == 1)) {
                            if (mismatches.incrementAndGet() <= 10) {
                                System.err.printf(Locale.ROOT, "MISMATCH %d follows %d: API %s, loaded %s%n",
                                        userIds[(int) p[0]], userIds[(int) p[1]], body, p[2] == 1);
                            }
                        }
                        return body;
                    });
        });
        int vw = Math.min(verifyWhich, whichLines.size());
        runPhase("verify-which", vw, i -> {
            String line = whichLines.get(i);
            int space = line.indexOf(' ');
            return get("/v1/me/following/users?ids=" + line.substring(space + 1), line.substring(0, space))
                    .thenApply(body -> {
                        Set<Long> got = new HashSet<>();
                        String list = find(FOLLOWING_LIST, body);
                        Matcher ids = Pattern.compile("\"(\\d+)\"").matcher(list == null ? "" : list);
                        while (ids.find()) {
                            got.add(Long.parseLong(ids.group(1)));
                        }
                        if (!got.equals(whichExpected.get(i))) {
                            if (mismatches.incrementAndGet() <= 10) {
                                System.err.printf(Locale.ROOT, "MISMATCH which-users of %d: API %s, loaded %s%n",
                                        userIds[whichUser.get(i)], got, whichExpected.get(i));
                            }
                        }
                        return body;
                    });
        });

        long totalNanos = System.nanoTime() - start;
        ticker.shutdownNow();

        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "prefix            %s%n", prefix));
        s.append(String.format(Locale.ROOT, "base              %s%n", base));
        s.append(String.format(Locale.ROOT, "finished          %s%n", Instant.now()));
        s.append(String.format(Locale.ROOT, "concurrency       %d%n", concurrency));
        s.append(String.format(Locale.ROOT, "users             %d of %d (logged in: %d)%n", userLines.size(), users,
                Arrays.stream(tokens).filter(t -> t != null).count()));
        s.append(String.format(Locale.ROOT, "celebrities       %d (boards %d)%n", celebrities, celebrityLines.size()));
        for (int c = 0; c < celebrities; c++) {
            s.append(String.format(Locale.ROOT, "  celebrity %-6d id %d board %s: followers loaded %d, API counts.followers %d%n",
                    c, userIds[c], boardIds[c], followersOf[c], apiFollowers[c]));
        }
        s.append(String.format(Locale.ROOT, "edges planned     %d (%d to celebrities, %d Zipf s=%.2f over %d users)%n",
                edgeCount, Math.min(celebrityEdges, edgeCount), Math.max(0, edgeCount - celebrityEdges), skew, others));
        s.append(String.format(Locale.ROOT, "edges created     %d (new %d, already there %d), failed %d%n",
                existing, created.get(), already.get(), failedEdges));
        s.append(String.format(Locale.ROOT, "in-degree         celebrities %s, top other %d%n",
                Arrays.toString(Arrays.copyOf(inDegree, celebrities)), maxOther));
        s.append(String.format(Locale.ROOT, "outputs           checks %d, which %d x %d ids, zscore %d, redis keys %d%n",
                checkLines.size(), whichLines.size(), whichSize, zscoreLines.size(), keyLines.size()));
        s.append(String.format(Locale.ROOT, "verify            %d celebrities, %d checks, %d which-lines: %d mismatches%n",
                celebrities, vc, vw, mismatches.get()));
        s.append(String.format(Locale.ROOT, "http requests     %d (retries %d, failures after retries %s)%n",
                requests.get(), retried.get(), failuresByStatus));
        phaseTimes.forEach((name, time) -> s.append(String.format(Locale.ROOT, "time %-18s %s%n", name, time)));
        s.append(String.format(Locale.ROOT, "time total        %.1f s%n", totalNanos / 1e9));
        s.append(String.format(Locale.ROOT,
                "RESULT name=graph-load prefix=%s users=%d edges=%d edges_new=%d failures=%d mismatches=%d elapsed_s=%.1f"
                        + " edges_per_s=%.1f total_s=%.1f%n",
                prefix, userLines.size(), existing, created.get(), failedEdges, mismatches.get(), followSecs,
                existing / followSecs, totalNanos / 1e9));
        Files.writeString(out.resolve("summary.txt"), s.toString(), StandardCharsets.UTF_8);
        System.out.println();
        System.out.print(s);
        System.out.println("wrote " + out.resolve("users.txt") + ", checks.txt, which.txt, celebrities.txt, zscore.txt,"
                + " redis-keys.txt, summary.txt");
        System.exit(failuresByStatus.isEmpty() && failedEdges == 0 && mismatches.get() == 0 ? 0 : 1);
    }

    long pair(int follower, int target) {
        return (long) follower * users + target;
    }

    int virtualShard(long userId) {
        return (int) Long.remainderUnsigned(mix(userId), virtualShards);
    }

    /** VirtualShards.mix: MurmurHash3's 64-bit finalizer. */
    static long mix(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** --redis "PORT:FROM-TO,...": the instance (port) of each virtual shard range. */
    int[][] redisPorts() {
        String[] parts = redis.split(",");
        int[][] ranges = new int[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            Matcher m = Pattern.compile("\\s*(\\d+):(\\d+)-(\\d+)\\s*").matcher(parts[i]);
            if (!m.matches()) {
                throw new IllegalArgumentException("--redis wants PORT:FROM-TO,... not " + redis);
            }
            ranges[i] = new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))};
        }
        return ranges;
    }

    int portOf(int vs) {
        for (int[] r : redisPorts()) {
            if (vs >= r[1] && vs <= r[2]) {
                return r[0];
            }
        }
        throw new IllegalStateException("no Redis instance in --redis " + redis + " for virtual shard " + vs);
    }

    // ------------------------------------------------------------------------------------------------ receivers

    int receivers() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        List<String[]> boards = new ArrayList<>();
        for (String line : Files.readAllLines(celebritiesFile)) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 2) {
                boards.add(f);
            }
        }
        if (boards.isEmpty()) {
            System.err.println("no boards in " + celebritiesFile);
            return 1;
        }
        int problems = 0;
        for (int run = 1 - warmup; run <= runs; run++) {
            long totalNanos = 0;
            long totalPages = 0;
            long totalItems = 0;
            for (String[] board : boards) {
                String owner = board[0];
                String id = board[1];
                Set<String> seen = new HashSet<>();
                long pages = 0;
                long items = 0;
                long duplicates = 0;
                long disorder = 0;
                long maxPageMs = 0;
                String last = null;
                String cursor = null;
                long t0 = System.nanoTime();
                do {
                    String url = base + "/v1/boards/" + id + "/receivers?limit=" + limit
                            + (cursor == null ? "" : "&cursor=" + java.net.URLEncoder.encode(cursor, StandardCharsets.UTF_8));
                    long p0 = System.nanoTime();
                    HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token).GET().build(),
                            HttpResponse.BodyHandlers.ofString());
                    maxPageMs = Math.max(maxPageMs, (System.nanoTime() - p0) / 1_000_000);
                    if (response.statusCode() != 200) {
                        System.err.printf("receivers of board %s: page %d -> %d %s%n", id, pages + 1,
                                response.statusCode(), response.body());
                        problems++;
                        break;
                    }
                    String body = response.body();
                    pages++;
                    Matcher item = ITEM.matcher(body);
                    while (item.find()) {
                        items++;
                        if (!seen.add(item.group(1))) {
                            duplicates++;
                        }
                        String at = item.group(2);
                        if (last != null && Instant.parse(at).isAfter(Instant.parse(last))) {
                            disorder++;
                        }
                        last = at;
                    }
                    Matcher next = NEXT.matcher(body);
                    cursor = next.find() && next.group(2) != null ? next.group(2) : null;
                } while (cursor != null);
                long nanos = System.nanoTime() - t0;
                HttpResponse<String> profile = client.send(HttpRequest.newBuilder(URI.create(base + "/v1/users/" + owner))
                        .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
                String followers = find(FOLLOWERS, profile.body());
                boolean countOk = followers != null && !followers.equals("null") && Long.parseLong(followers) == seen.size();
                if (duplicates > 0 || disorder > 0 || !countOk) {
                    problems++;
                }
                totalNanos += nanos;
                totalPages += pages;
                totalItems += items;
                System.out.printf(Locale.ROOT, "RECEIVERS %s board=%s owner=%s pages=%d receivers=%d unique=%d"
                                + " owner_followers=%s duplicates=%d out_of_order=%d ms=%.1f max_page_ms=%d%s%n",
                        run <= 0 ? "warmup" : "run=" + run, id, owner, pages, items, seen.size(), followers, duplicates,
                        disorder, nanos / 1e6, maxPageMs, countOk && duplicates == 0 && disorder == 0 ? "" : " PROBLEM");
            }
            if (run > 0) {
                System.out.printf(Locale.ROOT, "RESULT name=receivers run=%d boards=%d ms=%.1f pages=%d receivers=%d"
                                + " receivers_per_s=%.0f problems=%d%n", run, boards.size(), totalNanos / 1e6, totalPages,
                        totalItems, totalItems / (totalNanos / 1e9), problems);
            }
        }
        return problems == 0 ? 0 : 1;
    }

    // ------------------------------------------------------------------------------------------------ HTTP

    void startClient() {
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
        lastPhaseSeconds = secs;
        String line = String.format(Locale.ROOT, "%.1f s (%d requests, %.0f/s, %d failed)", secs, n, n / secs,
                phaseFailed.get());
        phaseTimes.put(name, line);
        System.out.printf(Locale.ROOT, "%-7s done: %s%n", name, line);
    }

    volatile long lastDone;
    volatile long lastTick;
    volatile double lastPhaseSeconds;

    void progress() {
        long now = System.nanoTime();
        long done = phaseDone.get();
        double interval = (now - lastTick) / 1e9;
        double elapsed = (now - phaseStartNanos) / 1e9;
        double rate = (done - lastDone) / interval;
        double avg = done / elapsed;
        double eta = avg > 0 ? (phaseTotal - done) / avg : Double.NaN;
        System.out.printf(Locale.ROOT, "%-7s %8d/%-8d %6.0f req/s now, %6.0f avg, in flight %2d, failed %d, retries %d, eta %.0f s%n",
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

    CompletableFuture<String> get(String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.build(), 0, false);
    }

    /**
     * Sends with retries on I/O errors and 5xx / 429; a 4xx other than 429 fails at once, except a 409 when
     * conflictOk (sign-up: the user exists), which completes with an empty body.
     */
    CompletableFuture<String> send(HttpRequest request, int attempt, boolean conflictOk) {
        requests.incrementAndGet();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .handle((response, error) -> {
                    int status = error != null ? -1 : response.statusCode();
                    if (status >= 200 && status < 300) {
                        return CompletableFuture.completedFuture(response.body());
                    }
                    if (status == 409 && conflictOk) {
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

    static String find(Pattern pattern, String body) {
        Matcher m = pattern.matcher(body == null ? "" : body);
        return m.find() ? m.group(1) : null;
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
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve(name), StandardCharsets.UTF_8))) {
            lines.forEach(w::println);
        }
    }

    /** An open-addressing set of non-negative longs (follower * users + target): 8 bytes a slot, half full at most. */
    static final class LongHashSet {
        private long[] slots; // value + 1; 0 is empty
        private int size;
        private int mask;

        LongHashSet(int expected) {
            int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
            slots = new long[capacity];
            mask = capacity - 1;
        }

        boolean add(long value) {
            if (2L * (size + 1) > slots.length) {
                grow();
            }
            long key = value + 1;
            int i = (int) mix(value) & mask;
            while (slots[i] != 0) {
                if (slots[i] == key) {
                    return false;
                }
                i = (i + 1) & mask;
            }
            slots[i] = key;
            size++;
            return true;
        }

        boolean contains(long value) {
            long key = value + 1;
            int i = (int) mix(value) & mask;
            while (slots[i] != 0) {
                if (slots[i] == key) {
                    return true;
                }
                i = (i + 1) & mask;
            }
            return false;
        }

        private void grow() {
            long[] old = slots;
            slots = new long[old.length * 2];
            mask = slots.length - 1;
            size = 0;
            for (long key : old) {
                if (key != 0) {
                    add(key - 1);
                }
            }
        }
    }
}
