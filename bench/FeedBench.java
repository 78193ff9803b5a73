import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Drives the home-feed benchmark's API phases against a running Pinion loaded by bench/BulkLoad.java.
 *
 * <pre>
 * java bench/FeedBench.java follow  --base URL --tokens tokens.txt --users users.txt --readers 2000 \
 *     --authors-per-reader 2 --min-pins 50 --out DIR
 * java bench/FeedBench.java pins    --base URL --tokens tokens.txt --count 20000 [--skip 2000]
 * java bench/FeedBench.java cursors --base URL --tokens DIR/readers.txt --visits 2 --limit 25 --out DIR/cursors.txt
 * </pre>
 *
 * <ul>
 * <li><b>follow</b>: the first --readers lines of the tokens file ({@code <jwt> <userId>}) are the readers. Samples
 * random users of --users until it has --authors authors (default 200) with at least --min-pins pins (profile
 * counts), then makes every reader follow --authors-per-reader of them ({@code PUT /v1/me/following/users/{id}}),
 * so each follow backfills up to 50 recent pins into the reader's following pool (feed-follow-events jobs). Writes
 * {@code readers.txt} (the readers' lines) into --out.</li>
 * <li><b>pins</b>: creates --count pins ({@code POST /v1/pins}), each by a uniformly random token user after the
 * first --skip lines, on that user's newest board, tagged with one interest; their fan-out jobs do the rest.</li>
 * <li><b>cursors</b>: each line's user visits the first page --visits times ({@code GET /v1/me/home-feed?limit=}),
 * one visit after the other per user; the last visit's nextCursor (when there is one) is written as
 * {@code <jwt> <cursor>} to --out, for the next-page wrk run. Reports the items on the first and last visits.</li>
 * </ul>
 * At most --concurrency (default 32) requests are in flight; 429/5xx and I/O errors are retried 3 times. Every
 * command ends with one {@code RESULT name=<command> ...} line.
 */
public class FeedBench {

    static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"(\\d+)\"");
    static final Pattern PINS = Pattern.compile("\"pins\"\\s*:\\s*(\\d+)");
    static final Pattern CURSOR = Pattern.compile("\"nextCursor\"\\s*:\\s*\"([^\"]+)\"");
    static final Pattern FRESH = Pattern.compile("\"fresh\"\\s*:\\s*true");
    static final Pattern ITEM = Pattern.compile("\"source\"\\s*:");
    static final String[] INTERESTS = {"travel", "food", "diy", "cats", "dogs", "design", "fitness", "art"};

    final Map<String, String> options = new ConcurrentHashMap<>();
    HttpClient http;
    Semaphore inFlight;
    final AtomicLong failures = new AtomicLong();

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: FeedBench follow|pins|cursors [--option value ...] (see the header comment)");
            System.exit(2);
        }
        FeedBench bench = new FeedBench();
        for (int i = 1; i + 1 < args.length; i += 2) {
            bench.options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        bench.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .executor(Executors.newFixedThreadPool(4)).build();
        bench.inFlight = new Semaphore(bench.integer("concurrency", 32));
        switch (args[0]) {
            case "follow" -> bench.follow();
            case "pins" -> bench.pins();
            case "cursors" -> bench.cursors();
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
        System.exit(bench.failures.get() == 0 ? 0 : 1);
    }

    void follow() throws Exception {
        List<String[]> readers = lines(option("tokens", null)).subList(0, integer("readers", 2000));
        List<String> users = Files.readAllLines(Path.of(option("users", null)));
        int wanted = integer("authors", 200);
        int minPins = integer("min-pins", 50);
        Random random = new Random(42);
        List<String> authors = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        while (authors.size() < wanted) {
            List<String> sample = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                sample.add(users.get(random.nextInt(users.size())).trim());
            }
            run(sample.size(), i -> get("/v1/users/" + sample.get(i), null).thenAccept(body -> {
                if (Integer.parseInt(match(PINS, body)) >= minPins && authors.size() < wanted) {
                    authors.add(sample.get(i));
                }
            }));
        }
        int each = integer("authors-per-reader", 2);
        AtomicInteger changed = new AtomicInteger();
        run(readers.size() * each, k -> {
            String[] reader = readers.get(k / each);
            String author = authors.get(Math.floorMod((k * 7919L + k / each), authors.size()));
            return author.equals(reader[1]) ? done()
                    : send("PUT", "/v1/me/following/users/" + author, reader[0], null)
                            .thenAccept(body -> { if (body.contains("\"changed\":true")) changed.incrementAndGet(); });
        });
        Path out = Path.of(option("out", "bench/data/feed"));
        Files.createDirectories(out);
        Files.write(out.resolve("readers.txt"), readers.stream().map(r -> r[0] + " " + r[1]).toList());
        System.out.printf(Locale.ROOT, "RESULT name=follow readers=%d authors=%d follows=%d changed=%d failures=%d elapsed_s=%.1f%n",
                readers.size(), authors.size(), readers.size() * each, changed.get(), failures.get(), seconds(start));
    }

    void pins() throws Exception {
        List<String[]> tokens = lines(option("tokens", null));
        int skip = integer("skip", 0);
        int count = integer("count", 20000);
        Map<String, String> boards = new ConcurrentHashMap<>();
        Random random = new Random();
        AtomicInteger created = new AtomicInteger();
        long start = System.nanoTime();
        run(count, p -> {
            String[] user = tokens.get(skip + random.nextInt(tokens.size() - skip));
            CompletableFuture<String> board = boards.containsKey(user[1])
                    ? CompletableFuture.completedFuture(boards.get(user[1]))
                    : get("/v1/users/" + user[1] + "/boards?limit=1", null).thenApply(body -> {
                        String id = match(ID, body);
                        boards.put(user[1], id);
                        return id;
                    });
            return board.thenCompose(id -> send("POST", "/v1/pins", user[0], "{\"boardId\":\"" + id
                    + "\",\"description\":\"feed benchmark pin " + p + "\",\"imageUrl\":\"https://img.example.com/feed/"
                    + p + ".jpg\",\"interests\":[\"" + INTERESTS[p % INTERESTS.length] + "\"]}"))
                    .thenAccept(body -> created.incrementAndGet());
        });
        double elapsed = seconds(start);
        System.out.printf(Locale.ROOT, "RESULT name=pins created=%d failures=%d elapsed_s=%.1f pins_per_s=%.0f%n",
                created.get(), failures.get(), elapsed, created.get() / elapsed);
    }

    void cursors() throws Exception {
        List<String[]> readers = lines(option("tokens", null));
        int visits = integer("visits", 2);
        String limit = option("limit", "25");
        String[] cursors = new String[readers.size()];
        AtomicLong firstItems = new AtomicLong();
        AtomicLong firstFresh = new AtomicLong();
        AtomicLong lastItems = new AtomicLong();
        long start = System.nanoTime();
        run(readers.size(), r -> visit(readers.get(r)[0], limit, visits, 1, firstItems, firstFresh, lastItems)
                .thenAccept(body -> {
                    Matcher m = CURSOR.matcher(body);
                    if (m.find()) {
                        cursors[r] = readers.get(r)[0] + " " + m.group(1);
                    }
                }));
        List<String> found = new ArrayList<>();
        for (String c : cursors) {
            if (c != null) {
                found.add(c);
            }
        }
        Files.write(Path.of(option("out", "bench/data/feed/cursors.txt")), found);
        int n = readers.size();
        System.out.printf(Locale.ROOT, "RESULT name=cursors readers=%d visits=%d first_items_avg=%.1f first_fresh_avg=%.1f"
                        + " last_items_avg=%.1f cursors=%d failures=%d elapsed_s=%.1f%n", n, visits,
                firstItems.get() / (double) n, firstFresh.get() / (double) n, lastItems.get() / (double) n, found.size(),
                failures.get(), seconds(start));
    }

    CompletableFuture<String> visit(String token, String limit, int visits, int visit, AtomicLong firstItems,
            AtomicLong firstFresh, AtomicLong lastItems) {
        return get("/v1/me/home-feed?limit=" + limit, token).thenCompose(body -> {
            if (visit == 1) {
                firstItems.addAndGet(count(ITEM, body));
                firstFresh.addAndGet(count(FRESH, body));
            }
            if (visit == visits) {
                lastItems.addAndGet(count(ITEM, body));
                return CompletableFuture.completedFuture(body);
            }
            return visit(token, limit, visits, visit + 1, firstItems, firstFresh, lastItems);
        });
    }

    /** Runs n tasks with at most --concurrency requests in flight (each task holds one permit), then waits. */
    void run(int n, IntFunction<CompletableFuture<?>> task) throws InterruptedException {
        List<CompletableFuture<?>> all = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            inFlight.acquire();
            CompletableFuture<?> f;
            try {
                f = task.apply(i);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            all.add(f.whenComplete((ok, error) -> {
                inFlight.release();
                if (error != null) {
                    failures.incrementAndGet();
                }
            }));
        }
        try {
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        } catch (RuntimeException ignored) {
            // counted per task
        }
    }

    CompletableFuture<String> get(String path, String token) {
        return send("GET", path, token, null);
    }

    CompletableFuture<String> send(String method, String path, String token, String body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(option("base", "http://127.0.0.1:18090") + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            builder.header("Content-Type", "application/json");
        }
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        return send(builder.build(), 0);
    }

    CompletableFuture<String> send(HttpRequest request, int attempt) {
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).handle((response, error) -> {
            int status = error != null ? -1 : response.statusCode();
            if (status >= 200 && status < 300) {
                return CompletableFuture.completedFuture(response.body());
            }
            if ((status == -1 || status == 429 || status >= 500) && attempt < 3) {
                return CompletableFuture.supplyAsync(() -> null,
                                CompletableFuture.delayedExecutor(100L << attempt, TimeUnit.MILLISECONDS))
                        .thenCompose(ignored -> send(request, attempt + 1));
            }
            if (failures.get() < 5) {
                System.err.printf("%s %s -> %s%n", request.method(), request.uri().getPath(),
                        error != null ? error : status + " " + response.body());
            }
            return CompletableFuture.<String>failedFuture(new IOException(request.uri().getPath() + " -> " + status));
        }).thenCompose(f -> f);
    }

    List<String[]> lines(String file) throws IOException {
        return Files.readAllLines(Path.of(file)).stream().map(String::trim).filter(l -> !l.isEmpty())
                .map(l -> l.split("\\s+")).toList();
    }

    String option(String name, String fallback) {
        String value = options.getOrDefault(name, fallback);
        if (value == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }

    int integer(String name, int fallback) {
        return Integer.parseInt(option(name, Integer.toString(fallback)));
    }

    static int count(Pattern pattern, String body) {
        Matcher m = pattern.matcher(body);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    static String match(Pattern pattern, String body) {
        Matcher m = pattern.matcher(body);
        if (!m.find()) {
            throw new IllegalStateException("unexpected response: " + body);
        }
        return m.group(1);
    }

    static CompletableFuture<Object> done() {
        return CompletableFuture.completedFuture(null);
    }

    static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }
}
