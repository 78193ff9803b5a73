package io.pinion.queue.broker;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.zookeeper.BrokerSeats;
import io.smallrye.mutiny.Uni;

/** The cluster's dequeue brokers and which partition each serves, as ZooKeeper has them (for the admin API). */
@ApplicationScoped
public class BrokerDirectory {

    /** A live broker. */
    public record Member(String id, String address, long startedAt) {
    }

    private final BrokerSeats seats;

    BrokerDirectory(BrokerSeats seats) {
        this.seats = seats;
    }

    /** The live brokers, by id; 503 while ZooKeeper is out of reach. */
    public Uni<List<Member>> members() {
        return seats.members().map(members -> members.stream()
                .map(member -> new Member(member.id(), member.address(), member.startedAt())).toList());
    }

    /** Each served partition ({@code queueId/partition}) with its broker; 503 while ZooKeeper is out of reach. */
    public Uni<Map<String, String>> owners() {
        return seats.owners();
    }
}
