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
 * in a random order, without waiting. When none has a job due, the call waits a second at a time: here when this
 * instance owns partitions of the queue (jobs enqueued into them wake it), otherwise at one of the owners in turn,
 * and after each second it asks the others once more. A worker behind a load balancer thus gets jobs whenever any
 * instance has some due, within a second of their coming due elsewhere, and never waits on an instance that owns
 * nothing. A queue no broker serves yet (created since the brokers last balanced) is looked at again every 200 ms.
 */
@ApplicationScoped
public class Dequeues {

    /** How long a dequeue waits at a time while no broker serves the queue yet. */
    static final long UNASSIGNED_WAIT_MS = 200;
    /**
     * How long a dequeue waits in one place before it asks the other owners again: the longest a job due on another
     * instance waits for a worker waiting elsewhere. Each waiting dequeue asks the other owners once per slice.
     */
    static final long RECHECK_MS = 1_000;

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
            if (waitMs > UNASSIGNED_WAIT_MS && !broker.serves(queue)) {
                // no broker serves the queue yet (created since the brokers last balanced, which they do every
                // heartbeat): wait here a little, then look for its owners again, so that a job enqueued meanwhile
                // into a partition another instance then claims is not missed until the end of the wait
                return here(queue, max, UNASSIGNED_WAIT_MS).chain(found -> found.isEmpty()
                        ? anywhere(queue, max, waitMs - UNASSIGNED_WAIT_MS, authorization)
                        : Uni.createFrom().item(found));
            }
            return here(queue, max, waitMs); // this instance's partitions are all there is
        }
        return here(queue, max, 0).chain(found -> {
            if (!found.isEmpty()) {
                return Uni.createFrom().item(found);
            }
            List<String> order = new ArrayList<>(others);
            Collections.shuffle(order, ThreadLocalRandom.current());
            return peers.firstWithJobs(order, queue, max, authorization).chain(there -> !there.isEmpty() || waitMs == 0
                    ? Uni.createFrom().item(there) : waitAround(queue, max, waitMs, order, 0, authorization));
        });
    }

    /**
     * Waits for jobs of the queue a slice of the wait at a time: where they would arrive (here when this instance
     * serves partitions of the queue, else at one owner, in turn), then asks every owner once without waiting, so a job
     * that came due on another instance meanwhile is found within a slice, not at the end of the whole wait.
     */
    private Uni<List<LeaseView>> waitAround(String queue, int max, long waitMs, List<String> order, int turn,
            String authorization) {
        long slice = Math.min(waitMs, RECHECK_MS);
        Uni<List<LeaseView>> waited = broker.serves(queue) ? here(queue, max, slice)
                : peers.dequeue(order.get(turn % order.size()), queue, max, slice, authorization);
        return waited.chain(found -> {
            if (!found.isEmpty()) {
                return Uni.createFrom().item(found);
            }
            return peers.firstWithJobs(order, queue, max, authorization).chain(there ->
                    !there.isEmpty() || slice >= waitMs ? Uni.createFrom().item(there)
                            : waitAround(queue, max, waitMs - slice, order, turn + 1, authorization));
        });
    }

    private List<LeaseView> views(List<LeasedJob> jobs) {
        return jobs.stream().map(job -> LeaseView.of(job, tokens)).toList();
    }
}
