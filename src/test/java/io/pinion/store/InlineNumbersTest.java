package io.pinion.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import io.vertx.mutiny.sqlclient.Tuple;

/** A read across shards is sent as text: only whole numbers are ever written into it. */
class InlineNumbersTest {

    @Test
    void eachPlaceholderGetsItsNumber() {
        StringBuilder text = new StringBuilder();
        MappingStore.inline(text, "SELECT x FROM t WHERE a = ? AND b < ? LIMIT ?", Tuple.of(12L, -3L, 7));
        assertEquals("SELECT x FROM t WHERE a = 12 AND b < -3 LIMIT 7", text.toString());
    }

    @Test
    void anythingButAWholeNumberIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> MappingStore.inline(new StringBuilder(), "WHERE a = ?", Tuple.of("1 OR 1=1")));
        assertThrows(IllegalArgumentException.class,
                () -> MappingStore.inline(new StringBuilder(), "WHERE a = ? AND b = ?", Tuple.of(1L)));
    }
}
