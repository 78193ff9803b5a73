package io.pinion.feed;

import io.pinion.pins.RenderedPin;

/** A feed entry and its pin's view. */
record FeedEntryView(FeedEntry entry, RenderedPin pin) {
}
