package io.pinion.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** A topology written by the service (a promotion) reads back as the same topology. */
class TopologyJsonTest {

    @Test
    void theWrittenDocumentReadsBackUnchanged() throws Exception {
        Topology local = TopologyLoader.fromResource("topology/local.json");
        String json = TopologyLoader.toJson(local);
        assertEquals(
                local,
                TopologyLoader.parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "written"));
    }
}
