package io.pinion.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The login limits' client address, with 127.0.0.1 and 10.1.0.0/16 as the trusted proxies. */
class ClientAddressesTest {

    private final ClientAddresses addresses = new ClientAddresses(() -> List.of("127.0.0.1", "10.1.0.0/16", "::1"));

    @Test
    void anUntrustedPeerIsTheClientWhateverItForwards() {
        assertEquals("203.0.113.9", addresses.of("203.0.113.9", List.of("198.51.100.1"), List.of()));
        assertEquals("203.0.113.9", addresses.of("203.0.113.9", List.of(), List.of("for=198.51.100.1")));
    }

    @Test
    void aTrustedProxysForwardedAddressIsTheClient() {
        assertEquals("198.51.100.1", addresses.of("127.0.0.1", List.of("198.51.100.1"), List.of()));
        // a trusted peer without forwarding headers is itself the client
        assertEquals("127.0.0.1", addresses.of("127.0.0.1", List.of(), List.of()));
    }

    @Test
    void whatAClientWritesItselfStaysOnTheLeftAndNamesNobody() {
        // the client sent "X-Forwarded-For: 192.0.2.77"; its proxy appended the address it saw
        assertEquals("198.51.100.1", addresses.of("127.0.0.1", List.of("192.0.2.77, 198.51.100.1"), List.of()));
        assertEquals("198.51.100.1", addresses.of("127.0.0.1", List.of("192.0.2.77", "198.51.100.1"), List.of()));
    }

    @Test
    void trustedHopsAreSkippedFromTheRight() {
        // client → edge proxy 10.1.2.3 → local balancer 127.0.0.1 → the service
        assertEquals("198.51.100.1", addresses.of("127.0.0.1", List.of("192.0.2.77, 198.51.100.1, 10.1.2.3"),
                List.of()));
        // every hop trusted: the leftmost is the nearest thing to a client
        assertEquals("10.1.9.9", addresses.of("127.0.0.1", List.of("10.1.9.9, 10.1.2.3"), List.of()));
    }

    @Test
    void theForwardedHeaderIsReadWhenThereIsNoXForwardedFor() {
        assertEquals("198.51.100.1", addresses.of("127.0.0.1", List.of(),
                List.of("for=192.0.2.77;proto=http, for=\"198.51.100.1:4711\";by=10.1.0.1")));
        assertEquals("2001:db8::17", addresses.of("::1", List.of(), List.of("For=\"[2001:db8::17]:4711\"")));
        assertEquals("198.51.100.1", addresses.of("127.0.0.1", List.of("198.51.100.1"), List.of("for=192.0.2.77")));
    }

    @Test
    void anObfuscatedHopIsNeverTrustedAndStandsForItself() {
        assertEquals("unknown", addresses.of("127.0.0.1", List.of("192.0.2.77, unknown"), List.of()));
        assertEquals("_hidden", addresses.of("127.0.0.1", List.of(), List.of("for=_hidden")));
    }

    @Test
    void rangesAndLiteralsMatchByAddress() {
        assertTrue(addresses.isTrusted("10.1.255.254"));
        assertFalse(addresses.isTrusted("10.2.0.1"));
        assertTrue(addresses.isTrusted("0:0:0:0:0:0:0:1"));
        assertFalse(addresses.isTrusted("example.org"));
        assertThrows(IllegalArgumentException.class, () -> new ClientAddresses(() -> List.of("10.1.0.0/99")));
    }
}
