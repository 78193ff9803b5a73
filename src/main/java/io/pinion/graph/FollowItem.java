package io.pinion.graph;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One entry of a follow list.
 *
 * @param id         a user or board id, or an interest name
 * @param followedAt when the relationship began
 * @param via        in a board's followers: {@code board} (follows the board itself) or {@code owner} (follows its
 *                   owner and has not unfollowed the board)
 */
@Schema(name = "FollowItem")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FollowItem(String id, Instant followedAt, @Schema(nullable = true) String via) {

    static FollowItem of(String id, long scoreMicros, String via) {
        return new FollowItem(id, Instant.EPOCH.plusNanos(scoreMicros * 1000), via);
    }
}
