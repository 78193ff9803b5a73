package io.pinion.feed.read;

import java.util.List;
import java.util.Map;

import io.pinion.feed.DeliveryRules;
import io.pinion.feed.FeedState;

/**
 * What a visit pulls from, read from the user's virtual shard in one round trip ({@link PullReader}).
 *
 * @param state     the user's feed state
 * @param authors   the pulled authors the user follows, and how
 * @param interests the interests the user follows (at most {@link DeliveryRules#MAX_INTERESTS})
 * @param affinity  the user's affinity for each pulled author (absent: none)
 */
record PullSources(FeedState state, List<PulledFollow> authors, List<String> interests, Map<Long, Long> affinity) {

    /** When the user's shard did not answer: the defaults, and nothing to pull. */
    static final PullSources NONE = new PullSources(FeedState.NONE, List.of(), List.of(), Map.of());
}
