package io.pinion.graph;

import io.vertx.mutiny.redis.client.Response;

/**
 * What a follower-side script answered.
 *
 * @param changed whether the op changed anything
 * @param state   the relationship's state on the follower's side (canonical text the other side is synced to)
 * @param mark    time of the relationship's unconfirmed change, or empty when both sides were confirmed equal
 */
public record FollowerSide(boolean changed, String state, String mark) {

    static FollowerSide of(Response response) {
        return new FollowerSide(response.get(0).toInteger() == 1, response.get(1).toString(),
                response.get(2) == null ? "" : response.get(2).toString());
    }
}
