package io.pinion.feed.read;

import java.util.Set;

/**
 * How a user follows one pulled author: explicitly (every board but those unfollowed) and/or board by board.
 *
 * @param author     the pulled author
 * @param explicit   the user follows the author
 * @param boards     boards of the author the user follows one by one
 * @param unfollowed boards of the author the user unfollowed
 */
record PulledFollow(long author, boolean explicit, Set<Long> boards, Set<Long> unfollowed) {

    /** Whether a pin of the author on {@code board} belongs in the user's feed. */
    boolean receives(long board) {
        return boards.contains(board) || (explicit && !unfollowed.contains(board));
    }
}
