package io.pinion.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.pinion.mysql.MysqlConfig;
import io.pinion.paging.CursorConfig;
import io.pinion.topology.MysqlHost;
import io.pinion.topology.MysqlTopology;
import io.pinion.topology.ShardRange;
import io.pinion.topology.Topology;

/**
 * What the prod profile refuses: an unset or default cursor secret, a short one, an unset MySQL password, and, once a
 * MySQL server is on another machine, the local stack's password on any of the three MySQL accounts the service uses.
 */
class ProdChecksTest {

    private static final String SECRET = "a-long-enough-secret-0123";

    @Test
    void unsetOrWeakSecretsAreRefusedAndSetOnesPass() {
        assertEquals(4, ProdChecks.problems(null, null, null, null, false).size());
        assertEquals(4, ProdChecks.problems(CursorConfig.LOCAL_SECRET, MysqlConfig.LOCAL_PASSWORD,
                MysqlConfig.LOCAL_OPS_PASSWORD, MysqlConfig.LOCAL_REPLICATION_PASSWORD, false).size());
        assertTrue(ProdChecks.problems(CursorConfig.LOCAL_SECRET, "s1", "s2", "s3", false)
                .get(0)
                .contains("PINION_CURSOR_SECRET"));
        assertEquals(1, ProdChecks.problems("too-short", "s1", "s2", "s3", false).size());
        assertTrue(ProdChecks.problems(SECRET, null, "s2", "s3", false).get(0).contains("PINION_MYSQL_PASSWORD"));
        assertTrue(ProdChecks.problems(SECRET, "pinion", "s2", "s3", false).get(0).contains("PINION_MYSQL_PASSWORD"));
        assertTrue(ProdChecks.problems(SECRET, "s1", "pinion_ops", "s3", false)
                .get(0)
                .contains("PINION_MYSQL_OPS_PASSWORD"));
        assertTrue(ProdChecks.problems(SECRET, "s1", "s2", "pinion_repl", false)
                .get(0)
                .contains("PINION_MYSQL_REPLICATION_PASSWORD"));
        assertEquals(List.of(), ProdChecks.problems(SECRET, "s1", "s2", "s3", false));
        // the local stack (every server on the loopback interface) keeps its local passwords; the service's must be set
        assertEquals(List.of(), ProdChecks.problems(SECRET, MysqlConfig.LOCAL_PASSWORD, MysqlConfig.LOCAL_OPS_PASSWORD,
                MysqlConfig.LOCAL_REPLICATION_PASSWORD, true));
        assertEquals(
                1,
                ProdChecks.problems(
                                SECRET,
                                null,
                                MysqlConfig.LOCAL_OPS_PASSWORD,
                                MysqlConfig.LOCAL_REPLICATION_PASSWORD,
                                true)
                        .size());
    }

    @Test
    void onlyATopologyOfLoopbackServersCountsAsLocal() {
        assertTrue(ProdChecks.loopbackOnly(topology("127.0.0.1:33061", "127.0.0.1:33071")));
        assertTrue(ProdChecks.loopbackOnly(topology("localhost:3306", null)));
        assertFalse(ProdChecks.loopbackOnly(topology("mysql-1:3306", null)));
        assertFalse(ProdChecks.loopbackOnly(topology("127.0.0.1:3306", "10.0.0.7:3306")));
    }

    private static Topology topology(String master, String replica) {
        return new Topology(new MysqlTopology(64, null, List.of(new MysqlHost("mysql-1", master, replica,
                List.of(new ShardRange(0, 63))))), null, null);
    }
}
