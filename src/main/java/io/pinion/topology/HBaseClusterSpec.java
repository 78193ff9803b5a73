package io.pinion.topology;

/**
 * One HBase cluster.
 *
 * @param name      stable name, e.g. {@code hbase-primary}
 * @param bootstrap comma-separated {@code host:port} of the master(s); clients connect through them, not ZooKeeper
 * @param zookeeper the ZooKeeper cluster key {@code host:port:/znode-parent}, used as a replication peer address
 */
public record HBaseClusterSpec(String name, String bootstrap, String zookeeper) {
}
