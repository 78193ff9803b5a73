package io.pinion.feed.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.pinion.feed.FeedEntry;
import io.pinion.feed.FeedSource;

/**
 * A read-ahead window answers a next page only when it knows the whole page: the cursor inside it, enough entries
 * below the cursor or the feed's end; never a cursor above its top or below its last entry.
 */
class FeedWindowTest {

    /** Entries at positions 100, 99, … (100 - n + 1), pins 1000 + position. */
    private static List<MaterializedFeed.Stored> entries(int n) {
        List<MaterializedFeed.Stored> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long position = 100 - i;
            entries.add(new MaterializedFeed.Stored(position,
                    new FeedEntry(1000 + position, FeedSource.FOLLOWING, 1.0, 7, 8)));
        }
        return entries;
    }

    private static List<Long> positions(List<MaterializedFeed.Stored> page) {
        return page == null ? null : page.stream().map(MaterializedFeed.Stored::position).toList();
    }

    @Test
    void aCursorInsideTheWindowIsAnsweredWhenTheWholePageIsThere() {
        FeedWindows.Window window = new FeedWindows.Window(null, entries(20), false);
        assertEquals(List.of(94L, 93L, 92L, 91L, 90L), positions(window.below(95, 5)));
        assertEquals(List.of(85L, 84L, 83L, 82L, 81L), positions(window.below(86, 5)), "up to the last entry");
        assertNull(window.below(85, 5), "four entries left and the feed may go on");
        assertNull(window.below(81, 1), "the cursor on the last entry: what is below is unknown");
        assertNull(window.below(70, 1), "below the window");
    }

    @Test
    void aWindowThatReachedTheFeedsEndAnswersShortPages() {
        FeedWindows.Window window = new FeedWindows.Window(null, entries(20), true);
        assertEquals(List.of(84L, 83L, 82L, 81L), positions(window.below(85, 5)));
        assertEquals(List.of(), positions(window.below(81, 5)), "nothing below the feed's last entry");
        assertEquals(List.of(), positions(window.below(50, 5)));
    }

    @Test
    void aWindowBelowAPositionDoesNotAnswerAboveIt() {
        FeedWindows.Window window = new FeedWindows.Window(101L, entries(20), false);
        assertNull(window.below(150, 3), "entries between the cursor and the window's top are unknown");
        assertEquals(List.of(100L, 99L, 98L), positions(window.below(101, 3)), "the window's own cursor");
    }

    @Test
    void excludedPinsLeaveTheWindow() {
        FeedWindows.Window window = new FeedWindows.Window(null, entries(10), true)
                .without(Set.of(1099L, 1097L));
        assertEquals(List.of(100L, 98L, 96L), positions(window.below(Long.MAX_VALUE, 3)));
    }
}
