import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * Raw HBase rates on one cluster, with rows shaped like the feed's pool rows, for comparison with the service's
 * fan-out and home-feed rates measured in the same session.
 *
 * <pre>
 * java -cp "target/quarkus-app/lib/main/*" bench/HBaseRaw.java --bootstrap 127.0.0.1:16100 \
 *     [--users 100000] [--batch 1000] [--put-concurrency 8] [--scan-concurrency 64] [--limit 25] \
 *     [--seconds 20] [--runs 3]
 * </pre>
 *
 * Creates (drops first, if present) table {@code pinion_bench_raw}: one family {@code p}, one version, pre-split
 * on the first key byte into 16 regions, like {@code pinion_feed_pools}. Row keys are the pool key layout
 * (salt | user | source | inverted score | pin, 26 bytes) with a 24-byte value.
 * <ul>
 * <li><b>put</b>: --put-concurrency batches of --batch puts in flight ({@code AsyncTable.putAll}), users uniform
 * over --users, for --seconds; rows/s and batch latency p50/p99.</li>
 * <li><b>scan</b>: --scan-concurrency prefix scans in flight, each the best --limit rows of a random user's pool
 * ({@code setStartStopRowForPrefixScan}, {@code setLimit}), over the rows the put runs wrote; scans/s and p50/p99.</li>
 * </ul>
 * Each phase runs --runs times; every run prints a {@code RUN} line, each phase a final
 * {@code RESULT name=hbase-put|hbase-scan rate=<median> p50_ms=.. p99_ms=.. runs=a/b/c} line. The table is dropped at
 * the end unless --keep.
 */
public class HBaseRaw {

    static final TableName TABLE = TableName.valueOf("pinion_bench_raw");
    static final byte[] FAMILY = { 'p' };
    static final byte[] COLUMN = { 'e' };

    String bootstrap = "127.0.0.1:16100";
    int users = 100_000;
    int batch = 1000;
    int putConcurrency = 8;
    int scanConcurrency = 64;
    int limit = 25;
    int seconds = 20;
    int runs = 3;
    boolean keep = false;

    public static void main(String[] args) throws Exception {
        HBaseRaw raw = new HBaseRaw();
        raw.parse(args);
        raw.run();
        System.exit(0);
    }

    void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--keep")) {
                keep = true;
                continue;
            }
            String v = args[++i];
            switch (a) {
                case "--bootstrap" -> bootstrap = v;
                case "--users" -> users = Integer.parseInt(v);
                case "--batch" -> batch = Integer.parseInt(v);
                case "--put-concurrency" -> putConcurrency = Integer.parseInt(v);
                case "--scan-concurrency" -> scanConcurrency = Integer.parseInt(v);
                case "--limit" -> limit = Integer.parseInt(v);
                case "--seconds" -> seconds = Integer.parseInt(v);
                case "--runs" -> runs = Integer.parseInt(v);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
    }

    void run() throws Exception {
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
        conf.set("hbase.client.bootstrap.servers", bootstrap);
        try (AsyncConnection connection = ConnectionFactory.createAsyncConnection(conf).get()) {
            recreate(connection);
            AsyncTable<AdvancedScanResultConsumer> table = connection.getTable(TABLE);
            List<Result> puts = new ArrayList<>();
            for (int r = 1; r <= runs; r++) {
                Result result = timed(putConcurrency, () -> putBatch(table), batch);
                System.out.printf(Locale.ROOT, "RUN name=hbase-put run=%d rows=%d rate=%.0f p50_ms=%.2f p99_ms=%.2f%n", r,
                        result.units, result.rate, result.p50, result.p99);
                puts.add(result);
            }
            report("hbase-put", "rows/s", puts);
            List<Result> scans = new ArrayList<>();
            for (int r = 1; r <= runs; r++) {
                Result result = timed(scanConcurrency, () -> scanOne(table), 1);
                System.out.printf(Locale.ROOT, "RUN name=hbase-scan run=%d scans=%d rate=%.0f p50_ms=%.2f p99_ms=%.2f rows_per_scan=%.1f%n",
                        r, result.units, result.rate, result.p50, result.p99, scannedRows.sum() / (double) Math.max(1, result.units));
                scannedRows.reset();
                scans.add(result);
            }
            report("hbase-scan", "scans/s", scans);
            if (!keep) {
                connection.getAdmin().disableTable(TABLE).get();
                connection.getAdmin().deleteTable(TABLE).get();
            }
        }
    }

    final LongAdder scannedRows = new LongAdder();

    void recreate(AsyncConnection connection) throws Exception {
        var admin = connection.getAdmin();
        if (admin.tableExists(TABLE).get()) {
            admin.disableTable(TABLE).get();
            admin.deleteTable(TABLE).get();
        }
        byte[][] splits = new byte[15][];
        for (int i = 1; i < 16; i++) {
            splits[i - 1] = new byte[] { (byte) (i * 16) };
        }
        admin.createTable(TableDescriptorBuilder.newBuilder(TABLE)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setMaxVersions(1).build())
                .build(), splits).get();
    }

    CompletableFuture<?> putBatch(AsyncTable<?> table) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<Put> rows = new ArrayList<>(batch);
        for (int i = 0; i < batch; i++) {
            long user = random.nextInt(users) + 1;
            byte[] key = key(user, random.nextInt(3), random.nextDouble() * 30, random.nextLong() & Long.MAX_VALUE);
            byte[] value = ByteBuffer.allocate(24).putLong(random.nextLong()).putLong(random.nextLong())
                    .putLong(System.currentTimeMillis()).array();
            rows.add(new Put(key).addColumn(FAMILY, COLUMN, value));
        }
        return CompletableFuture.allOf(table.put(rows).toArray(CompletableFuture[]::new));
    }

    CompletableFuture<?> scanOne(AsyncTable<?> table) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        byte[] prefix = Arrays.copyOf(key(random.nextInt(users) + 1, random.nextInt(3), 0, 0), 10);
        Scan scan = new Scan().setStartStopRowForPrefixScan(prefix).setLimit(limit).setCaching(limit)
                .addColumn(FAMILY, COLUMN);
        return table.scanAll(scan).thenAccept(found -> scannedRows.add(found.size()));
    }

    /** The pool key layout: salt | user | source | inverted score | pin. */
    static byte[] key(long user, int source, double score, long pin) {
        byte salt = (byte) ((user * 0x9E3779B97F4A7C15L) >>> 56);
        long sortable = Double.doubleToLongBits(score) ^ Long.MIN_VALUE;
        return ByteBuffer.allocate(26).put(salt).putLong(user).put((byte) source).putLong(~sortable).putLong(pin).array();
    }

    record Result(long units, double rate, double p50, double p99) {
    }

    /** Keeps {@code concurrency} operations in flight for --seconds; each completed one counts {@code unitsPer}. */
    Result timed(int concurrency, java.util.function.Supplier<CompletableFuture<?>> operation, int unitsPer)
            throws InterruptedException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        AtomicLong done = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        List<Long> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.CountDownLatch finished = new java.util.concurrent.CountDownLatch(concurrency);
        long start = System.nanoTime();
        for (int i = 0; i < concurrency; i++) {
            loop(operation, end, done, failed, latencies, finished);
        }
        finished.await();
        double elapsed = (System.nanoTime() - start) / 1e9;
        if (failed.get() > 0) {
            System.out.println("failed operations: " + failed.get());
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Result(done.get() * unitsPer, done.get() * unitsPer / elapsed, percentile(sorted, 0.5),
                percentile(sorted, 0.99));
    }

    void loop(java.util.function.Supplier<CompletableFuture<?>> operation, long end, AtomicLong done, AtomicLong failed,
            List<Long> latencies, java.util.concurrent.CountDownLatch finished) {
        if (System.nanoTime() >= end) {
            finished.countDown();
            return;
        }
        long started = System.nanoTime();
        operation.get().whenComplete((ignored, failure) -> {
            if (failure == null) {
                done.incrementAndGet();
                latencies.add(System.nanoTime() - started);
            } else {
                failed.incrementAndGet();
            }
            loop(operation, end, done, failed, latencies, finished);
        });
    }

    static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
    }

    static void report(String name, String unit, List<Result> results) {
        double rate = median(results.stream().mapToDouble(Result::rate).toArray());
        double p50 = median(results.stream().mapToDouble(Result::p50).toArray());
        double p99 = median(results.stream().mapToDouble(Result::p99).toArray());
        String all = String.join("/", results.stream().map(r -> String.format(Locale.ROOT, "%.0f", r.rate)).toList());
        System.out.printf(Locale.ROOT, "RESULT name=%s rate=%.0f unit=%s p50_ms=%.2f p99_ms=%.2f runs=%s%n", name, rate,
                unit, p50, p99, all);
    }

    static double median(double[] values) {
        Arrays.sort(values);
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
}
