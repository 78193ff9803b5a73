package io.pinion.queue;

import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.pinion.TestApi;
import io.pinion.mysql.ShardSql;
import io.pinion.stack.StackTest;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A queue whose partition tables went missing (its creation committed the rows, then its table statements and its
 * clean-up failed on a stalled host) gets them back when its handler looks it up at start
 * ({@code QueueRegistry.ensureTables}), and takes jobs again.
 */
@QuarkusTest
@StackTest
class MissingPartitionTableTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    QueueRegistry registry;
    @Inject
    ShardSql sql;

    @Test
    void missingPartitionTablesAreCreatedAgain() {
        String name = Queues.create("missing-table", Map.of("partitions", 2));
        Queue queue = registry.get(name).await().atMost(WAIT);
        for (QueuePartition partition : queue.partitions()) {
            sql.text(partition.shard(), "DROP TABLE " + partition.table()).await().atMost(WAIT);
        }
        TestApi.worker().as().body(Map.of("jobs", List.of(Map.of("body", "refused"), Map.of("body", "refused too"))))
                .post("/v1/queues/" + name + "/jobs").then().statusCode(greaterThanOrEqualTo(500));

        registry.ensureTables(queue).await().atMost(WAIT);

        assertEquals(2, Queues.enqueue(TestApi.worker(), name,
                List.of(Map.of("body", "kept"), Map.of("body", "kept too"))).size());
    }
}
