package io.pinion.feed.read;

import io.pinion.feed.FeedEntry;
import io.pinion.pins.RenderedPin;

/** A feed entry and its pin's view. */
record FeedEntryView(FeedEntry entry, RenderedPin pin) {
}
