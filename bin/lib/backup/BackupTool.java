// The Java half of bin/backup and bin/restore, run as a single source file on the HBase classpath of the stack
// (<stack>/hbase/classpath.txt):
//
//   java -cp CP BackupTool.java hbase-export  ZK_KEY ROOTDIR OUT_DIR TAG STANDBY_ZK_KEY
//   java -cp CP BackupTool.java hbase-restore ZK_KEY ROOTDIR BACKUP_HBASE_DIR primary|standby FORCE
//   java -cp CP BackupTool.java hbase-peers   ZK_KEY BACKUP_HBASE_DIR NEW_STANDBY_ZK_KEY
//   java -cp CP BackupTool.java hbase-tables  ZK_KEY
//   java -cp CP BackupTool.java dump-counts   < mariadb-dump output
//   java -cp CP BackupTool.java rdb-keys      RDB_FILE
//   java -cp CP BackupTool.java caches-drop   ZK_CONNECT ROOT REASON
//
// ZK_KEY is an HBase cluster key (host:port:/znode). hbase-export snapshots every user table of the cluster, copies
// each snapshot's manifest and the HFiles it references into OUT_DIR/root in the layout ExportSnapshot writes
// (.hbase-snapshot/<name>/ and archive/data/<ns>/<table>/<region>/<family>/<hfile>), counts the rows of the copy
// (reading the exported snapshot, not the live table), deletes the snapshot from the cluster and writes
// OUT_DIR/tables.json. hbase-restore copies those snapshots into another cluster's root dir and clones them.
// caches-drop writes the cluster's cache epoch (ROOT/caches) as bin/admin caches drop does, without starting the
// service: every instance running under ROOT drops its caches; a ROOT no instance ever used is left alone.
// Results are printed as JSON on stdout; progress goes to stderr.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableSnapshotScanner;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;
import org.apache.hadoop.hbase.shaded.protobuf.generated.SnapshotProtos.SnapshotRegionManifest;
import org.apache.hadoop.hbase.snapshot.SnapshotDescriptionUtils;
import org.apache.hadoop.hbase.snapshot.SnapshotReferenceUtil;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.hbase.thirdparty.com.google.gson.Gson;
import org.apache.hbase.thirdparty.com.google.gson.GsonBuilder;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

public class BackupTool {

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();
    private static final PrintStream LOG = System.err;

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            usage();
        }
        JsonElement result = switch (args[0]) {
            case "hbase-export" -> export(arg(args, 1), arg(args, 2), arg(args, 3), arg(args, 4), arg(args, 5));
            case "hbase-restore" -> restore(arg(args, 1), arg(args, 2), arg(args, 3), arg(args, 4),
                    Boolean.parseBoolean(arg(args, 5)));
            case "hbase-peers" -> peers(arg(args, 1), arg(args, 2), arg(args, 3));
            case "hbase-tables" -> tables(arg(args, 1));
            case "dump-counts" -> dumpCounts();
            case "rdb-keys" -> rdbKeys(arg(args, 1));
            case "caches-drop" -> cachesDrop(arg(args, 1), arg(args, 2), arg(args, 3));
            default -> {
                usage();
                yield null;
            }
        };
        System.out.println(GSON.toJson(result));
        System.out.flush();
        // the HBase client leaves non-daemon threads behind
        System.exit(0);
    }

    private static String arg(String[] args, int i) {
        if (args.length <= i) {
            usage();
        }
        return args[i];
    }

    private static void usage() {
        LOG.println("usage: BackupTool hbase-export|hbase-restore|hbase-peers|hbase-tables|dump-counts|rdb-keys|caches-drop ARGS (see the header)");
        System.exit(2);
    }

    // ----------------------------------------------------------------------------------------------------------
    // The cluster's cache epoch
    // ----------------------------------------------------------------------------------------------------------

    private static JsonElement cachesDrop(String connect, String root, String reason) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connect, 15_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        try {
            if (!connected.await(15, TimeUnit.SECONDS)) {
                throw new IOException("ZooKeeper at " + connect + " did not answer within 15 s");
            }
            JsonObject out = new JsonObject();
            out.addProperty("root", root);
            if (zk.exists(root, false) == null) {
                // no instance ever ran under this root, so none holds a cache; one started later fills its own
                out.addProperty("dropped", false);
                return out;
            }
            String path = root + "/caches";
            byte[] data = reason.getBytes(StandardCharsets.UTF_8);
            int version;
            try {
                version = zk.setData(path, data, -1).getVersion();
            } catch (KeeperException.NoNodeException none) {
                try {
                    zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                    version = 0;
                } catch (KeeperException.NodeExistsException raced) {
                    version = zk.setData(path, data, -1).getVersion();
                }
            }
            out.addProperty("dropped", true);
            out.addProperty("epoch", version);
            return out;
        } finally {
            zk.close();
        }
    }

    // ----------------------------------------------------------------------------------------------------------
    // HBase
    // ----------------------------------------------------------------------------------------------------------

    private static Configuration conf(String clusterKey, String rootDir) {
        String[] parts = clusterKey.split(":", 3);
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.zookeeper.quorum", parts[0]);
        conf.set("hbase.zookeeper.property.clientPort", parts[1]);
        conf.set("zookeeper.znode.parent", parts[2]);
        conf.setInt("hbase.client.retries.number", 10);
        conf.setInt("zookeeper.recovery.retry", 1);
        conf.set("fs.defaultFS", "file:///");
        if (rootDir != null) {
            conf.set("hbase.rootdir", rootDir);
        }
        return conf;
    }

    private static List<TableName> userTables(Admin admin) throws IOException {
        List<TableName> names = new ArrayList<>();
        for (TableName name : admin.listTableNames()) {
            if (!name.isSystemTable()) {
                names.add(name);
            }
        }
        names.sort(null);
        return names;
    }

    private static JsonElement tables(String clusterKey) throws IOException {
        JsonArray out = new JsonArray();
        try (Connection connection = ConnectionFactory.createConnection(conf(clusterKey, null));
                Admin admin = connection.getAdmin()) {
            for (TableName name : userTables(admin)) {
                out.add(name.getNameAsString());
            }
        }
        return out;
    }

    private static JsonElement export(String clusterKey, String rootDir, String outDir, String tag, String standbyKey)
            throws IOException {
        Configuration conf = conf(clusterKey, rootDir);
        Path root = new Path(rootDir);
        FileSystem fs = root.getFileSystem(conf);
        Path outRoot = new Path(new java.io.File(outDir).getAbsoluteFile().toURI().toString(), "root");
        FileSystem outFs = outRoot.getFileSystem(conf);
        JsonObject result = new JsonObject();
        JsonArray tables = new JsonArray();
        try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
            for (TableName table : userTables(admin)) {
                long t0 = System.nanoTime();
                String snapshot = table.getQualifierAsString() + "-" + tag;
                LOG.printf("hbase: snapshot %s of %s%n", snapshot, table);
                admin.snapshot(snapshot, table); // a FLUSH snapshot: memstores are flushed first
                long taken = System.nanoTime();
                try {
                    JsonObject copied = copySnapshot(conf, fs, root, outFs, outRoot, snapshot, table);
                    long exported = System.nanoTime();
                    copied.addProperty("rows", countRows(conf, outRoot, snapshot));
                    copied.addProperty("table", table.getNameAsString());
                    copied.addProperty("snapshot", snapshot);
                    copied.addProperty("regions", admin.getRegions(table).size());
                    copied.addProperty("snapshotSeconds", seconds(taken - t0));
                    copied.addProperty("exportSeconds", seconds(exported - taken));
                    copied.addProperty("countSeconds", seconds(System.nanoTime() - exported));
                    tables.add(copied);
                } finally {
                    // the copy is self-contained; the cluster's archive need not keep the snapshot's files
                    admin.deleteSnapshot(snapshot);
                }
            }
            result.add("tables", tables);
            JsonArray peers = new JsonArray();
            for (ReplicationPeerDescription peer : admin.listReplicationPeers()) {
                JsonObject p = new JsonObject();
                p.addProperty("id", peer.getPeerId());
                p.addProperty("clusterKey", peer.getPeerConfig().getClusterKey());
                p.addProperty("enabled", peer.isEnabled());
                peers.add(p);
            }
            result.add("replicationPeers", peers);
        }
        result.addProperty("clusterKey", clusterKey);
        result.addProperty("standbyClusterKey", standbyKey);
        if (!standbyKey.isEmpty()) {
            result.add("standbyTables", tables(standbyKey));
        }
        Files.writeString(java.nio.file.Path.of(outDir, "tables.json"), GSON.toJson(result));
        // the peers' configurations, to be re-created on a restored primary
        try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
            for (ReplicationPeerDescription peer : admin.listReplicationPeers()) {
                ReplicationPeerConfig c = peer.getPeerConfig();
                JsonObject p = new JsonObject();
                p.addProperty("id", peer.getPeerId());
                p.addProperty("clusterKey", c.getClusterKey());
                p.addProperty("enabled", peer.isEnabled());
                p.addProperty("replicateAllUserTables", c.replicateAllUserTables());
                JsonObject cfs = new JsonObject();
                if (c.getTableCFsMap() != null) {
                    c.getTableCFsMap().forEach((t, families) -> {
                        JsonArray fams = new JsonArray();
                        if (families != null) {
                            families.forEach(fams::add);
                        }
                        cfs.add(t.getNameAsString(), fams);
                    });
                }
                p.add("tableCFs", cfs);
                Files.writeString(java.nio.file.Path.of(outDir, "peer-" + peer.getPeerId() + ".json"), GSON.toJson(p));
            }
        }
        return result;
    }

    /** ExportSnapshot's layout: the snapshot's directory, and every referenced HFile under archive/. */
    private static JsonObject copySnapshot(Configuration conf, FileSystem fs, Path root, FileSystem outFs, Path outRoot,
            String snapshot, TableName table) throws IOException {
        Path snapshotDir = SnapshotDescriptionUtils.getCompletedSnapshotDir(snapshot, root);
        Path outSnapshotDir = SnapshotDescriptionUtils.getCompletedSnapshotDir(snapshot, outRoot);
        outFs.mkdirs(outSnapshotDir.getParent());
        if (!FileUtil.copy(fs, snapshotDir, outFs, outSnapshotDir, false, true, conf)) {
            throw new IOException("could not copy " + snapshotDir);
        }
        AtomicLong files = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        List<IOException> failures = new ArrayList<>();
        Map<String, Boolean> seen = new LinkedHashMap<>();
        SnapshotReferenceUtil.visitReferencedFiles(conf, fs, snapshotDir,
                (RegionInfo region, String family, SnapshotRegionManifest.StoreFile storeFile) -> {
                    String regionName = region.getEncodedName();
                    String hfile = storeFile.getName();
                    if (storeFile.hasReference()) {
                        // a daughter's reference: the manifest holds it; the parent's HFile is what must be copied
                        Pair<String, String> referred = StoreFileInfo.getReferredToRegionAndFile(hfile);
                        regionName = referred.getFirst();
                        hfile = referred.getSecond();
                    }
                    if (seen.put(regionName + "/" + family + "/" + hfile, true) != null) {
                        return;
                    }
                    try {
                        HFileLink link = HFileLink.build(conf, table, regionName, family, hfile);
                        Path source = link.getAvailablePath(fs);
                        Path target = new Path(outRoot, "archive/data/" + table.getNamespaceAsString() + "/"
                                + table.getQualifierAsString() + "/" + regionName + "/" + family + "/" + hfile);
                        if (!FileUtil.copy(fs, source, outFs, target, false, true, conf)) {
                            throw new IOException("could not copy " + source);
                        }
                        files.incrementAndGet();
                        bytes.addAndGet(fs.getFileStatus(source).getLen());
                    } catch (IOException e) {
                        failures.add(e);
                    }
                });
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        JsonObject out = new JsonObject();
        out.addProperty("hfiles", files.get());
        out.addProperty("hfileBytes", bytes.get());
        return out;
    }

    /** Rows of a snapshot, read from its files (the exported copy's, so the copy is proven readable). */
    private static long countRows(Configuration conf, Path root, String snapshot) throws IOException {
        Configuration c = new Configuration(conf);
        c.set("hbase.rootdir", root.toString());
        java.nio.file.Path restoreDir = Files.createTempDirectory("pinion-snapshot-count");
        long rows = 0;
        Scan scan = new Scan().setFilter(new FirstKeyOnlyFilter()).setCacheBlocks(false);
        try (TableSnapshotScanner scanner = new TableSnapshotScanner(c, root,
                new Path(restoreDir.toUri().toString()), snapshot, scan)) {
            for (Result r = scanner.next(); r != null; r = scanner.next()) {
                rows++;
            }
        } finally {
            FileUtil.fullyDelete(restoreDir.toFile());
        }
        return rows;
    }

    private static JsonElement restore(String clusterKey, String rootDir, String backupDir, String role, boolean force)
            throws Exception {
        Configuration conf = conf(clusterKey, rootDir);
        Path root = new Path(rootDir);
        FileSystem fs = root.getFileSystem(conf);
        Path backupRoot = new Path(new java.io.File(backupDir).getAbsoluteFile().toURI().toString(), "root");
        FileSystem backupFs = backupRoot.getFileSystem(conf);
        JsonObject exported = GSON.fromJson(Files.readString(java.nio.file.Path.of(backupDir, "tables.json")),
                JsonObject.class);
        List<String> wanted = new ArrayList<>();
        if (role.equals("standby")) {
            exported.getAsJsonArray("standbyTables").forEach(t -> wanted.add(t.getAsString()));
        }
        JsonArray out = new JsonArray();
        try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
            for (JsonElement e : exported.getAsJsonArray("tables")) {
                JsonObject t = e.getAsJsonObject();
                String tableName = t.get("table").getAsString();
                if (role.equals("standby") && !wanted.contains(tableName)) {
                    continue;
                }
                long t0 = System.nanoTime();
                TableName table = TableName.valueOf(tableName);
                String snapshot = t.get("snapshot").getAsString();
                if (admin.tableExists(table)) {
                    if (!force) {
                        throw new IOException("table " + table + " exists on " + clusterKey + " (use --force)");
                    }
                    LOG.printf("hbase: dropping the existing %s on %s%n", table, clusterKey);
                    if (admin.isTableEnabled(table)) {
                        admin.disableTable(table);
                    }
                    admin.deleteTable(table);
                }
                if (admin.listSnapshots().stream().anyMatch(s -> s.getName().equals(snapshot))) {
                    admin.deleteSnapshot(snapshot);
                }
                // the files first, then the manifest, as ExportSnapshot does
                Path archive = new Path(backupRoot, "archive/data/" + table.getNamespaceAsString() + "/"
                        + table.getQualifierAsString());
                if (backupFs.exists(archive)) {
                    Path target = new Path(root, "archive/data/" + table.getNamespaceAsString() + "/"
                            + table.getQualifierAsString());
                    copyTree(backupFs, archive, fs, target, conf);
                }
                Path snapshotDir = SnapshotDescriptionUtils.getCompletedSnapshotDir(snapshot, backupRoot);
                Path targetSnapshotDir = SnapshotDescriptionUtils.getCompletedSnapshotDir(snapshot, root);
                fs.mkdirs(targetSnapshotDir.getParent());
                if (!FileUtil.copy(backupFs, snapshotDir, fs, targetSnapshotDir, false, true, conf)) {
                    throw new IOException("could not copy " + snapshotDir);
                }
                long copied = System.nanoTime();
                LOG.printf("hbase: cloning %s into %s on %s%n", snapshot, table, clusterKey);
                admin.cloneSnapshot(snapshot, table);
                // the clone links the archived files and keeps them; the snapshot itself is not needed
                admin.deleteSnapshot(snapshot);
                JsonObject r = new JsonObject();
                r.addProperty("table", tableName);
                r.addProperty("snapshot", snapshot);
                r.addProperty("regions", admin.getRegions(table).size());
                r.addProperty("copySeconds", seconds(copied - t0));
                r.addProperty("cloneSeconds", seconds(System.nanoTime() - copied));
                out.add(r);
            }
        }
        return out;
    }

    /** Merges a directory tree into another (files already there are replaced). */
    private static void copyTree(FileSystem from, Path source, FileSystem to, Path target, Configuration conf)
            throws IOException {
        for (FileStatus status : from.listStatus(source)) {
            Path next = new Path(target, status.getPath().getName());
            if (status.isDirectory()) {
                copyTree(from, status.getPath(), to, next, conf);
            } else if (!status.getPath().getName().endsWith(".crc")
                    && !FileUtil.copy(from, status.getPath(), to, next, false, true, conf)) {
                throw new IOException("could not copy " + status.getPath());
            }
        }
    }

    /**
     * Re-creates the backed-up primary's replication peers that pointed at the backed-up standby, now pointing at
     * the restored standby (NEW_STANDBY_ZK_KEY). Peers to any other cluster are reported and left out.
     */
    private static JsonElement peers(String clusterKey, String backupDir, String newStandbyKey) throws IOException {
        JsonObject exported = GSON.fromJson(Files.readString(java.nio.file.Path.of(backupDir, "tables.json")),
                JsonObject.class);
        String oldStandbyKey = exported.get("standbyClusterKey").getAsString();
        JsonArray out = new JsonArray();
        try (Connection connection = ConnectionFactory.createConnection(conf(clusterKey, null));
                Admin admin = connection.getAdmin()) {
            for (JsonElement e : exported.getAsJsonArray("replicationPeers")) {
                String id = e.getAsJsonObject().get("id").getAsString();
                JsonObject p = GSON.fromJson(Files.readString(java.nio.file.Path.of(backupDir, "peer-" + id + ".json")),
                        JsonObject.class);
                JsonObject r = new JsonObject();
                r.addProperty("id", id);
                if (!p.get("clusterKey").getAsString().equals(oldStandbyKey)) {
                    r.addProperty("skipped", "points at " + p.get("clusterKey").getAsString()
                            + ", not at the backed-up standby");
                    out.add(r);
                    continue;
                }
                Map<TableName, List<String>> cfs = new LinkedHashMap<>();
                for (Map.Entry<String, JsonElement> t : p.getAsJsonObject("tableCFs").entrySet()) {
                    List<String> families = new ArrayList<>();
                    t.getValue().getAsJsonArray().forEach(f -> families.add(f.getAsString()));
                    cfs.put(TableName.valueOf(t.getKey()), families.isEmpty() ? null : families);
                }
                ReplicationPeerConfig config = ReplicationPeerConfig.newBuilder()
                        .setClusterKey(newStandbyKey)
                        .setReplicateAllUserTables(p.get("replicateAllUserTables").getAsBoolean())
                        .setTableCFsMap(cfs.isEmpty() ? null : cfs)
                        .build();
                if (admin.listReplicationPeers().stream().anyMatch(d -> d.getPeerId().equals(id))) {
                    admin.removeReplicationPeer(id);
                }
                admin.addReplicationPeer(id, config, p.get("enabled").getAsBoolean());
                r.addProperty("clusterKey", newStandbyKey);
                out.add(r);
            }
        }
        return out;
    }

    private static double seconds(long nanos) {
        return Math.round(nanos / 1e7) / 100.0;
    }

    // ----------------------------------------------------------------------------------------------------------
    // mariadb-dump output: rows per table, counted from the extended INSERT statements
    // ----------------------------------------------------------------------------------------------------------

    /**
     * Reads a dump on stdin; prints the GTID position and binlog coordinates its header and trailer comment on
     * (--gtid --master-data=2) and {"db.table": rows} for every table the dump creates, empty ones too.
     */
    private static JsonElement dumpCounts() throws IOException {
        Map<String, Long> counts = new LinkedHashMap<>();
        String database = null;
        String table = null; // set while inside an INSERT statement (which spans lines: one row per line)
        int[] state = new int[2]; // paren depth, in a quoted string (0/1)
        JsonObject out = new JsonObject();
        java.util.regex.Pattern gtid = java.util.regex.Pattern.compile("^-- SET GLOBAL gtid_slave_pos='(.*)';$");
        java.util.regex.Pattern binlog = java.util.regex.Pattern
                .compile("^-- CHANGE MASTER TO MASTER_LOG_FILE='([^']*)', MASTER_LOG_POS=([0-9]+);$");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 20);
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (table != null) {
                long[] r = tuples(line, 0, state);
                counts.merge(table, r[0], Long::sum);
                if (r[1] == 1) {
                    table = null;
                }
            } else if (line.startsWith("USE `")) {
                database = line.substring(5, line.indexOf('`', 5));
            } else if (line.startsWith("CREATE TABLE `")) {
                counts.putIfAbsent(database + "." + line.substring(14, line.indexOf('`', 14)), 0L);
            } else if (line.startsWith("INSERT INTO `")) {
                int end = line.indexOf('`', 13);
                String name = database + "." + line.substring(13, end);
                state[0] = 0;
                state[1] = 0;
                long[] r = tuples(line, line.indexOf(" VALUES", end) + 7, state);
                counts.merge(name, r[0], Long::sum);
                table = r[1] == 1 ? null : name;
            } else if (line.startsWith("-- ")) {
                java.util.regex.Matcher m = gtid.matcher(line);
                if (m.matches()) {
                    out.addProperty("gtidPosition", m.group(1));
                }
                m = binlog.matcher(line);
                if (m.matches()) {
                    out.addProperty("binlogFile", m.group(1));
                    out.addProperty("binlogPosition", Long.parseLong(m.group(2)));
                }
            }
        }
        JsonObject tables = new JsonObject();
        counts.forEach(tables::addProperty);
        out.addProperty("rows", counts.values().stream().mapToLong(Long::longValue).sum());
        out.add("tables", tables);
        return out;
    }

    /**
     * Row tuples in a piece of an INSERT statement: parentheses opened at depth 0 outside quoted strings. Returns
     * {rows, 1 if the statement ended (a ';' at depth 0)}; the depth and quoting carry over to the next line.
     */
    static long[] tuples(String line, int from, int[] state) {
        long rows = 0;
        int depth = state[0];
        boolean quoted = state[1] == 1;
        boolean ended = false;
        for (int i = from; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '\'') {
                    quoted = false;
                }
            } else if (c == '\'') {
                quoted = true;
            } else if (c == '(') {
                if (depth++ == 0) {
                    rows++;
                }
            } else if (c == ')') {
                depth--;
            } else if (c == ';' && depth == 0) {
                ended = true;
                break;
            }
        }
        state[0] = depth;
        state[1] = quoted ? 1 : 0;
        return new long[] { rows, ended ? 1 : 0 };
    }

    // ----------------------------------------------------------------------------------------------------------
    // Redis RDB: the key count of the first database, from the RESIZEDB record Redis writes at its start (the
    // exact number of keys at the moment of the fork that wrote the file)
    // ----------------------------------------------------------------------------------------------------------

    private static JsonElement rdbKeys(String file) throws IOException {
        byte[] rdb = Files.readAllBytes(java.nio.file.Path.of(file));
        if (rdb.length < 9 || !new String(rdb, 0, 5, StandardCharsets.US_ASCII).equals("REDIS")) {
            throw new IOException(file + " is not an RDB file");
        }
        int[] at = { 9 };
        JsonObject out = new JsonObject();
        JsonObject perDb = new JsonObject();
        long total = 0;
        long db = 0;
        boolean complete = false;
        while (at[0] < rdb.length) {
            int op = rdb[at[0]++] & 0xff;
            if (op == 0xFA) { // AUX key value
                skipString(rdb, at);
                skipString(rdb, at);
            } else if (op == 0xFE) { // SELECTDB
                db = length(rdb, at);
            } else if (op == 0xFB) { // RESIZEDB keys expires
                long keys = length(rdb, at);
                length(rdb, at);
                perDb.addProperty("db" + db, keys);
                total += keys;
                // the keys of this database follow; the service uses database 0 only, so the count stops here and
                // says whether it was database 0 (a later SELECTDB cannot be found without parsing every value)
                complete = db == 0;
                break;
            } else if (op == 0xFF) { // EOF: no database at all
                complete = true;
                break;
            } else {
                break;
            }
        }
        out.addProperty("keys", total);
        out.add("databases", perDb);
        out.addProperty("onlyDb0", complete);
        out.addProperty("rdbVersion", new String(rdb, 5, 4, StandardCharsets.US_ASCII));
        return out;
    }

    private static long length(byte[] b, int[] at) {
        int first = b[at[0]++] & 0xff;
        switch (first >> 6) {
            case 0:
                return first & 0x3f;
            case 1:
                return ((first & 0x3f) << 8) | (b[at[0]++] & 0xff);
            case 2: {
                int n = first == 0x80 ? 4 : 8;
                long v = 0;
                for (int i = 0; i < n; i++) {
                    v = (v << 8) | (b[at[0]++] & 0xff);
                }
                return v;
            }
            default:
                return -(first & 0x3f) - 1; // a special encoding, see skipString
        }
    }

    private static void skipString(byte[] b, int[] at) {
        long len = length(b, at);
        if (len >= 0) {
            at[0] += (int) len;
            return;
        }
        int special = (int) (-len - 1);
        switch (special) {
            case 0 -> at[0] += 1;
            case 1 -> at[0] += 2;
            case 2 -> at[0] += 4;
            case 3 -> { // LZF: compressed length, uncompressed length, data
                long compressed = length(b, at);
                length(b, at);
                at[0] += (int) compressed;
            }
            default -> throw new IllegalStateException("unknown string encoding " + special);
        }
    }
}
