package io.pinion.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One dequeue broker's place in the cluster, as Pacer keeps it in ZooKeeper: a session of its own, an ephemeral
 * member znode {@code <root>/brokers/<id>} (its address and start time) and an ephemeral owner znode
 * {@code <root>/queue-owners/<queueId>-<partition>} for each partition it serves. Creating the owner znode is the
 * claim, so a partition has at most one owner; an owner deletes it only after it has stopped serving the
 * partition, and a dead broker's znodes go when the ensemble expires its session.
 *
 * <p>Every loss of the connection starts a new {@link #epoch() epoch}: what the broker claimed before is no
 * longer its to serve until it claims it again (ZooKeeper may have expired the session meanwhile). The client
 * notices a silent connection within two thirds of the session timeout, before the ensemble can expire the
 * session, so a cut-off broker stops before another may start. Calls block: the broker makes them on its own
 * coordination thread.
 */
public final class BrokerSeat implements AutoCloseable {

    /** What the broker hears from its seat, on ZooKeeper's threads: it only schedules work. */
    public interface Listener {

        /** The members changed, an owner znode it waits for went away, or the session is back. */
        void changed();

        /** The connection is lost: nothing claimed before may be served until claimed again. */
        void lost();
    }

    /** A live broker as its member znode describes it. */
    public record Member(String id, String address, long startedAt) {
    }

    static final String MEMBERS = "/brokers";
    static final String OWNERS = "/queue-owners";

    private static final Logger LOG = Logger.getLogger(BrokerSeat.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CuratorFramework session;
    private final String brokerId;
    private final Listener listener;
    private final Watcher watcher;
    private final PersistentNode member;
    private final AtomicLong epoch = new AtomicLong();
    /** The members' addresses, read once per member. */
    private final Map<String, String> addresses = new ConcurrentHashMap<>();
    private volatile boolean connected;

    BrokerSeat(CuratorFramework session, String brokerId, String address, Listener listener) {
        this.session = session;
        this.brokerId = brokerId;
        this.listener = listener;
        this.watcher = event -> listener.changed();
        session.getConnectionStateListenable().addListener((client, state) -> onState(state));
        this.member = new PersistentNode(session, CreateMode.EPHEMERAL, false, MEMBERS + "/" + brokerId,
                json(new Member(brokerId, address, System.currentTimeMillis())));
        member.start();
        if (session.getZookeeperClient().isConnected()) {
            onState(ConnectionState.CONNECTED);
        }
    }

    public String brokerId() {
        return brokerId;
    }

    /** The current epoch: it changes whenever the connection is lost. */
    public long epoch() {
        return epoch.get();
    }

    /** Whether partitions claimed in {@code claimedIn} may be served now: connected and no loss since. */
    public boolean holds(long claimedIn) {
        return connected && epoch.get() == claimedIn;
    }

    public boolean connected() {
        return connected;
    }

    /** The live brokers' ids in order, watched: a change calls the listener. Empty before the first registration. */
    public List<String> memberIds() throws Exception {
        try {
            List<String> ids = new ArrayList<>(session.getChildren().usingWatcher(watcher).forPath(MEMBERS));
            ids.sort(null);
            return ids;
        } catch (KeeperException.NoNodeException none) {
            session.checkExists().usingWatcher(watcher).forPath(MEMBERS);
            return List.of();
        }
    }

    /**
     * The address of each of {@code ids} (from {@link #memberIds()}), as its member znode gives it; each member's is
     * read once. A member whose znode went meanwhile is left out.
     */
    public Map<String, String> addresses(List<String> ids) throws Exception {
        addresses.keySet().retainAll(ids);
        for (String id : ids) {
            if (!addresses.containsKey(id)) {
                try {
                    addresses.put(id, member(session.getData().forPath(MEMBERS + "/" + id)).address());
                } catch (KeeperException.NoNodeException gone) {
                    // left between the listing and now
                }
            }
        }
        return Map.copyOf(addresses);
    }

    /**
     * Claims the partition ({@code queueId/partition}): true when this session owns its owner znode now. When
     * another broker owns it, the znode is watched and its deletion calls the listener.
     */
    public boolean claim(String partition) throws Exception {
        String path = ownerPath(partition);
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                session.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                        .forPath(path, brokerId.getBytes(StandardCharsets.UTF_8));
                return true;
            } catch (KeeperException.NodeExistsException taken) {
                Stat stat = session.checkExists().usingWatcher(watcher).forPath(path);
                if (stat != null) {
                    return stat.getEphemeralOwner() == sessionId(); // still ours from before a short disconnection
                }
            }
        }
        return false;
    }

    /** Deletes the partition's owner znode if this session holds it (after the broker stopped serving it). */
    public void release(String partition) throws Exception {
        String path = ownerPath(partition);
        Stat stat = session.checkExists().forPath(path);
        if (stat != null && stat.getEphemeralOwner() == sessionId()) {
            try {
                session.delete().withVersion(stat.getVersion()).forPath(path);
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException gone) {
                // expired or released meanwhile
            }
        }
    }

    /** Ends the session: the ensemble deletes the member and owner znodes at once. */
    @Override
    public void close() {
        connected = false;
        epoch.incrementAndGet();
        try {
            member.close();
        } catch (java.io.IOException | RuntimeException e) {
            LOG.debugf("closing broker %s's member znode: %s", brokerId, e.getMessage());
        }
        session.close();
    }

    static String ownerPath(String partition) {
        return OWNERS + "/" + partition.replace('/', '-');
    }

    /** {@code queueId/partition} from an owner znode's name. */
    static String partitionOf(String znode) {
        int dash = znode.lastIndexOf('-');
        return znode.substring(0, dash) + "/" + znode.substring(dash + 1);
    }

    static byte[] json(Member member) {
        try {
            return JSON.writeValueAsBytes(member);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Member member(byte[] data) throws java.io.IOException {
        return JSON.readValue(data, Member.class);
    }

    private long sessionId() throws Exception {
        return session.getZookeeperClient().getZooKeeper().getSessionId();
    }

    private void onState(ConnectionState state) {
        if (state.isConnected()) {
            connected = true;
            listener.changed();
        } else {
            if (connected) {
                LOG.infof(
                        "broker %s lost ZooKeeper (%s): it serves no partition until it claims them again",
                        brokerId, state);
            }
            connected = false;
            epoch.incrementAndGet();
            listener.lost();
        }
    }
}
