package io.pinion.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.pinion.paging.Position;

/**
 * A cached list head answers only what it can tell: anything of a complete list, and of a cut list only pages
 * that end inside what it keeps.
 */
class ListHeadTest {

    /** Entries at sequences 50, 40, 40 (ties by target id, descending), 30, 20. */
    private static final long[] SEQUENCES = { 50, 40, 40, 30, 20 };
    private static final long[] TARGETS = { 5, 9, 4, 3, 2 };

    @Test
    void aCompleteListAnswersEveryPageToItsEnd() {
        ListHead head = new ListHead(SEQUENCES, TARGETS, true);
        assertEquals(List.of(new Position(50, 5), new Position(40, 9)), head.below(null, 2));
        assertEquals(List.of(new Position(40, 4), new Position(30, 3)), head.below(new Position(40, 9), 2));
        assertEquals(List.of(new Position(20, 2)), head.below(new Position(30, 3), 5));
        assertEquals(List.of(), head.below(new Position(20, 2), 5));
        assertEquals(List.of(new Position(20, 2)), head.below(new Position(25, 0), 5));
    }

    @Test
    void aCutListAnswersOnlyPagesItHoldsWhole() {
        ListHead head = new ListHead(SEQUENCES, TARGETS, false);
        assertEquals(List.of(new Position(40, 4), new Position(30, 3), new Position(20, 2)),
                head.below(new Position(40, 9), 3));
        assertNull(head.below(new Position(40, 9), 4), "the list may go on past what is kept");
        assertNull(head.below(new Position(10, 0), 1));
    }

    @Test
    void aMergingReaderGetsEverythingKeptBelowThePlaceOnceItHoldsEnough() {
        ListHead cut = new ListHead(SEQUENCES, TARGETS, false);
        assertEquals(List.of(new Position(40, 4), new Position(30, 3), new Position(20, 2)),
                cut.belowAtLeast(new Position(40, 9), 2), "all three kept below, though two were asked");
        assertNull(cut.belowAtLeast(new Position(30, 3), 2), "one kept below, and the list goes on");
        ListHead complete = new ListHead(SEQUENCES, TARGETS, true);
        assertEquals(List.of(new Position(20, 2)), complete.belowAtLeast(new Position(30, 3), 2),
                "the whole list is kept: its last entry is all there is");
        assertEquals(List.of(), complete.belowAtLeast(new Position(20, 2), 2));
    }
}
