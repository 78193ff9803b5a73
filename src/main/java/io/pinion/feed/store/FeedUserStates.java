package io.pinion.feed.store;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedState;
import io.smallrye.mutiny.Uni;

/**
 * A user's {@link FeedUserState}: the feed state (one Redis round trip) and the materialized feed's count (one get).
 */
@ApplicationScoped
public class FeedUserStates {

    private final FeedStates states;
    private final MaterializedFeed materialized;

    FeedUserStates(FeedStates states, MaterializedFeed materialized) {
        this.states = states;
        this.materialized = materialized;
    }

    public Uni<FeedUserState> of(long user) {
        return Uni.combine().all().unis(states.read(user), materialized.count(user)).asTuple()
                .map(both -> {
                    FeedState state = both.getItem1();
                    return new FeedUserState(Long.toString(user), both.getItem2(), state.poolRows(), state.lastVisit(),
                            state.pulledUntil(), state.chunkSize());
                });
    }
}
