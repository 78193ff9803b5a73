package io.pinion.feed.read;

import io.pinion.pins.RenderedPin;

/**
 * One entry of a home-feed page.
 *
 * @param pin    the pin
 * @param source why it is in the feed: {@code following}, {@code related} or {@code interests}
 * @param fresh  true when it is new in this visit's chunk, false when it was shown before (materialized feed)
 */
public record FeedItem(RenderedPin pin, String source, boolean fresh) {
}
