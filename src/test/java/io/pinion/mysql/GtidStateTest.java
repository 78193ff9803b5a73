package io.pinion.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What {@code rejoin} decides from two servers' GTIDs. */
class GtidStateTest {

    @Test
    void aReplicaThatHoldsNothingOfItsOwnCanFollow() {
        GtidState master = GtidState.parse("0-1-500,0-11-520");
        assertEquals(0, GtidState.parse("0-1-500").aheadOf(master));
        assertEquals(0, GtidState.parse("0-11-520").aheadOf(master));
        assertEquals(0, GtidState.parse("").aheadOf(master));
        assertEquals(0, GtidState.parse(null).aheadOf(master));
    }

    @Test
    void anOldMasterThatCrashedWithUnsentTransactionsIsAhead() {
        // the replica received up to 0-1-500, was promoted and wrote 0-11-501…520; the old master had written 501…503
        GtidState newMaster = GtidState.parse("0-1-500,0-11-520");
        assertEquals(3, GtidState.parse("0-1-503").aheadOf(newMaster));
    }

    @Test
    void aPositionFromAServerTheMasterNeverHeardOfIsAheadByWhatItLacks() {
        GtidState master = GtidState.parse("0-1-500");
        assertEquals(20, GtidState.parse("0-12-520").aheadOf(master));
        assertEquals(1, GtidState.parse("0-12-400").aheadOf(master));
        assertEquals(7, GtidState.parse("1-1-7").aheadOf(master), "another domain");
    }

    @Test
    void aPositionCoversWhatItReachedInEveryDomain() {
        GtidState target = GtidState.parse("0-12-14635");
        assertTrue(GtidState.parse("0-2-14635").covers(target), "the same transaction, logged under another id");
        assertTrue(GtidState.parse("0-12-14640").covers(target));
        assertFalse(GtidState.parse("0-12-14634").covers(target));
        assertFalse(GtidState.parse("").covers(target));
        assertTrue(GtidState.parse("0-1-9").covers(GtidState.parse("")));
        assertFalse(GtidState.parse("0-1-900").covers(GtidState.parse("0-1-5,1-1-3")), "a domain it lacks");
    }

    @Test
    void theLastOfEachServerCounts() {
        assertEquals("0-1-7,0-2-3", GtidState.parse("0-1-5, 0-1-7,0-2-3").toString());
        assertThrows(IllegalArgumentException.class, () -> GtidState.parse("0-1"));
    }
}
