package io.pinion.graph;

/**
 * How a user relates to one board and its owner, as the user's own sets say (follow times in µs, or null).
 *
 * @param boardSince         when the user followed the board itself (explicitly, one by one)
 * @param ownerSince         when the user followed the board's owner explicitly (which follows every board of theirs)
 * @param ownerImplicitSince when the user became an implicit follower of the owner (through some board of theirs)
 * @param unfollowed         the user unfollowed this board while following its owner
 */
public record BoardRelation(Long boardSince, Long ownerSince, Long ownerImplicitSince, boolean unfollowed) {

    /** Whether the board's new pins reach the user: followed itself, or through its owner and not unfollowed. */
    public boolean receives() {
        return boardSince != null || (ownerSince != null && !unfollowed);
    }
}
