package io.pinion.paging;

/**
 * Where an entry sits in a mapping list: its sequence, ties broken by the target id. Lists run from the highest
 * position to the lowest (newest first).
 */
public record Position(long sequence, long toId) {
}
