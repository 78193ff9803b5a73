package io.pinion.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PinionIdTest {

    @Test
    void theWorkedExampleDecodes() {
        PinionId id = PinionId.parse("241294492511762325");
        assertEquals(3429, id.shard());
        assertEquals(ObjectType.PIN, id.type());
        assertEquals(7075733L, id.local());
        assertEquals(241294492511762325L, id.value());
    }

    @Test
    void encodingIsTheInverseOfDecoding() {
        PinionId id = PinionId.of(65535, ObjectType.USER, PinionId.MAX_LOCAL);
        assertEquals(id, PinionId.decode(id.value()));
        assertEquals(id, PinionId.parse(id.toString()));
    }

    @Test
    void theLargestLocalIdIsTwoToThe36MinusOne() {
        assertEquals((1L << 36) - 1, PinionId.MAX_LOCAL);
        assertEquals(PinionId.MAX_LOCAL, PinionId.of(0, ObjectType.PIN, PinionId.MAX_LOCAL).local());
    }

    @Test
    void aLocalIdPast36BitsIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> PinionId.of(1, ObjectType.PIN, PinionId.MAX_LOCAL + 1));
        assertThrows(IllegalArgumentException.class, () -> PinionId.of(1, ObjectType.PIN, 0));
    }

    @Test
    void aShardPast16BitsIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> PinionId.of(65536, ObjectType.PIN, 1));
    }

    @Test
    void setReservedBitsAreRejected() {
        long withReserved = (1L << 62) | PinionId.of(1, ObjectType.PIN, 1).value();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PinionId.decode(withReserved));
        assertEquals("the reserved bits of the id are set", e.getMessage());
    }

    @Test
    void garbageNegativeAndOverflowingTextIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> PinionId.parse("abc"));
        assertThrows(IllegalArgumentException.class, () -> PinionId.parse("-5"));
        assertThrows(IllegalArgumentException.class, () -> PinionId.parse("12 34"));
        assertThrows(IllegalArgumentException.class, () -> PinionId.parse("99999999999999999999"));
        assertThrows(IllegalArgumentException.class, () -> PinionId.parse("0"));
        assertThrows(IllegalArgumentException.class, () -> PinionId.parse(""));
    }

    @Test
    void anUnknownTypeIsRejected() {
        long unknownType = (1L << 46) | (1000L << 36) | 1;
        assertThrows(IllegalArgumentException.class, () -> PinionId.decode(unknownType));
    }
}
