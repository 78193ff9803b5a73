package io.pinion.feed.explain;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Why a pin is, or is not, in a user's home feed: the path from the pin to the user, stage by stage, with where it
 * stopped.
 *
 * @param user      the user (id)
 * @param pin       the pin (id)
 * @param verdict   {@code shown}, {@code pending} (on its way: waiting in a pool, a pulled source or a job),
 *                  {@code dropped} (reached the user's candidates and was left out: below the quality bar, deleted) or
 *                  {@code not_delivered} (never reaches the user)
 * @param stoppedAt the stage where the path ends for now; null when the pin was shown
 * @param summary   the verdict in one sentence
 * @param stages    pin, follow, route, pool, shown and jobs, in that order
 */
@Schema(name = "FeedExplanation")
public record FeedExplanation(String user, String pin, String verdict, @Schema(nullable = true) String stoppedAt,
        String summary, List<ExplainStage> stages) {

    public static final String SHOWN = "shown";
    public static final String PENDING = "pending";
    public static final String DROPPED = "dropped";
    public static final String NOT_DELIVERED = "not_delivered";
}
