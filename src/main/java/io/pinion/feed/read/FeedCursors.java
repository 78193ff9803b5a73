package io.pinion.feed.read;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.InvalidInput;
import io.pinion.paging.Cursors;
import io.pinion.paging.Position;

/**
 * The home feed's two kinds of cursor, each signed for its own list: a position in the materialized feed, and a
 * position in the older pins past it ({@link OlderPins}).
 */
@ApplicationScoped
public class FeedCursors {

    private final Cursors cursors;

    FeedCursors(Cursors cursors) {
        this.cursors = cursors;
    }

    /** Where a cursor points. */
    record At(boolean older, Position position) {
    }

    /** Null for no cursor (the first page); 400 {@code invalid_cursor} for one that is not the user's. */
    At decode(long user, String cursor) {
        if (cursor == null || cursor.isEmpty()) {
            return null;
        }
        try {
            return new At(false, cursors.decode(materializedList(user), cursor));
        } catch (InvalidInput notMaterialized) {
            return new At(true, cursors.decode(olderList(user), cursor));
        }
    }

    String materialized(long user, Position position) {
        return cursors.encode(materializedList(user), position);
    }

    String older(long user, Position position) {
        return cursors.encode(olderList(user), position);
    }

    private static String materializedList(long user) {
        return "home-feed:" + user;
    }

    private static String olderList(long user) {
        return "home-feed-older:" + user;
    }
}
