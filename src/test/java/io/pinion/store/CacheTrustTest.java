package io.pinion.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.pinion.store.CacheTrust.State;

/**
 * The object cache's trust as a state machine, driven by the channel's events alone (subscription up or down, own
 * heartbeats published and heard, the periodic check): no Redis, no timer, each step by hand.
 */
class CacheTrustTest {

    private final CacheTrust trust = new CacheTrust();
    private final List<String> emptied = new ArrayList<>();

    @Test
    void startsLostAndIsUsedOnlyOnceAnOwnHeartbeatComesBackWhileSubscribed() {
        assertEquals(State.LOST, trust.state());
        assertNull(trust.heard(trust.nextBeat(), () -> emptied.add("before use")), "not subscribed yet");
        assertEquals(State.LOST, trust.state());

        trust.subscription(true, () -> emptied.add("loss"));
        assertEquals(State.LOST, trust.state(), "subscribed, but nothing proves delivery yet");
        assertEquals(State.LOST, trust.heard(trust.nextBeat(), () -> emptied.add("before use")));
        assertEquals(State.DELIVERING, trust.state());
        assertEquals(List.of("before use"), emptied, "starts over from empty, once");
        assertNull(trust.heard(trust.nextBeat(), () -> emptied.add("before use")), "already delivering");
        assertEquals(1, emptied.size());
    }

    @Test
    void lateHeartbeatsBypassTheCacheWithoutEmptyingItAndItResumesWhenOneComesBack() {
        delivering();
        long allowed = 2;
        trust.nextBeat();
        trust.nextBeat();
        assertFalse(trust.check(allowed), "two outstanding are allowed");
        long third = trust.nextBeat();
        assertTrue(trust.check(allowed), "three are not");
        assertEquals(State.LATE, trust.state());
        assertFalse(trust.check(allowed), "late once, counted once");

        assertEquals(State.LATE, trust.heard(third, () -> emptied.add("before use")));
        assertEquals(State.DELIVERING, trust.state());
        assertEquals(List.of(), emptied, "a late channel lost nothing: the entries are kept");
        assertEquals(0, trust.outstanding());
    }

    @Test
    void aLostSubscriptionEmptiesTheCacheFromAnyStateAndOnlyAHeartbeatAfterItsReturnRestoresTrust() {
        delivering();
        assertEquals(State.DELIVERING, trust.subscription(false, () -> emptied.add("loss")));
        assertEquals(State.LOST, trust.state());
        assertEquals(List.of("loss"), emptied);
        assertNull(trust.subscription(false, () -> emptied.add("loss")), "already lost");

        long beat = trust.nextBeat();
        assertNull(trust.heard(beat, () -> emptied.add("before use")), "a heartbeat heard while unsubscribed");
        assertEquals(State.LOST, trust.state());

        trust.subscription(true, () -> emptied.add("loss"));
        assertEquals(State.LOST, trust.heard(trust.nextBeat(), () -> emptied.add("before use")));
        assertEquals(List.of("loss", "before use"), emptied);

        long late = trust.nextBeat();
        trust.nextBeat();
        assertTrue(trust.check(1));
        assertEquals(State.LATE, trust.subscription(false, () -> emptied.add("loss")), "late, then lost");
        assertEquals(State.LOST, trust.state());
        assertNull(trust.heard(late, () -> emptied.add("before use")));
    }

    @Test
    void anOldHeartbeatHeardLateDoesNotMoveTheCountBack() {
        delivering();
        long first = trust.nextBeat();
        long second = trust.nextBeat();
        trust.heard(second, () -> { });
        trust.heard(first, () -> { });
        assertEquals(0, trust.outstanding());
    }

    private void delivering() {
        trust.subscription(true, () -> { });
        trust.heard(trust.nextBeat(), () -> { });
        assertEquals(State.DELIVERING, trust.state());
    }
}
