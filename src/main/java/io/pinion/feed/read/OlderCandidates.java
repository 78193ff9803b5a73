package io.pinion.feed.read;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.graph.FollowItem;
import io.pinion.graph.RecentPin;
import io.pinion.graph.RecentPins;
import io.pinion.id.PinionId;
import io.pinion.paging.Position;
import io.pinion.store.ListHead;
import io.pinion.store.MappingStore;
import io.pinion.store.MappingTable;
import io.pinion.store.Sequences;
import io.smallrye.mutiny.Uni;

/**
 * The candidates of one round of {@link OlderPins}: a batch from each followed user's and board's pin list below the
 * cursor (one statement per shard) and from each followed interest's recent pins, merged into one order, newest
 * first, keyed by (sequence, pin) so that pages have no gaps and no duplicates. Only what lies at or above the
 * round's boundary is in the order: below it, a list that has more could still put a pin in between.
 */
@ApplicationScoped
class OlderCandidates {

    private final MappingStore mappings;
    private final RecentPins recentPins;

    OlderCandidates(MappingStore mappings, RecentPins recentPins) {
        this.mappings = mappings;
        this.recentPins = recentPins;
    }

    /**
     * One round's candidates: {@code merged} in order (at or above {@code boundary}, null when every list was read
     * to its end), and how many entries were {@code read} from the lists in all.
     */
    record Round(List<Candidate> merged, Position boundary, int read) {
    }

    /** At least {@code each} candidates of every list below {@code before}, merged. */
    Uni<Round> read(List<FollowItem> users, List<FollowItem> boards, List<String> interests, Position before,
            int each) {
        return Uni.combine()
                .all()
                .unis(
                        listed(MappingTable.USER_HAS_PINS, users, before, each, Kind.USER),
                        listed(MappingTable.BOARD_HAS_PINS, boards, before, each, Kind.BOARD),
                        interests(interests, before, each))
                .asTuple()
                .map(found -> {
                    Position boundary = highest(
                            highest(
                                    found.getItem1().boundary(),
                                    found.getItem2().boundary()),
                            found.getItem3().boundary());
                    List<Candidate> merged = merge(
                            boundary,
                            found.getItem1().candidates(),
                            found.getItem2().candidates(),
                            found.getItem3().candidates());
                    int read = found.getItem1().candidates().size()
                            + found.getItem2().candidates().size()
                            + found.getItem3().candidates().size();
                    return new Round(merged, boundary, read);
                });
    }

    private static final Comparator<Candidate> NEWEST_FIRST = (a, b) -> {
        int bySequence = Long.compare(b.position().sequence(), a.position().sequence());
        return bySequence != 0 ? bySequence : Long.compare(b.pin(), a.pin());
    };

    enum Kind {
        USER, BOARD, INTEREST
    }

    record Candidate(Position position, Kind kind, String interest) {
        long pin() {
            return position.toId();
        }
    }

    /**
     * At least {@code each} candidates of every list that has them (all a cached list head keeps below the cursor, up
     * to 32, which costs nothing more and lets the merged order be known further down), and the boundary: the highest
     * last place of a list that has more (null when none has). Below it the merged order is not known yet, so a round
     * examines only what is at or above it; lists are read from MySQL a few entries each, not a page's worth each.
     */
    private record Batch(List<Candidate> candidates, Position boundary) {
    }

    private Uni<Batch> listed(MappingTable table, List<FollowItem> follows, Position before, int each, Kind kind) {
        List<PinionId> froms = follows.stream().map(item -> PinionId.parse(item.id())).toList();
        return mappings.slices(table, froms, before, each).map(slices -> {
            List<Candidate> found = new ArrayList<>();
            Position boundary = null;
            for (MappingStore.ListSlice slice : slices) {
                slice.entries().forEach(at -> found.add(new Candidate(at, kind, null)));
                if (slice.more() && !slice.entries().isEmpty()) {
                    boundary = highest(boundary, slice.entries().get(slice.entries().size() - 1));
                }
            }
            return new Batch(found, boundary);
        });
    }

    private Uni<Batch> interests(List<String> names, Position before, int each) {
        if (names.isEmpty()) {
            return Uni.createFrom().item(new Batch(List.of(), null));
        }
        long beforeMs = (before.sequence() >> Sequences.GAP_BITS) + 1;
        // an interest's recent pins are dense (every follower's pins of it): a few of them would put the boundary
        // just below the cursor, so each read takes as many as a list head keeps
        int take = Math.max(each, ListHead.MAX);
        List<Uni<Batch>> reads = new ArrayList<>();
        for (String name : names) {
            reads.add(recentPins
                    .olderThan(recentPins.interest(name), beforeMs, take + 1)
                    .map(pins -> {
                        List<Candidate> found = new ArrayList<>();
                        for (RecentPin pin : pins.subList(0, Math.min(take, pins.size()))) {
                            Position at = new Position(pin.created() << Sequences.GAP_BITS, pin.pin());
                            if (below(at, before)) {
                                found.add(new Candidate(at, Kind.INTEREST, name));
                            }
                        }
                        Position boundary = pins.size() > take
                                ? new Position(
                                        pins.get(take - 1).created() << Sequences.GAP_BITS,
                                        pins.get(take - 1).pin())
                                : null;
                        return new Batch(found, boundary);
                    }));
        }
        return Uni.join().all(reads).andFailFast().map(parts -> {
            List<Candidate> all = new ArrayList<>();
            Position boundary = null;
            for (Batch part : parts) {
                all.addAll(part.candidates());
                boundary = highest(boundary, part.boundary());
            }
            return new Batch(all, boundary);
        });
    }

    private static Position highest(Position a, Position b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return below(a, b) ? b : a;
    }

    /**
     * One order over the three kinds of what is at or above the boundary (null: everything), newest first; a pin met
     * twice is kept at its first (highest) place. What lies below the boundary is left out before the sort: a round
     * reads up to 32 entries of every list, and most of them are not known in order yet.
     */
    @SafeVarargs
    private static List<Candidate> merge(Position boundary, List<Candidate>... parts) {
        List<Candidate> all = new ArrayList<>();
        for (List<Candidate> part : parts) {
            for (Candidate candidate : part) {
                if (boundary == null || !below(candidate.position(), boundary)) {
                    all.add(candidate);
                }
            }
        }
        all.sort(NEWEST_FIRST);
        Set<Long> seen = new HashSet<>();
        List<Candidate> merged = new ArrayList<>(all.size());
        for (Candidate candidate : all) {
            if (seen.add(candidate.pin())) {
                merged.add(candidate);
            }
        }
        return merged;
    }

    private static boolean below(Position at, Position before) {
        return at.sequence() < before.sequence() || (at.sequence() == before.sequence() && at.toId() < before.toId());
    }
}
