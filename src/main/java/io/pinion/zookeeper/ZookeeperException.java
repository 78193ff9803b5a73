package io.pinion.zookeeper;

/** A ZooKeeper call that failed for a reason other than a lost connection (a bad version is its own case). */
public class ZookeeperException extends RuntimeException {

    public ZookeeperException(String what, Throwable cause) {
        super("ZooKeeper " + what + " failed: " + cause.getMessage(), cause);
    }
}
