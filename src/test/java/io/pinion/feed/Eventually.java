package io.pinion.feed;

import java.util.List;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.JsonNode;

import io.pinion.Json;
import io.pinion.TestApi.TestUser;
import io.pinion.Wait;
import io.pinion.feed.fanout.FeedJobs;
import io.pinion.graph.FollowEvents;

/**
 * Waits for the job queue to have done its part.
 */
public final class Eventually {

    /**
     * How long a feed job may take: a job that fails is retried after 0.5, 1, 2, 4, 8 and then every 10 s, and an
     * HBase cluster restarted by an earlier test can refuse writes for a while as its regions come back.
     */
    public static final long JOBS_MS = 60_000;

    /** Every queue of the feed's jobs, and the follow events they start from. */
    public static final List<String> FEED_QUEUES = List.of(FeedJobs.FANOUT, FeedJobs.POOL_INSERT, FeedJobs.PERSIST,
            FeedJobs.RELATED, FeedJobs.PURGE, FeedJobs.REGENERATE, FeedJobs.TRIM, FollowEvents.QUEUE);

    private Eventually() {
    }

    /** Until no job of the queues is pending or running (as an admin sees their stats). */
    public static void idle(TestUser admin, List<String> queues) throws InterruptedException {
        within(JOBS_MS, () -> queues.stream().allMatch(queue -> {
            JsonNode counts = Json.of(admin.as().get("/v1/queues/" + queue + "/stats").then().statusCode(200).extract()
                    .response()).path("counts");
            return counts.path("PENDING").asLong() + counts.path("RUNNING").asLong() == 0;
        }));
    }

    public static void within(long millis, BooleanSupplier condition) throws InterruptedException {
        Wait.within(millis, condition);
    }
}
