package io.pinion.feed.read;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.health.WarmUpTask;
import io.pinion.id.PinionId;
import io.smallrye.mutiny.Uni;

/**
 * The home feed's part of the warm-up: a preview of the user's first page and the older pins after it
 * ({@link HomeFeedService#preview}), which reads the pools, the pulled sources, the materialized feed, the followed
 * lists and the shown index as a visit does, and writes nothing.
 */
@ApplicationScoped
public class FeedWarmUp implements WarmUpTask {

    private static final int LIMIT = 25;

    private final HomeFeedService feed;

    FeedWarmUp(HomeFeedService feed) {
        this.feed = feed;
    }

    @Override
    public Uni<Void> warm(PinionId user) {
        return feed.preview(user, LIMIT).replaceWithVoid();
    }
}
