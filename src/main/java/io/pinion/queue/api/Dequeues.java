package io.pinion.queue.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.queue.LeasedJob;
import io.pinion.queue.broker.LocalBroker;
import io.smallrye.mutiny.Uni;

/**
 * A dequeue from any instance. Each instance's broker serves only the partitions it owns; a dequeue that finds nothing
 * due in this instance's partitions asks the brokers that own the queue's other partitions ({@link PeerDequeues}),
 * in a random order, without waiting. When none has a job due, the call waits: here when this instance owns
 * partitions of the queue (jobs enqueued into them wake it; at the end of a wait that brought nothing, the others
 * are asked once more), otherwise at one of the owners. A worker behind a load
 * balancer thus gets jobs whenever any instance has some due, and never waits on an instance that owns nothing.
 */
@ApplicationScoped
public class Dequeues {

    private final LocalBroker broker;
    private final PeerDequeues peers;
    private final LeaseTokens tokens;

    Dequeues(LocalBroker broker, PeerDequeues peers, LeaseTokens tokens) {
        this.broker = broker;
        this.peers = peers;
        this.tokens = tokens;
    }

    /** Up to {@code max} jobs of the queue from this instance's partitions, waiting up to {@code waitMs}. */
    Uni<List<LeaseView>> here(String queue, int max, long waitMs) {
        return broker.take(queue, max, waitMs).map(this::views);
    }

    /** Up to {@code max} jobs of the queue from any instance's partitions, waiting up to {@code waitMs}. */
    Uni<List<LeaseView>> anywhere(String queue, int max, long waitMs, String authorization) {
        List<String> others = broker.peersFor(queue);
        if (others.isEmpty()) {
            return here(queue, max, waitMs); // this instance's partitions are all there is
        }
        return here(queue, max, 0).chain(found -> {
            if (!found.isEmpty()) {
                return Uni.createFrom().item(found);
            }
            List<String> order = new ArrayList<>(others);
            Collections.shuffle(order, ThreadLocalRandom.current());
            return peers.firstWithJobs(order, queue, max, authorization).chain(there -> {
                if (!there.isEmpty() || waitMs == 0) {
                    return Uni.createFrom().item(there);
                }
                if (!broker.serves(queue)) {
                    return peers.dequeue(order.get(0), queue, max, waitMs, authorization);
                }
                // nothing came here during the wait: the others may have had jobs come due meanwhile
                return here(queue, max, waitMs).chain(waited -> waited.isEmpty()
                        ? peers.firstWithJobs(order, queue, max, authorization) : Uni.createFrom().item(waited));
            });
        });
    }

    private List<LeaseView> views(List<LeasedJob> jobs) {
        return jobs.stream().map(job -> LeaseView.of(job, tokens)).toList();
    }
}
