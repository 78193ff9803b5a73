package io.pinion.feed.explain;

import java.util.Locale;

/** The stages of a pin's path to a user's home feed, in order. */
enum Stage {
    PIN, FOLLOW, ROUTE, POOL, SHOWN, JOBS;

    /** The name in the explanation. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
