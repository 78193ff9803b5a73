package io.pinion.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class TopologyValidatorTest {

    @Test
    void theLocalTopologyPlacesShardsAndVirtualShardsAsDocumented() {
        Topology topology = TopologyLoader.fromResource("topology/local.json");
        assertEquals(64, topology.mysql().shardCount());
        assertEquals("mysql-1", topology.mysql().hostOf(31).orElseThrow().name());
        assertEquals("mysql-2", topology.mysql().hostOf(32).orElseThrow().name());
        assertEquals("redis-1", topology.redis().instanceOf(4095).orElseThrow().name());
        assertEquals("redis-2", topology.redis().instanceOf(4096).orElseThrow().name());
        assertEquals("hbase-standby", topology.hbase().clusterFor(HBaseRole.MATERIALIZED_STANDBY).orElseThrow().name());
    }

    @Test
    void theProductionExampleHas4096ShardsOnEightHosts() {
        Topology topology = TopologyLoader.fromFile(Path.of("config/topology.production-example.json"));
        assertEquals(4096, topology.mysql().shardCount());
        assertEquals(8, topology.mysql().hosts().size());
        topology.mysql().hosts().forEach(host -> assertEquals(512, topology.mysql().shardsOf(host).length));
    }

    @Test
    void aShardOnTwoHostsIsRejected() {
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class,
                () -> parse(localWith("\"shards\": [[32, 63]]", "\"shards\": [[31, 63]]")));
        assertTrue(e.getMessage().contains("shard 31 is on both mysql-1 and mysql-2"), e.getMessage());
    }

    @Test
    void aShardOnNoHostIsRejected() {
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class,
                () -> parse(localWith("\"shards\": [[32, 63]]", "\"shards\": [[33, 63]]")));
        assertTrue(e.getMessage().contains("shard 32 is not served by any host"), e.getMessage());
    }

    @Test
    void aRoleNamingAnUnknownClusterIsRejected() {
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class,
                () -> parse(localWith("\"pools\": \"hbase-primary\"", "\"pools\": \"hbase-nowhere\"")));
        assertTrue(e.getMessage().contains("unknown cluster 'hbase-nowhere'"), e.getMessage());
    }

    @Test
    void aBadEndpointAndAnOpenRangeBeyondTheShardsAreBothReported() {
        String json = localWith("\"127.0.0.1:33062\"", "\"127.0.0.1\"")
                .replace("\"openShards\": [0, 63]", "\"openShards\": [0, 64]");
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> parse(json));
        assertEquals(2, e.problems().size(), e.getMessage());
    }

    @Test
    void anUnknownFieldIsRejected() {
        assertThrows(InvalidTopologyException.class,
                () -> parse(localWith("\"shardCount\": 64", "\"shardCount\": 64, \"shardz\": 1")));
    }

    private static String localWith(String from, String to) {
        try (var in = TopologyValidatorTest.class.getClassLoader().getResourceAsStream("topology/local.json")) {
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(json.contains(from), "fixture contains " + from);
            return json.replace(from, to);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Topology parse(String json) throws IOException {
        return TopologyLoader.parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "test");
    }
}
