package io.pinion.feed.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The bodies of {@code feed-fanout} jobs: each kind of work written with its {@code kind} and read back as itself, and
 * every body of the earlier one-record shape ({@link FanoutPage}) read as the job it meant, with the dedupe keys its
 * next pages had, so a chain of pages started by an earlier version is neither lost nor forked.
 */
class FanoutJobTest {

    /** As Quarkus configures the service's mapper: unknown properties are ignored. */
    private static final ObjectMapper JSON =
            new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static final FeedJobs JOBS = new FeedJobs(null, null, JSON);

    @Test
    void everyKindIsWrittenWithItsNameAndReadBackAsItself() throws Exception {
        List<FanoutJob> all = List.of(
                new FanoutJob.Route("1", "2", "3", 40, 50, false),
                new FanoutJob.Route("1", "2", "3", 0, 0, true),
                new FanoutJob.PushPage("1", "2", "3", 40, 50, null),
                new FanoutJob.PushPage("1", "2", "3", 40, 50, "c2"),
                new FanoutJob.PurgePage("1", "2", "3", "c3"),
                new FanoutJob.RelatedPurgePage("1", "2", "3", null),
                new FanoutJob.InterestIndex("1", "2", "3", 40, "tea", true));
        List<String> kinds = List.of("route", "route", "push-page", "push-page", "purge-page", "related-purge-page",
                "interest-index");
        for (int i = 0; i < all.size(); i++) {
            byte[] body = JSON.writeValueAsBytes(all.get(i));
            assertEquals(
                    kinds.get(i), JSON.readTree(body).path("kind").asText(), new String(body, StandardCharsets.UTF_8));
            assertEquals(all.get(i), JOBS.readFanout(body));
        }
    }

    @Test
    void bodiesOfTheEarlierShapeRunAsTheJobTheyMeant() {
        assertEquals(
                new FanoutJob.Route("1", "2", "3", 40, 50, false),
                earlier(
                        "{\"pin\":\"1\",\"board\":\"2\",\"author\":\"3\",\"created\":40,\"scoredAt\":50,"
                            + "\"source\":\"following\",\"interest\":null,"
                            + "\"cursor\":null,\"purge\":false,\"route\":true}"));
        assertEquals(new FanoutJob.Route("1", "2", "3", 0, 0, true),
                earlier("{\"pin\":\"1\",\"board\":\"2\",\"author\":\"3\",\"created\":0,\"scoredAt\":0,"
                        + "\"source\":\"following\",\"interest\":null,"
                        + "\"cursor\":null,\"purge\":true,\"route\":true}"));
        assertEquals(
                new FanoutJob.PushPage("1", "2", "3", 40, 50, null),
                earlier(
                        "{\"pin\":\"1\",\"board\":\"2\",\"author\":\"3\",\"created\":40,\"scoredAt\":50,"
                            + "\"source\":\"following\",\"interest\":null,"
                            + "\"cursor\":null,\"purge\":false,\"route\":false}"));
        assertEquals(
                new FanoutJob.PushPage("1", "2", "3", 40, 50, "c2"),
                earlier(
                        "{\"pin\":\"1\",\"board\":\"2\",\"author\":\"3\",\"created\":40,\"scoredAt\":50,"
                            + "\"source\":\"following\",\"interest\":null,"
                            + "\"cursor\":\"c2\",\"purge\":false,\"route\":false}"));
        assertEquals(
                new FanoutJob.PurgePage("1", "2", "3", "c3"),
                earlier(
                        "{\"pin\":\"1\",\"board\":\"2\",\"author\":\"3\",\"created\":0,\"scoredAt\":0,"
                            + "\"source\":\"following\",\"interest\":null,"
                            + "\"cursor\":\"c3\",\"purge\":true,\"route\":false}"));
        assertEquals(new FanoutJob.RelatedPurgePage("1", "2", "3", null),
                earlier("{\"pin\":\"1\",\"board\":\"2\",\"author\":\"3\",\"created\":0,\"scoredAt\":0,"
                        + "\"source\":\"related\",\"interest\":null,"
                        + "\"cursor\":null,\"purge\":true,\"route\":true}"));
        assertEquals(
                new FanoutJob.InterestIndex("1", "2", "3", 40, "tea", false),
                earlier(
                        "{\"pin\":\"1\",\"board\":\"2\",\"author\":\"3\",\"created\":40,\"scoredAt\":0,"
                            + "\"source\":\"interests\",\"interest\":\"tea\","
                            + "\"cursor\":null,\"purge\":false,\"route\":true}"));
    }

    @Test
    void nextPagesKeepTheDedupeKeysOfTheEarlierShape() {
        // the earlier shape's key: "fanout:" + pin + ":" + source + ":" + (interest or "") + ":" + (purge ? "purge:" :
        // "")
        // + cursor; a page enqueued by an earlier version and the same page enqueued now must share one key
        assertEquals(
                "fanout:1:following::c2",
                new FanoutJob.PushPage("1", "2", "3", 40, 50, null).next("c2").dedupeKey());
        assertEquals(
                "fanout:1:following::purge:c3",
                new FanoutJob.PurgePage("1", "2", "3", null).next("c3").dedupeKey());
        assertEquals(
                "fanout:1:related::purge:c4",
                new FanoutJob.RelatedPurgePage("1", "2", "3", null).next("c4").dedupeKey());
        FanoutJob.Route route = new FanoutJob.Route("1", "2", "3", 40, 50, false);
        assertEquals(new FanoutJob.PushPage("1", "2", "3", 40, 50, null), route.firstPage());
        assertEquals(new FanoutJob.PurgePage("1", "2", "3", null), route.firstPurgePage());
    }

    @Test
    void aBodyThatIsNoFanoutJobIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> JOBS.readFanout("[1,2]".getBytes(StandardCharsets.UTF_8)));
        assertThrows(IllegalArgumentException.class, () -> JOBS.readFanout("{\"kind\":\"teleport\",\"pin\":\"1\"}"
                .getBytes(StandardCharsets.UTF_8)));
        assertThrows(
                IllegalArgumentException.class, () -> JOBS.readFanout("not json".getBytes(StandardCharsets.UTF_8)));
        assertTrue(assertInstanceOf(
                        FanoutJob.InterestIndex.class,
                        earlier("{\"pin\":\"1\",\"board\":\"2\",\"author\":\"3\","
                                + "\"source\":\"interests\",\"interest\":\"tea\",\"purge\":true}"))
                .removed());
    }

    private static FanoutJob earlier(String body) {
        return JOBS.readFanout(body.getBytes(StandardCharsets.UTF_8));
    }
}
