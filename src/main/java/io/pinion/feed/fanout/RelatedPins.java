package io.pinion.feed.fanout;

/**
 * Body of a {@code feed-related} job: the user liked or saved {@code pin}.
 */
public record RelatedPins(String user, String pin) {
}
