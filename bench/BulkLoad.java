import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.*;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Writes a large data set straight into Pinion's backends (sharded MySQL, the follower graph on Redis), exactly as the
 * service stores it when the same users, boards, pins and follows are created through the API, in well under a minute
 * instead of hours (the API loads ~500 pins/s). Needs the mariadb (or mysql) client and redis-cli, and shard databases
 * the service has migrated (it does at start).
 *
 * <pre>
 * java bench/BulkLoad.java [--users 100000] [--boards-per-user 2] [--pins 1000000] [--edges 1000000]
 *     [--celebrities 3] [--token-users 20000] [--jwt-key /tmp/pinion-bench/keys/priv.pem] [--out bench/data/bulk]
 *     [--topology src/main/resources/topology/local.json] [--prefix NAME] [--seed 42] [--keep-files]
 * </pre>
 *
 * <b>Data.</b> Users {@code <prefix>_<n>} (a fresh prefix per run unless --prefix) created 90 to 60 days ago, each on
 * a random open shard like sign-up, all with the password {@link #PASSWORD} (bcrypt cost 4 as in bench/app.sh, hashed
 * once with the service's BcryptUtil; --password-hash for another). --boards-per-user boards per user, on its shard,
 * created just after it. --pins pins over the last 30 days on boards drawn with weight 1/rank^--skew (0.7) over a
 * shuffled board order (as LoadData), each with 1-2 interests. --edges follows over the last 30 days, as GraphLoad:
 * users 0..celebrities-1 are followed by everyone, the rest go from a uniformly random follower to a target drawn
 * with weight 1/rank^--follow-skew (1.0); no self-follows, no duplicates.
 *
 * <p><b>MySQL</b> (hosts and shards from the topology file, $PINION_TOPOLOGY_FILE or the local default; user and
 * password --mysql-user/--mysql-password, else $PINION_MYSQL_USER/$PINION_MYSQL_PASSWORD, else pinion): rows of
 * {@code users}, {@code boards}, {@code pins} (JSON blobs byte for byte as the service's Jackson writes UserData,
 * BoardData, PinData; ts = creation time), {@code user_has_boards}, {@code board_has_pins}, {@code user_has_pins}
 * (sequence = creation ms << 20, as Sequences.now()), {@code counters} (users' boards and pins, boards' pins; only
 * non-zero ones, as the service leaves them) and {@code usernames} (on the shard of SHA-256(name), as
 * UsernamePlacement). Local ids are AUTO_INCREMENT values: per shard table the loader reads AUTO_INCREMENT, skips
 * --id-gap (10,000) ids for rows the running service may add meanwhile, and loads explicit ids above them, the highest
 * first, so the first row moves the counter past the whole range: every id the service hands out later is higher.
 * Ids ascend with creation time. LOAD DATA LOCAL INFILE, at most --chunk (5,000) rows per statement, one client per
 * host, hosts in parallel; LOCAL makes duplicate keys mere warnings, so each statement's ROW_COUNT() and warning
 * count are checked.
 *
 * <p><b>Redis</b> (instances and virtual shards from the topology): per follow A -> C at time t (microseconds, unique
 * across the load, so the scripts' "fresh score" rule keeps t on both sides) {@code ZADD g:{vs(A)}:u:A:fu t C} and
 * {@code ZADD g:{vs(C)}:u:C:fre t A}: what follow_user.lua, mirror_user.lua and the settle step leave (no pair index,
 * nothing pending); one {@code redis-cli --pipe} per instance. Not written: the home feed (HBase pools, fan-out jobs)
 * and feed-follow-events jobs, as with {@code pinion.graph.feed-events=false}.
 *
 * <p><b>Outputs</b> in --out: {@code users.txt} (user ids; line n is {@code <prefix>_<n>}), {@code boards.txt} (boards
 * with pins), {@code pins.txt}, {@code celebrities.txt} ({@code <userId> <boardId>}, as GraphLoad), {@code checks.txt}
 * ({@code <a> <b>}: --checks pairs, half follows, half not, shuffled), {@code tokens.txt} ({@code <jwt> <userId>} for
 * --token-users random users: TokenIssuer's claims, RS256 with --jwt-key, a PKCS#8 PEM, valid --token-hours 24) and
 * {@code summary.txt}, whose last line is {@code RESULT name=bulk-load users=.. boards=.. pins=.. edges=.. elapsed_s=..}.
 * Load files go to {@code <out>/tsv}, deleted after a clean load unless --keep-files. Exits 1 when a check failed.
 */
public class BulkLoad {

    static final String PASSWORD = "bench-bulk-password-1";
    static final String[] INTERESTS = {"travel", "food", "diy", "cats", "dogs", "design", "fitness", "art", "cars",
            "gardening", "recipes", "fashion", "quotes", "photography", "hiking", "coffee", "books", "music"};
    static final List<String> OBJECT_TABLES = List.of("users", "boards", "pins");
    static final int LOCAL_BITS = 36, TYPE_PIN = 1, TYPE_BOARD = 2, TYPE_USER = 3;
    static final long DAY_US = 86_400_000_000L;
    static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    final Map<String, String> opts = new HashMap<>();
    int users, boardsPerUser, pins, celebrities, tokenUsers, checks, chunk;
    long edges, seed, idGap, tokenHours;
    String prefix, passwordHash, mysqlUser, mysqlPassword;
    Path out, jwtKey, topologyFile;

    // topology: shard -> MySQL host, virtual shard -> Redis instance
    int shardCount, openFrom, openTo, virtualShards;
    final List<String> hostNames = new ArrayList<>(), hostAddrs = new ArrayList<>(), redisAddrs = new ArrayList<>();
    int[] hostOfShard, redisOfVs;

    // the plan: users u, boards b (owner b / boardsPerUser), pins p, follows k (from[k] -> to[k]); times in microseconds.
    // xsOf[xStart[s] .. xStart[s+1]) are the xs on shard s, ascending (= time = local id order).
    int boardCount;
    int[] userShard, boardShard, pinShard, pinBoard, from, to, boardPins, userPins;
    int[] usersOf, userStart, boardsOf, boardStart, pinsOf, pinStart;
    long[] userTime, boardTime, pinTime, edgeTime, userId, boardId, pinId;
    byte[] pinInterests;
    final Set<Long> planned = new HashSet<>();
    long redisCommands;

    public static void main(String[] args) throws Exception {
        BulkLoad load = new BulkLoad();
        load.parse(args);
        System.exit(load.run());
    }

    void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("-h") || args[i].equals("--help")) {
                System.out.println("options: --users --boards-per-user --pins --edges --celebrities --skew --follow-skew"
                        + " --token-users --token-hours --jwt-key --issuer --checks --out --topology --prefix --seed"
                        + " --id-gap --chunk --mysql-user --mysql-password --password-hash --keep-files (see the header)");
                System.exit(0);
            }
            opts.put(args[i], args[i].equals("--keep-files") ? "true" : args[++i]);
        }
        users = (int) num("--users", 100_000);
        boardsPerUser = (int) num("--boards-per-user", 2);
        pins = (int) num("--pins", 1_000_000);
        edges = num("--edges", 1_000_000);
        celebrities = (int) num("--celebrities", 3);
        tokenUsers = (int) Math.min(users, num("--token-users", 20_000));
        tokenHours = num("--token-hours", 24);
        checks = (int) num("--checks", 100_000);
        seed = num("--seed", 42);
        idGap = num("--id-gap", 10_000);
        chunk = (int) num("--chunk", 5_000);
        prefix = opt("--prefix", "k" + Long.toString(Instant.now().getEpochSecond(), 36)); // fresh, [a-z0-9_]
        passwordHash = opt("--password-hash", "$2a$04$i2xJh6/AvjA69iPACVbp8OykWC4H0a0XrJL1IaPUfIdEJh19XqlJy");
        mysqlUser = opt("--mysql-user", env("PINION_MYSQL_USER", "pinion"));
        mysqlPassword = opt("--mysql-password", env("PINION_MYSQL_PASSWORD", "pinion"));
        out = Path.of(opt("--out", "bench/data/bulk"));
        jwtKey = Path.of(opt("--jwt-key", "/tmp/pinion-bench/keys/priv.pem"));
        topologyFile = Path.of(opt("--topology", env("PINION_TOPOLOGY_FILE", "src/main/resources/topology/local.json")));
        if (!prefix.matches("[a-z0-9_]{1,20}") || (prefix + "_" + (users - 1)).length() > 30) {
            throw new IllegalArgumentException("--prefix must be 1-20 of a-z 0-9 _, and <prefix>_<n> at most 30 chars");
        }
        if (users < 2 || boardsPerUser < 1 || pins < 0 || celebrities < 0 || celebrities >= users || chunk < 1) {
            throw new IllegalArgumentException("need --users >= 2, --boards-per-user >= 1, 0 <= --celebrities < --users");
        }
    }

    String opt(String name, String fallback) {
        return opts.getOrDefault(name, fallback);
    }

    long num(String name, long fallback) {
        return opts.containsKey(name) ? Long.parseLong(opts.get(name)) : fallback;
    }

    static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    int run() throws Exception {
        long t0 = System.nanoTime();
        readTopology();
        PrivateKey key = tokenUsers > 0 ? privateKey() : null; // before anything is written
        plan(new Random(seed), Instant.now().toEpochMilli() * 1000 - 60_000_000L); // all of it before the load started
        usersOf = groupBy(userShard, shardCount, userStart = new int[shardCount + 1]);
        boardsOf = groupBy(boardShard, shardCount, boardStart = new int[shardCount + 1]);
        pinsOf = groupBy(pinShard, shardCount, pinStart = new int[shardCount + 1]);
        long[][] base = reserveIds();
        userId = ids(userShard, TYPE_USER, base[0]);
        boardId = ids(boardShard, TYPE_BOARD, base[1]);
        pinId = ids(pinShard, TYPE_PIN, base[2]);
        Path tsv = Files.createDirectories(out.resolve("tsv"));
        System.out.printf(Locale.ROOT, "prefix %s: %d users, %d boards, %d pins, %d edges; %d MySQL hosts, %d Redis"
                + " instances; planned in %.1f s%n", prefix, users, boardCount, pins, from.length, hostNames.size(),
                redisAddrs.size(), (System.nanoTime() - t0) / 1e9);

        // MySQL: the files, then one client per host running its LOAD DATA script in the background
        long tMysql = System.nanoTime();
        List<List<Load>> loads = writeMysqlFiles(tsv);
        List<Process> mysqls = new ArrayList<>();
        for (int h = 0; h < hostNames.size(); h++) {
            Path script = Files.writeString(tsv.resolve(hostNames.get(h) + ".sql"), script(loads.get(h)));
            mysqls.add(mysql(h, "--local-infile=1").redirectInput(script.toFile()).redirectErrorStream(true)
                    .redirectOutput(tsv.resolve(hostNames.get(h) + ".log").toFile()).start());
        }

        long tRedis = System.nanoTime();
        boolean ok = loadRedis(tsv); // while MySQL loads, and so are the tokens signed
        double redisSecs = (System.nanoTime() - tRedis) / 1e9;
        long tTokens = System.nanoTime();
        List<String> tokenLines = tokens(key, new Random(seed + 2));
        double tokenSecs = (System.nanoTime() - tTokens) / 1e9;
        for (int h = 0; h < mysqls.size(); h++) {
            ok &= checkMysql(h, mysqls.get(h).waitFor(), tsv.resolve(hostNames.get(h) + ".log"), loads.get(h));
        }
        double mysqlSecs = (System.nanoTime() - tMysql) / 1e9;

        write("users.txt", Arrays.stream(userId).mapToObj(Long::toString).toList());
        write("boards.txt", IntStream.range(0, boardCount).filter(b -> boardPins[b] > 0)
                .mapToObj(b -> Long.toString(boardId[b])).toList());
        write("pins.txt", Arrays.stream(pinId).mapToObj(Long::toString).toList());
        write("celebrities.txt", IntStream.range(0, celebrities)
                .mapToObj(c -> userId[c] + " " + boardId[c * boardsPerUser]).toList());
        write("checks.txt", checkLines(new Random(seed + 1)));
        write("tokens.txt", tokenLines);
        if (ok && !opts.containsKey("--keep-files")) {
            try (var files = Files.list(tsv)) {
                files.forEach(f -> f.toFile().delete());
            }
            Files.delete(tsv);
        }
        int[] sorted = boardPins.clone(), inDegree = new int[users];
        Arrays.sort(sorted);
        Arrays.stream(to).forEach(u -> inDegree[u]++);
        String summary = String.format(Locale.ROOT, """
                prefix            %s (usernames %s_0 .. %s_%d, password %s)
                finished          %s, topology %s
                users             %d on shards %d..%d
                boards            %d (%d with pins -> boards.txt)
                pins              %d; per board max %d, p99 %d, p90 %d, median %d (skew %s)
                follows           %d: %d celebrities followed by everyone, the rest Zipf s=%s; top other in-degree %d
                tokens            %d (valid %d h), signed in %.1f s
                time mysql        %.1f s (files, then LOAD DATA, hosts in parallel)
                time redis        %.1f s (%d ZADDs, instances in parallel)
                status            %s
                RESULT name=bulk-load users=%d boards=%d pins=%d edges=%d elapsed_s=%.1f
                """, prefix, prefix, prefix, users - 1, PASSWORD, Instant.now(), topologyFile, users, openFrom, openTo,
                boardCount, Arrays.stream(boardPins).filter(c -> c > 0).count(), pins, sorted[boardCount - 1],
                sorted[(int) (boardCount * 0.99)], sorted[(int) (boardCount * 0.9)], sorted[boardCount / 2],
                opt("--skew", "0.7"), from.length, celebrities, opt("--follow-skew", "1.0"),
                IntStream.range(celebrities, users).map(u -> inDegree[u]).max().orElse(0), tokenLines.size(), tokenHours,
                tokenSecs, mysqlSecs, redisSecs, redisCommands, ok ? "ok" : "FAILED (files kept in " + tsv + ")",
                users, boardCount, pins, from.length, (System.nanoTime() - t0) / 1e9);
        Files.writeString(out.resolve("summary.txt"), summary);
        System.out.print(summary);
        return ok ? 0 : 1;
    }

    // ------------------------------------------------------------------------------------------------ plan

    void plan(Random random, long nowUs) {
        // users evenly over [now-90d, now-60d], boards right after their user: index order = time order
        userShard = new int[users];
        userTime = new long[users];
        long spacing = 30 * DAY_US / users;
        for (int u = 0; u < users; u++) {
            userShard[u] = openFrom + random.nextInt(openTo - openFrom + 1);
            userTime[u] = nowUs - 90 * DAY_US + u * spacing + (long) (random.nextDouble() * spacing / 2);
        }
        boardCount = users * boardsPerUser;
        boardTime = new long[boardCount];
        boardShard = new int[boardCount];
        for (int b = 0; b < boardCount; b++) {
            boardShard[b] = userShard[b / boardsPerUser];
            boardTime[b] = userTime[b / boardsPerUser] + (b % boardsPerUser + 1) * (spacing / (2L * boardsPerUser + 2) + 1);
        }
        // pins: sorted random times over the last 30 days, boards Zipf-like over a shuffled order, 1-2 interests
        pinTime = new long[pins];
        for (int p = 0; p < pins; p++) {
            pinTime[p] = nowUs - 30 * DAY_US + (long) (random.nextDouble() * 30 * DAY_US);
        }
        Arrays.sort(pinTime);
        int[] boardOrder = shuffled(boardCount, random);
        double[] cdf = zipfCdf(boardCount, Double.parseDouble(opt("--skew", "0.7")));
        pinBoard = new int[pins];
        pinShard = new int[pins];
        pinInterests = new byte[2 * pins];
        boardPins = new int[boardCount];
        userPins = new int[users];
        for (int p = 0; p < pins; p++) {
            pinBoard[p] = boardOrder[sample(cdf, random)];
            pinShard[p] = boardShard[pinBoard[p]];
            boardPins[pinBoard[p]]++;
            userPins[pinBoard[p] / boardsPerUser]++;
            pinInterests[2 * p] = (byte) random.nextInt(INTERESTS.length);
            int second = random.nextBoolean() ? random.nextInt(INTERESTS.length) : -1;
            pinInterests[2 * p + 1] = (byte) (second == pinInterests[2 * p] ? -1 : second);
        }
        // follows as GraphLoad plans them; a shuffled order is their time order, each at its own microseconds
        long n = Math.max(edges, (long) celebrities * (users - 1));
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many edges");
        }
        int[] f = new int[(int) n], t = new int[(int) n];
        int e = 0;
        for (int c = 0; c < celebrities; c++) {
            for (int u = 0; u < users; u++) {
                if (u != c && planned.add((long) u * users + c)) {
                    f[e] = u;
                    t[e++] = c;
                }
            }
        }
        int[] rankOrder = shuffled(users - celebrities, random);
        cdf = zipfCdf(users - celebrities, Double.parseDouble(opt("--follow-skew", "1.0")));
        for (long attempts = 0; e < n && attempts < 50 * n + 1000; attempts++) {
            int follower = random.nextInt(users), target = celebrities + rankOrder[sample(cdf, random)];
            if (follower != target && planned.add((long) follower * users + target)) {
                f[e] = follower;
                t[e++] = target;
            }
        }
        int[] order = shuffled(e, random);
        from = new int[e];
        to = new int[e];
        edgeTime = new long[e];
        for (int k = 0; k < e; k++) {
            from[k] = f[order[k]];
            to[k] = t[order[k]];
            edgeTime[k] = nowUs - 30 * DAY_US + (long) (k * ((30.0 * DAY_US - 1) / e));
        }
    }

    /** PinionId values (shard: 16 bits | type: 10 | local: 36): per shard, consecutive local ids from base[shard]. */
    static long[] ids(int[] shardOf, int type, long[] base) {
        long[] next = base.clone(), ids = new long[shardOf.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = ((long) shardOf[i] << 46) | ((long) type << LOCAL_BITS) | next[shardOf[i]]++;
        }
        return ids;
    }

    List<String> checkLines(Random random) {
        List<String> lines = new ArrayList<>(checks);
        for (int c = 0; c < checks / 2 && from.length > 0; c++) {
            int k = random.nextInt(from.length);
            lines.add(userId[from[k]] + " " + userId[to[k]]);
        }
        for (int tries = 0; lines.size() < checks && tries < checks * 20; tries++) {
            int a = random.nextInt(users), b = random.nextInt(users);
            if (a != b && !planned.contains((long) a * users + b)) {
                lines.add(userId[a] + " " + userId[b]);
            }
        }
        Collections.shuffle(lines, random);
        return lines;
    }

    // ------------------------------------------------------------------------------------------------ MySQL

    /** One LOAD DATA statement: a TSV file into a shard table, and how many rows it must add. */
    record Load(Path file, int shard, String table, int rows) {
    }

    List<List<Load>> writeMysqlFiles(Path dir) throws Exception {
        int[] nameShard = new int[users], nameStart = new int[shardCount + 1];
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256"); // UsernamePlacement: 8 bytes, floor-mod shards
        for (int u = 0; u < users; u++) {
            long hash = ByteBuffer.wrap(sha256.digest((prefix + "_" + u).getBytes(StandardCharsets.UTF_8))).getLong();
            nameShard[u] = (int) Math.floorMod(hash, (long) shardCount);
        }
        int[] namesOf = groupBy(nameShard, shardCount, nameStart);
        List<List<Load>> loads = new ArrayList<>();
        hostNames.forEach(h -> loads.add(new ArrayList<>()));
        for (int s = 0; s < shardCount; s++) {
            Map<String, List<String>> rows = new LinkedHashMap<>(); // table -> TSV lines, tables in load order
            for (int n = 0; n < userStart[s + 1] - userStart[s]; n++) {
                int u = usersOf[highestFirst(userStart, s, n)];
                add(rows, "users", local(userId[u]), json("username", prefix + "_" + u, "displayName", "Bulk user " + u,
                        "passwordHash", passwordHash, "createdAt", iso(userTime[u])) + ",\"active\":true}", ts(userTime[u]));
            }
            for (int i = nameStart[s]; i < nameStart[s + 1]; i++) {
                add(rows, "usernames", prefix + "_" + namesOf[i], userId[namesOf[i]], ts(userTime[namesOf[i]]));
            }
            for (int n = 0; n < boardStart[s + 1] - boardStart[s]; n++) {
                int b = boardsOf[highestFirst(boardStart, s, n)];
                long owner = userId[b / boardsPerUser];
                add(rows, "boards", local(boardId[b]), json("ownerId", Long.toString(owner), "name", "Board " + b,
                        "description", "bulk board " + b + " of " + prefix, "createdAt", iso(boardTime[b]))
                        + ",\"active\":true}", ts(boardTime[b]));
                add(rows, "user_has_boards", owner, boardId[b], sequence(boardTime[b]));
            }
            for (int n = 0; n < pinStart[s + 1] - pinStart[s]; n++) {
                int p = pinsOf[highestFirst(pinStart, s, n)], b = pinBoard[p];
                long owner = userId[b / boardsPerUser];
                String interests = "[\"" + INTERESTS[pinInterests[2 * p]] + "\""
                        + (pinInterests[2 * p + 1] < 0 ? "" : ",\"" + INTERESTS[pinInterests[2 * p + 1]] + "\"") + "]";
                add(rows, "pins", local(pinId[p]), json("ownerId", Long.toString(owner), "boardId", Long.toString(boardId[b]),
                        "description", "Pin " + p + " of " + prefix + ": a bulk-loaded pin with a short description",
                        "link", "https://example.com/articles/" + p, "imageUrl", "https://images.example.com/" + prefix
                                + "/" + p + ".jpg") + ",\"interests\":" + interests + ",\"savedFrom\":null,\"createdAt\":\""
                        + iso(pinTime[p]) + "\",\"active\":true}", ts(pinTime[p]));
                add(rows, "board_has_pins", boardId[b], pinId[p], sequence(pinTime[p]));
                add(rows, "user_has_pins", owner, pinId[p], sequence(pinTime[p]));
            }
            for (int i = userStart[s]; i < userStart[s + 1]; i++) {
                add(rows, "counters", userId[usersOf[i]], "boards", boardsPerUser);
                if (userPins[usersOf[i]] > 0) {
                    add(rows, "counters", userId[usersOf[i]], "pins", userPins[usersOf[i]]);
                }
            }
            for (int i = boardStart[s]; i < boardStart[s + 1]; i++) {
                if (boardPins[boardsOf[i]] > 0) {
                    add(rows, "counters", boardId[boardsOf[i]], "pins", boardPins[boardsOf[i]]);
                }
            }
            for (Map.Entry<String, List<String>> table : rows.entrySet()) { // files of at most --chunk rows
                List<String> lines = table.getValue();
                for (int i = 0; i < lines.size(); i += chunk) {
                    Path file = dir.resolve(shardDb(s) + "." + table.getKey() + "." + i / chunk + ".tsv");
                    List<String> part = lines.subList(i, Math.min(lines.size(), i + chunk));
                    Files.write(file, part, StandardCharsets.UTF_8);
                    loads.get(hostOfShard[s]).add(new Load(file, s, table.getKey(), part.size()));
                }
            }
        }
        return loads;
    }

    /** A TSV line in LOAD DATA's default format (the data has no tabs or newlines; backslashes are escaped). */
    static void add(Map<String, List<String>> rows, String table, Object... fields) {
        StringJoiner line = new StringJoiner("\t");
        for (Object f : fields) {
            line.add(f.toString().replace("\\", "\\\\"));
        }
        rows.computeIfAbsent(table, t -> new ArrayList<>()).add(line.toString());
    }

    static String script(List<Load> loads) {
        StringBuilder sql = new StringBuilder("SET time_zone = '+00:00';\n");
        for (Load l : loads) {
            String columns = switch (l.table()) {
                case "users", "boards", "pins" -> "local_id, data, ts";
                case "usernames" -> "username, user_id, created_at";
                case "counters" -> "object_id, name, value";
                default -> "from_id, to_id, sequence";
            };
            sql.append("LOAD DATA LOCAL INFILE '").append(l.file().toAbsolutePath()).append("' INTO TABLE `")
                    .append(shardDb(l.shard())).append("`.`").append(l.table()).append("` CHARACTER SET utf8mb4 (")
                    .append(columns).append(");\nSELECT 'LOADED', '").append(l.file().getFileName())
                    .append("', ROW_COUNT(), @@warning_count;\n");
        }
        return sql.toString();
    }

    ProcessBuilder mysql(int host, String... extra) {
        String[] hp = hostAddrs.get(host).split(":");
        List<String> cmd = new ArrayList<>(List.of(Files.isExecutable(Path.of("/usr/bin/mariadb")) ? "mariadb" : "mysql",
                "--no-defaults", "-h", hp[0], "-P", hp[1], "-u", mysqlUser, "-N", "-B"));
        cmd.addAll(List.of(extra));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("MYSQL_PWD", mysqlPassword);
        return pb;
    }

    /** Every statement of the host's script answered LOADED with the file's row count and no warnings. */
    boolean checkMysql(int host, int exit, Path log, List<Load> loads) throws IOException {
        Map<String, Load> expected = new HashMap<>();
        loads.forEach(l -> expected.put(l.file().getFileName().toString(), l));
        long rows = 0;
        List<String> problems = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            String[] f = line.split("\t");
            Load l = f.length == 4 && f[0].equals("LOADED") ? expected.remove(f[1]) : null;
            if (l == null || Long.parseLong(f[2]) != l.rows() || !f[3].equals("0")) {
                problems.add(l == null ? line : f[1] + ": " + f[2] + " rows of " + l.rows() + ", " + f[3] + " warnings");
            }
            rows += l == null ? 0 : Long.parseLong(f[2]);
        }
        if (!expected.isEmpty()) {
            problems.add(expected.size() + " files not loaded, e.g. " + expected.keySet().iterator().next());
        }
        boolean ok = exit == 0 && problems.isEmpty();
        System.out.printf("mysql %s: %d statements, %d rows, %s%n", hostNames.get(host), loads.size(), rows,
                ok ? "all as expected" : "FAILED (exit " + exit + "): " + problems.subList(0, Math.min(5, problems.size())));
        return ok;
    }

    /** Per table (users, boards, pins) and shard, the first local id to load: AUTO_INCREMENT + --id-gap. */
    long[][] reserveIds() throws Exception {
        int[][] start = {userStart, boardStart, pinStart};
        long[][] base = new long[3][shardCount];
        for (int h = 0; h < hostNames.size(); h++) {
            StringBuilder dbs = new StringBuilder("'-'");
            for (int s = 0; s < shardCount; s++) {
                dbs.append(hostOfShard[s] == h && userStart[s + 1] > userStart[s] ? ",'" + shardDb(s) + "'" : "");
            }
            Process p = mysql(h, "-e", "SELECT TABLE_SCHEMA, TABLE_NAME, AUTO_INCREMENT FROM information_schema.TABLES"
                    + " WHERE TABLE_NAME IN ('users', 'boards', 'pins') AND TABLE_SCHEMA IN (" + dbs + ")")
                    .redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException("reading AUTO_INCREMENT on " + hostNames.get(h) + " failed: " + output.strip());
            }
            for (String line : output.strip().split("\n")) {
                String[] f = line.split("\t");
                if (f.length == 3) {
                    base[OBJECT_TABLES.indexOf(f[1])][Integer.parseInt(f[0].substring(2))] = Long.parseLong(f[2]) + idGap;
                }
            }
        }
        for (int t = 0; t < 3; t++) {
            for (int s = 0; s < shardCount; s++) {
                int count = start[t][s + 1] - start[t][s];
                if (count > 0 && (base[t][s] == 0 || base[t][s] + count > 1L << LOCAL_BITS)) {
                    throw new IllegalStateException(shardDb(s) + "." + OBJECT_TABLES.get(t) + (base[t][s] > 0 ? " is full"
                            : " is missing: start the service once, so it migrates the shard databases"));
                }
            }
        }
        return base;
    }

    /** The n-th item of shard s in load order: its last (highest local id) first, then the others in order. */
    static int highestFirst(int[] start, int s, int n) {
        return n == 0 ? start[s + 1] - 1 : start[s] + n - 1;
    }

    static String shardDb(int shard) {
        String digits = Integer.toString(shard);
        return "db" + "00000".substring(digits.length()) + digits;
    }

    static long local(long id) {
        return id & ((1L << LOCAL_BITS) - 1);
    }

    static long sequence(long micros) {
        return (micros / 1000) << 20; // Sequences.now(): epoch milliseconds << GAP_BITS
    }

    /** Jackson's ISO_INSTANT text of an Instant.now() taken in that microsecond (nanosecond digits on Linux). */
    static String iso(long micros) {
        long nanos = micros % 1_000_000 * 1000 + Math.floorMod(micros * 7919, 1000);
        return Instant.ofEpochSecond(micros / 1_000_000, nanos).toString();
    }

    static String ts(long micros) {
        return TS.format(Instant.ofEpochMilli(micros / 1000));
    }

    /** The start of a JSON object of string fields, left open for more; the values here need no escaping. */
    static String json(String... kv) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < kv.length; i += 2) {
            sb.append(i == 0 ? "\"" : ",\"").append(kv[i]).append("\":\"").append(kv[i + 1]).append('"');
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------------------------------------ Redis

    /** Both sides of every follow, one redis-cli --pipe per instance; true when every ZADD was answered without error. */
    boolean loadRedis(Path dir) throws Exception {
        List<Process> pipes = new ArrayList<>();
        List<RespWriter> writers = new ArrayList<>();
        for (int r = 0; r < redisAddrs.size(); r++) {
            String[] hp = redisAddrs.get(r).split(":");
            pipes.add(new ProcessBuilder("redis-cli", "-h", hp[0], "-p", hp[1], "--pipe").redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis-" + r + ".log").toFile()).start());
            writers.add(new RespWriter(pipes.get(r).getOutputStream()));
        }
        int[] byFromStart = new int[users + 1], byFrom = groupBy(from, users, byFromStart);
        int[] byToStart = new int[users + 1], byTo = groupBy(to, users, byToStart);
        for (int u = 0; u < users; u++) {
            int vs = virtualShard(userId[u]);
            RespWriter w = writers.get(redisOfVs[vs]);
            w.zadd("g:{" + vs + "}:u:" + userId[u] + ":fu", byFrom, byFromStart[u], byFromStart[u + 1], to, edgeTime);
            w.zadd("g:{" + vs + "}:u:" + userId[u] + ":fre", byTo, byToStart[u], byToStart[u + 1], from, edgeTime);
        }
        boolean ok = true;
        for (int r = 0; r < pipes.size(); r++) {
            writers.get(r).out.close();
            long sent = writers.get(r).commands;
            String log = pipes.get(r).waitFor() + " " + Files.readString(dir.resolve("redis-" + r + ".log")).strip();
            Matcher m = Pattern.compile("errors: (\\d+), replies: (\\d+)").matcher(log);
            boolean good = log.startsWith("0 ") && m.find() && m.group(1).equals("0") && Long.parseLong(m.group(2)) == sent;
            System.out.printf("redis %s: %d ZADDs, %s%n", redisAddrs.get(r), sent, good ? "no errors" : "FAILED: " + log);
            ok &= good;
            redisCommands += sent;
        }
        return ok;
    }

    /** VirtualShards.ofUser: MurmurHash3's 64-bit finalizer, unsigned, modulo the virtual shard count. */
    int virtualShard(long userId) {
        long h = (userId ^ (userId >>> 33)) * 0xff51afd7ed558ccdL;
        h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return (int) Long.remainderUnsigned(h ^ (h >>> 33), virtualShards);
    }

    /** RESP-encoded ZADDs of up to 1,000 members each. */
    final class RespWriter {
        final OutputStream out;
        long commands;

        RespWriter(OutputStream raw) {
            out = new BufferedOutputStream(raw, 1 << 16);
        }

        /** ZADD key with, for each edge idx[start..end), score time[edge] and member userId[other[edge]]. */
        void zadd(String key, int[] idx, int start, int end, int[] other, long[] time) throws IOException {
            for (int i = start; i < end; i += 1000) {
                int n = Math.min(end, i + 1000) - i;
                StringBuilder sb = new StringBuilder(64 + 48 * n).append('*').append(2 + 2 * n).append("\r\n");
                bulk(bulk(sb, "ZADD"), key);
                for (int j = i; j < i + n; j++) {
                    bulk(bulk(sb, Long.toString(time[idx[j]])), Long.toString(userId[other[idx[j]]]));
                }
                out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
                commands++;
            }
        }

        StringBuilder bulk(StringBuilder sb, String s) {
            return sb.append('$').append(s.length()).append("\r\n").append(s).append("\r\n");
        }
    }

    // ------------------------------------------------------------------------------------------------ tokens

    /** TokenIssuer's tokens (iss, sub = user id, upn = username, groups [user], iat, exp, jti), RS256, in parallel. */
    List<String> tokens(PrivateKey key, Random random) {
        if (key == null) {
            return List.of();
        }
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String header = b64.encodeToString("{\"typ\":\"JWT\",\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8));
        long iat = Instant.now().getEpochSecond(), exp = iat + tokenHours * 3600;
        String issuer = opt("--issuer", "pinion");
        int[] sample = shuffled(users, random);
        String[] lines = new String[tokenUsers];
        IntStream.range(0, tokenUsers).parallel().forEach(i -> {
            int u = sample[i];
            String claims = "{\"iss\":\"" + issuer + "\",\"sub\":\"" + userId[u] + "\",\"upn\":\"" + prefix + "_" + u
                    + "\",\"groups\":[\"user\"],\"iat\":" + iat + ",\"exp\":" + exp + ",\"jti\":\"" + UUID.randomUUID()
                    + "\"}";
            String signed = header + "." + b64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
            try {
                Signature rsa = Signature.getInstance("SHA256withRSA");
                rsa.initSign(key);
                rsa.update(signed.getBytes(StandardCharsets.US_ASCII));
                lines[i] = signed + "." + b64.encodeToString(rsa.sign()) + " " + userId[u];
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return Arrays.asList(lines);
    }

    PrivateKey privateKey() throws Exception {
        String pem = Files.readString(jwtKey);
        if (!pem.contains("BEGIN PRIVATE KEY")) {
            throw new IllegalArgumentException(jwtKey + " is not a PKCS#8 PEM (openssl genpkey writes one)");
        }
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
                Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""))));
    }

    // ------------------------------------------------------------------------------------------------ topology

    /** MySQL hosts and Redis instances are the topology's flat objects with a "master" or an "endpoint". */
    void readTopology() throws IOException {
        String doc = Files.readString(topologyFile), text = "\\s*:\\s*\"([^\"]+)\"";
        String ranges = "\\s*:\\s*(\\[\\s*\\[[^{}]*?\\]\\s*\\])";
        shardCount = Integer.parseInt(find(doc, "\"shardCount\"\\s*:\\s*(\\d+)"));
        virtualShards = Integer.parseInt(find(doc, "\"virtualShards\"\\s*:\\s*(\\d+)"));
        int[] open = numbers(find(doc, "\"openShards\"\\s*:\\s*(\\[[^\\]]*\\])"));
        openFrom = open[0];
        openTo = open[1];
        if (find(doc, "\"frozen\"\\s*:\\s*(\\[\\s*\\[)") != null) {
            throw new IllegalStateException("virtual shards are frozen (being moved): load after the move");
        }
        hostOfShard = new int[shardCount];
        redisOfVs = new int[virtualShards];
        Arrays.fill(hostOfShard, -1);
        Arrays.fill(redisOfVs, -1);
        for (Matcher server = Pattern.compile("\\{[^{}]*\\}").matcher(doc); server.find(); ) {
            String o = server.group(), master = find(o, "\"master\"" + text), endpoint = find(o, "\"endpoint\"" + text);
            if (master != null) {
                hostNames.add(find(o, "\"name\"" + text));
                hostAddrs.add(master);
                fill(hostOfShard, numbers(find(o, "\"shards\"" + ranges)), hostNames.size() - 1);
            } else if (endpoint != null) {
                redisAddrs.add(endpoint);
                fill(redisOfVs, numbers(find(o, "\"virtualShards\"" + ranges)), redisAddrs.size() - 1);
            }
        }
        if (Arrays.stream(hostOfShard).anyMatch(h -> h < 0) || Arrays.stream(redisOfVs).anyMatch(r -> r < 0)) {
            throw new IllegalStateException(topologyFile + " leaves shards or virtual shards without a server");
        }
    }

    static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? m.group(1) : null;
    }

    static int[] numbers(String text) {
        return Pattern.compile("\\d+").matcher(text).results().mapToInt(r -> Integer.parseInt(r.group())).toArray();
    }

    /** owner[from..to] = index for every [from, to] pair of the numbers. */
    static void fill(int[] owner, int[] pairs, int index) {
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            Arrays.fill(owner, pairs[i], pairs[i + 1] + 1, index);
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** Counting sort: the indexes 0..n-1 grouped by key, ascending within a group; group k is start[k]..start[k+1]. */
    static int[] groupBy(int[] key, int keys, int[] start) {
        for (int k : key) {
            start[k + 1]++;
        }
        for (int k = 0; k < keys; k++) {
            start[k + 1] += start[k];
        }
        int[] fill = Arrays.copyOf(start, keys), items = new int[key.length];
        for (int i = 0; i < key.length; i++) {
            items[fill[key[i]]++] = i;
        }
        return items;
    }

    static int[] shuffled(int n, Random random) {
        int[] a = IntStream.range(0, n).toArray();
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1), t = a[i];
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
            cdf[i] = sum += 1.0 / Math.pow(i + 1, s);
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
        Files.write(out.resolve(name), lines, StandardCharsets.UTF_8);
    }
}
