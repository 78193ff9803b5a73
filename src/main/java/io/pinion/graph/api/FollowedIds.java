package io.pinion.graph.api;

import java.util.List;

/**
 * Answer to "which of these do I follow": the ids followed, in the order asked.
 */
public record FollowedIds(List<String> following) {
}
