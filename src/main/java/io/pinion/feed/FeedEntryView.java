package io.pinion.feed;

import io.pinion.pins.PinView;

/** A feed entry and its pin's view. */
record FeedEntryView(FeedEntry entry, PinView pin) {
}
