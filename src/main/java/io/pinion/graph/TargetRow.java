package io.pinion.graph;

/**
 * What the graph reads of a user's or a board's stored JSON: whether it is active, and a board's owner (the other
 * fields are left unread).
 *
 * @param ownerId a board's owner; null for a user
 * @param active  false once deleted
 */
public record TargetRow(String ownerId, boolean active) {
}
