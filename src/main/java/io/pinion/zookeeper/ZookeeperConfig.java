package io.pinion.zookeeper;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The ZooKeeper ensemble the instances coordinate through. */
@ConfigMapping(prefix = "pinion.zookeeper")
public interface ZookeeperConfig {

    /** The ensemble's servers, {@code host:port,host:port,…} (the local stack's zk-1..3 by default). */
    @WithDefault("127.0.0.1:21821,127.0.0.1:21822,127.0.0.1:21823")
    String connect();

    /**
     * The znode under which this cluster keeps its state ({@code /pinion}): instances with the same root are one
     * cluster. Tests give each run a root of its own.
     */
    @WithDefault("/pinion")
    String root();

    /**
     * How long the ensemble keeps this instance's session (its ephemeral nodes) after it stops hearing from it. The
     * servers bound it (2 to 20 s in the local stack).
     */
    @WithDefault("10s")
    Duration sessionTimeout();

    /**
     * Whether this process is a member of the cluster: it publishes what it sees and may lead failover decisions.
     * {@code bin/admin} and {@code bin/seed}, which run the service's code for one command, are not.
     */
    @WithDefault("true")
    boolean member();

    /** How long a call waits for a connection before it fails. */
    @WithDefault("3s")
    Duration connectionTimeout();
}
