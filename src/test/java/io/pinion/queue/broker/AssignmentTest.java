package io.pinion.queue.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The partition assignment every broker computes alike: every partition has exactly one owner, each queue's
 * partitions are shared evenly, and a broker leaving or joining moves few more partitions than it must.
 */
class AssignmentTest {

    private static final List<String> THREE = List.of("host-1-aaaa", "host-2-bbbb", "host-3-cccc");

    @Test
    void everyPartitionHasOneOwnerAndTheSharesDifferByAtMostOne() {
        for (long queue = 1; queue <= 50; queue++) {
            for (int partitions = 1; partitions <= 16; partitions++) {
                for (int brokers = 1; brokers <= 3; brokers++) {
                    Map<Integer, String> owners = Assignment.owners(queue, partitions, THREE.subList(0, brokers));
                    assertEquals(partitions, owners.size());
                    Map<String, Integer> counts = new HashMap<>();
                    owners.values().forEach(owner -> counts.merge(owner, 1, Integer::sum));
                    int most = counts.values().stream().max(Integer::compare).orElse(0);
                    int least = counts.size() < brokers ? 0 : counts.values().stream().min(Integer::compare).orElse(0);
                    assertTrue(most - least <= 1, "even shares: " + counts);
                }
            }
        }
    }

    @Test
    void aBrokerLeavingMovesLittleMoreThanItsOwnPartitions() {
        int moved = 0;
        int itsOwn = 0;
        for (long queue = 1; queue <= 200; queue++) {
            Map<Integer, String> before = Assignment.owners(queue, 12, THREE);
            Map<Integer, String> after = Assignment.owners(queue, 12, THREE.subList(0, 2));
            for (int partition = 0; partition < 12; partition++) {
                if (!before.get(partition).equals(after.get(partition))) {
                    moved++;
                }
                if (before.get(partition).equals(THREE.get(2))) {
                    itsOwn++;
                }
            }
        }
        // a modulo assignment would move two thirds of all partitions; here mostly the leaver's third moves
        assertTrue(moved <= itsOwn * 1.25, "moved " + moved + " for " + itsOwn + " of the leaver's");
    }

    @Test
    void everyBrokerComputesTheSame() {
        List<String> reversed = new ArrayList<>(THREE);
        java.util.Collections.reverse(reversed);
        assertEquals(Assignment.owners(7, 10, THREE), Assignment.owners(7, 10, reversed));
    }
}
