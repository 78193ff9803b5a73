package io.pinion.feed.explain;

import java.util.List;
import java.util.Map;

import io.pinion.graph.BoardRelation;

/**
 * How the user follows the pin's author, board and interests, as the user's side of the graph says.
 *
 * @param ownPin    the user is the pin's author (a pin never enters its author's feed)
 * @param relation  the user's relation to the pin's board and its owner
 * @param interests each interest of the pin, and whether the user follows it
 */
record FollowFinding(boolean ownPin, BoardRelation relation, Map<String, Boolean> interests) implements Finding {

    /** How the pin's board reaches the user, or why it does not. */
    enum Reach {
        OWN_PIN("own pin"),
        BOARD("explicit board follow"),
        OWNER("implicit (follows the owner)"),
        UNFOLLOWED_BOARD("unfollowed board"),
        NONE("none");

        final String label;

        Reach(String label) {
            this.label = label;
        }
    }

    /** The pin's board reaches the user: followed itself, or through its owner and not unfollowed. */
    boolean receivesBoard() {
        return !ownPin && relation.receives();
    }

    /** The pin's interests the user follows. */
    List<String> followedInterests() {
        return ownPin
                ? List.of()
                : interests.entrySet().stream()
                        .filter(Map.Entry::getValue)
                        .map(Map.Entry::getKey)
                        .toList();
    }

    /** Whether the pin can reach the user by following at all. */
    boolean reaches() {
        return receivesBoard() || !followedInterests().isEmpty();
    }

    Reach reach() {
        if (ownPin) {
            return Reach.OWN_PIN;
        }
        if (relation.boardSince() != null) {
            return Reach.BOARD;
        }
        if (relation.ownerSince() != null) {
            return relation.unfollowed() ? Reach.UNFOLLOWED_BOARD : Reach.OWNER;
        }
        return Reach.NONE;
    }

    @Override
    public String summary() {
        if (ownPin) {
            return "the user is the pin's author; a pin never enters its author's feed";
        }
        String board = switch (reach()) {
            case BOARD -> "follows the board itself";
            case OWNER -> "follows the author, so receives the board (not unfollowed)";
            case UNFOLLOWED_BOARD -> "follows the author but unfollowed this board";
            default -> "follows neither the author nor the board";
        };
        List<String> followed = followedInterests();
        String topics = followed.isEmpty() ? "none of the pin's interests" : "interests " + followed;
        String tail = reaches() ? "" : ": the pin cannot reach the user by following (it might still come as related)";
        return "the user " + board + ", and follows " + topics + tail;
    }

    @Override
    public Map<String, Object> evidence() {
        String author = relation.ownerSince() != null ? "explicit"
                : relation.ownerImplicitSince() != null ? "implicit (through board follows)" : "no";
        return new Evidence()
                .put("how", reach().label)
                .put("followsAuthor", author)
                .put("authorFollowedAt", micros(relation.ownerSince()))
                .put("boardFollowedAt", micros(relation.boardSince()))
                .put("boardUnfollowed", relation.unfollowed())
                .put("receivesBoard", receivesBoard())
                .put("interests", interests)
                .map();
    }

    /** When the board started to reach the user (ms), or null. */
    Long boardReachesSince() {
        Long micros = relation.boardSince() != null
                ? relation.boardSince()
                : relation.receives() ? relation.ownerSince() : null;
        return micros == null ? null : micros / 1000;
    }

    private static String micros(Long time) {
        return time == null ? null : Evidence.time(time / 1000);
    }
}
