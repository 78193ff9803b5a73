package io.pinion.zookeeper;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.jboss.logging.Logger;

/**
 * The cluster's one failover leader ({@code <root>/leader}, a Curator leader latch): of the live instances that run
 * automatic failover exactly one holds it at a time, and only it promotes a MySQL replica on its own. Leadership ends
 * with the session, so an instance cut off from ZooKeeper stops deciding before another one starts.
 */
@ApplicationScoped
public class Leadership {

    static final String PATH = "/leader";

    private static final Logger LOG = Logger.getLogger(Leadership.class);

    private final Zookeeper zookeeper;
    private volatile LeaderLatch latch;

    Leadership(Zookeeper zookeeper) {
        this.zookeeper = zookeeper;
    }

    /** Enters the election (once; not for a one-command run, which is no member of the cluster). */
    public synchronized void join() throws Exception {
        if (latch != null || !zookeeper.member()) {
            return;
        }
        latch = new LeaderLatch(zookeeper.client(), PATH, zookeeper.instanceId());
        latch.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                LOG.infof("this instance (%s) leads the cluster's failover decisions", zookeeper.instanceId());
            }

            @Override
            public void notLeader() {
                LOG.infof(
                        "this instance (%s) no longer leads the cluster's failover decisions", zookeeper.instanceId());
            }
        });
        latch.start();
        zookeeper.closeFirst(latch);
    }

    /** Whether this instance is the leader now (and has a session: a suspended one is not). */
    public boolean leads() {
        LeaderLatch current = latch;
        return current != null && zookeeper.connected() && current.hasLeadership();
    }

    @PreDestroy
    synchronized void close() {
        if (latch != null) {
            try {
                latch.close();
            } catch (java.io.IOException | RuntimeException e) {
                LOG.debugf("leaving the leader election: %s", e.getMessage());
            }
        }
    }
}
