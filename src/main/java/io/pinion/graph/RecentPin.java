package io.pinion.graph;

/**
 * One pin of a recent-pins index (an interest's, or a pulled author's), with what the home feed needs to score and
 * place it without reading the pin: its board, its author and when it was created.
 */
public record RecentPin(long pin, long board, long author, long created) {

    /** The index member: {@code pin:board:author}. */
    String member() {
        return pin + ":" + board + ":" + author;
    }

    /** A member and its score; null for a member this version cannot read. */
    static RecentPin parse(String member, long created) {
        int first = member.indexOf(':');
        int second = member.indexOf(':', first + 1);
        if (first < 0 || second < 0) {
            return null;
        }
        try {
            return new RecentPin(Long.parseLong(member, 0, first, 10), Long.parseLong(member, first + 1, second, 10),
                    Long.parseLong(member, second + 1, member.length(), 10), created);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
