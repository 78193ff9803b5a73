package io.pinion.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.zookeeper.KeeperException;

import io.smallrye.mutiny.Uni;

/**
 * The dequeue brokers' membership in ZooKeeper: opens a broker's {@link BrokerSeat} (a session of its own) and reads
 * who is a member and who owns which partition, for the admin API.
 */
@ApplicationScoped
public class BrokerSeats {

    private final Zookeeper zookeeper;

    BrokerSeats(Zookeeper zookeeper) {
        this.zookeeper = zookeeper;
    }

    /** This instance's id in the cluster (its own broker takes it). */
    public String instanceId() {
        return zookeeper.instanceId();
    }

    /**
     * Registers a broker as a member, in a new session with this timeout; it serves once {@link
     * BrokerSeat#connected()}.
     */
    public BrokerSeat open(String brokerId, String address, Duration sessionTimeout, BrokerSeat.Listener listener) {
        return new BrokerSeat(zookeeper.newSession(sessionTimeout), brokerId, address, listener);
    }

    /** The live brokers, by id. */
    public Uni<List<BrokerSeat.Member>> members() {
        return zookeeper.call("broker members", () -> {
            List<BrokerSeat.Member> members = new ArrayList<>();
            for (String id : children(BrokerSeat.MEMBERS)) {
                byte[] data = data(BrokerSeat.MEMBERS + "/" + id);
                if (data != null) {
                    members.add(BrokerSeat.member(data));
                }
            }
            members.sort(java.util.Comparator.comparing(BrokerSeat.Member::id));
            return members;
        });
    }

    /** Each owned partition ({@code queueId/partition}) with its owner's id. */
    public Uni<Map<String, String>> owners() {
        return zookeeper.call("partition owners", () -> {
            Map<String, String> owners = new TreeMap<>();
            for (String znode : children(BrokerSeat.OWNERS)) {
                byte[] data = data(BrokerSeat.OWNERS + "/" + znode);
                if (data != null) {
                    owners.put(BrokerSeat.partitionOf(znode), new String(data, StandardCharsets.UTF_8));
                }
            }
            return owners;
        });
    }

    private List<String> children(String path) throws Exception {
        try {
            return zookeeper.client().getChildren().forPath(path);
        } catch (KeeperException.NoNodeException none) {
            return List.of();
        }
    }

    private byte[] data(String path) throws Exception {
        try {
            return zookeeper.client().getData().forPath(path);
        } catch (KeeperException.NoNodeException gone) {
            return null;
        }
    }
}
