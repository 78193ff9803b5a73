package io.pinion.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.pinion.paging.CursorConfig;

/**
 * What the prod profile refuses: an unset or default cursor secret, a short one, an unset MySQL password.
 */
class ProdChecksTest {

    @Test
    void unsetOrWeakSecretsAreRefusedAndSetOnesPass() {
        assertEquals(2, ProdChecks.problems(null, null).size());
        assertTrue(ProdChecks.problems(CursorConfig.LOCAL_SECRET, "pinion").get(0).contains("PINION_CURSOR_SECRET"));
        assertEquals(1, ProdChecks.problems("too-short", "pinion").size());
        assertTrue(ProdChecks.problems("a-long-enough-secret-0123", null).get(0).contains("PINION_MYSQL_PASSWORD"));
        assertEquals(List.of(), ProdChecks.problems("a-long-enough-secret-0123", "pinion"));
    }
}
