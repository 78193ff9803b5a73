package io.pinion.queue.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * A FIFO partition's one job in flight, stepped by hand on a virtual clock (the times are arguments).
 */
class FifoHeadTest {

    private final FifoHead head = new FifoHead();

    @Test
    void oneJobAtATimeUntilItIsAckedPutBackOrFoundFinished() {
        assertFalse(head.busy());
        head.handedOut(7, 1_000);
        assertTrue(head.busy());
        assertEquals(7, head.current());

        assertFalse(head.finished(8), "another job's end does not free the head");
        assertTrue(head.busy());
        assertTrue(head.finished(7));
        assertFalse(head.busy());
        assertFalse(head.finished(7), "once only");
    }

    @Test
    void anAckIsFoundAmongTheAckedIdsOnlyForTheJobInFlight() {
        assertEquals(0, head.ackedAmong(Set.of(7L)), "nothing in flight");
        head.handedOut(7, 0);
        assertEquals(0, head.ackedAmong(Set.of(5L, 6L)));
        assertEquals(7, head.ackedAmong(Set.of(6L, 7L)));
    }

    @Test
    void theJobInFlightIsCheckedAgainEveryCheckInterval() {
        assertEquals(0, head.checkDue(10_000), "nothing in flight, nothing to check");
        head.handedOut(7, 1_000);
        assertEquals(0, head.checkDue(1_000 + FifoHead.CHECK_MS - 1));
        assertEquals(7, head.checkDue(1_000 + FifoHead.CHECK_MS));
        assertEquals(0, head.checkDue(1_000 + FifoHead.CHECK_MS + 1), "just checked");
        assertEquals(7, head.checkDue(1_000 + 2 * FifoHead.CHECK_MS));
        head.finished(7);
        assertEquals(0, head.checkDue(1_000 + 10 * FifoHead.CHECK_MS));
    }

    @Test
    void theHeadReadStartsAtTheOldestUnfinishedJobUntilGarbageIsCollected() {
        assertEquals(0, head.floor());
        head.floorAt(42);
        assertEquals(42, head.floor());
        head.resetFloor();
        assertEquals(0, head.floor());
    }
}
