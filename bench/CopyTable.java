import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;

/**
 * Copies every row of a table from one HBase cluster to another (the table must exist on both), for a standby added
 * after the primary already held data: HBase replication only ships writes made after its peer was added.
 *
 * <pre>
 * java -cp "target/quarkus-app/lib/main/*" bench/CopyTable.java --from 127.0.0.1:16100 --to 127.0.0.1:16200 \
 *     [--table pinion_feed_materialized] [--batch 1000] [--in-flight 8]
 * </pre>
 *
 * Reads with one scanner, writes batches of --batch rows with at most --in-flight batches outstanding, keeping each
 * cell's timestamp (so a newer write replicated meanwhile wins over the copied one). Prints a {@code RESULT} line.
 */
public class CopyTable {

    public static void main(String[] args) throws Exception {
        String from = "127.0.0.1:16100";
        String to = "127.0.0.1:16200";
        String table = "pinion_feed_materialized";
        int batch = 1000;
        int inFlight = 8;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--from" -> from = args[i + 1];
                case "--to" -> to = args[i + 1];
                case "--table" -> table = args[i + 1];
                case "--batch" -> batch = Integer.parseInt(args[i + 1]);
                case "--in-flight" -> inFlight = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        long start = System.nanoTime();
        long rows = 0;
        Semaphore permits = new Semaphore(inFlight);
        List<CompletableFuture<?>> pending = new ArrayList<>();
        try (AsyncConnection source = connect(from); AsyncConnection target = connect(to)) {
            AsyncTable<?> in = source.getTable(TableName.valueOf(table));
            AsyncTable<?> out = target.getTable(TableName.valueOf(table));
            List<Put> puts = new ArrayList<>(batch);
            try (ResultScanner scanner = in.getScanner(new Scan().setCaching(batch))) {
                for (Result result : scanner) {
                    Put put = new Put(result.getRow());
                    for (Cell cell : result.rawCells()) {
                        put.addColumn(CellUtil.cloneFamily(cell), CellUtil.cloneQualifier(cell), cell.getTimestamp(),
                                CellUtil.cloneValue(cell));
                    }
                    puts.add(put);
                    rows++;
                    if (puts.size() == batch) {
                        pending.add(write(out, puts, permits));
                        puts = new ArrayList<>(batch);
                    }
                }
            }
            if (!puts.isEmpty()) {
                pending.add(write(out, puts, permits));
            }
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "RESULT name=copy-table table=%s rows=%d seconds=%.1f rows_per_s=%.0f%n", table, rows,
                seconds, rows / seconds);
        System.exit(0);
    }

    static CompletableFuture<?> write(AsyncTable<?> table, List<Put> puts, Semaphore permits) throws InterruptedException {
        permits.acquire();
        return CompletableFuture.allOf(table.put(puts).toArray(CompletableFuture[]::new))
                .whenComplete((ok, failure) -> permits.release());
    }

    static AsyncConnection connect(String bootstrap) throws Exception {
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.RpcConnectionRegistry");
        conf.set("hbase.client.bootstrap.servers", bootstrap);
        return ConnectionFactory.createAsyncConnection(conf).get();
    }
}
