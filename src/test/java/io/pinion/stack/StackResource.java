package io.pinion.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.UUID;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Makes sure the local stack (MariaDB, Redis, HBase, ZooKeeper) is running before the application under test
 * starts. A running stack is reused; the stack is left running afterwards for the next run. Each start of the
 * application gets a cluster of its own in ZooKeeper (a root znode under {@code /pinion-test}, removed when it
 * stops), seeded from a fresh copy of the local topology, as the tests before it may have changed theirs.
 */
public class StackResource implements QuarkusTestResourceLifecycleManager {

    /** The local stack's ensemble, as {@code pinion.zookeeper.connect} names it by default. */
    public static final String ZOOKEEPER = "127.0.0.1:21821,127.0.0.1:21822,127.0.0.1:21823";

    private static volatile String latest;
    private String root;

    /** The ZooKeeper root of the application the tests run against now: a second instance joins its cluster there. */
    public static String root() {
        return latest;
    }

    @Override
    public Map<String, String> start() {
        copyLocalTopologyForTests();
        long start = System.currentTimeMillis();
        String output = LocalStack.run("up");
        System.out.printf("local stack ready in %d ms%n%s%n", System.currentTimeMillis() - start, output);
        root = "/pinion-test/" + UUID.randomUUID().toString().substring(0, 8);
        latest = root;
        return Map.of("pinion.zookeeper.root", root);
    }

    /** Tests run on target/test-topology.json (pinion.topology.file in %test), a fresh copy of the local topology. */
    private static void copyLocalTopologyForTests() {
        try (InputStream in = StackResource.class.getClassLoader().getResourceAsStream("topology/local.json")) {
            Path target = LocalStack.repoRoot().resolve("target/test-topology.json");
            Files.createDirectories(target.getParent());
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {
        // the stack is left running on purpose: the next test run reuses it; `bin/stack down` stops it
        if (root == null) {
            return;
        }
        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(ZOOKEEPER, 5_000, 3_000, new RetryOneTime(200))) {
            zk.start();
            if (zk.blockUntilConnected(3, java.util.concurrent.TimeUnit.SECONDS)) {
                zk.delete().quietly().deletingChildrenIfNeeded().forPath(root);
            }
        } catch (Exception e) {
            System.out.printf("could not remove the test cluster %s from ZooKeeper: %s%n", root, e.getMessage());
        }
    }
}
