package io.pinion.feed.read;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pinion.failure.Outages;
import io.pinion.feed.DeliveryRules;
import io.pinion.feed.FeedConfig;
import io.pinion.feed.FeedEntry;
import io.pinion.feed.FeedFunnel;
import io.pinion.feed.FeedMetrics;
import io.pinion.feed.FeedSource;
import io.pinion.feed.read.OlderCandidates.Candidate;
import io.pinion.feed.read.OlderCandidates.Kind;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.MaterializedFeed;
import io.pinion.feed.store.PoolIndexKey;
import io.pinion.feed.store.PoolStore;
import io.pinion.graph.FollowItem;
import io.pinion.graph.FollowLists;
import io.pinion.graph.FollowQueries;
import io.pinion.graph.UserList;
import io.pinion.id.PinionId;
import io.pinion.paging.Position;
import io.pinion.pins.PinView;
import io.pinion.pins.PinViews;
import io.pinion.pins.RenderedPin;
import io.pinion.store.ObjectStore;
import io.pinion.store.ObjectTable;
import io.pinion.store.Sequences;
import io.smallrye.mutiny.Uni;

/**
 * The feed past the materialized feed: older pins of what the user follows, newest first, in one order over the
 * pins of followed users (their pin lists), of followed boards (the boards' lists) and of followed interests (their
 * recent pins), keyed by (sequence, pin) so that pages have no gaps and no duplicates. A page reads the
 * {@code pinion.feed.followed-sources-max} most recent follows of each kind and, in rounds, a batch from each list
 * below the cursor ({@link OlderCandidates}: one statement per shard), hydrates the first batch of the merged order
 * and drops deleted pins, the user's own, pins of boards the user unfollowed and pins already shown (on the page, or
 * in the materialized feed: one get per candidate in its shown index, so a page costs the same however full the feed
 * is).
 * Pins still waiting in the user's pools ({@link Pooled}) are left out on a first page (the next visit's chunk brings
 * them) and shown at their places on later pages, their pool rows removed after the answer (funnel:
 * {@code consumed}, reason {@code older_page}) so no later chunk brings them again: a user who scrolls past the
 * materialized feed of a first visit, whose pools hold the newest pins of everything followed, reads them instead of
 * paging through pins left out.
 */
@ApplicationScoped
public class OlderPins {

    private static final Logger LOG = Logger.getLogger(OlderPins.class);

    private final FollowLists lists;
    private final FollowQueries graph;
    private final OlderCandidates candidates;
    private final ObjectStore objects;
    private final PinViews views;
    private final PoolStore pools;
    private final MaterializedFeed materialized;
    private final FeedStates states;
    private final FeedConfig config;
    private final FeedMetrics metrics;
    private final FeedFunnel funnel;

    OlderPins(FollowLists lists, FollowQueries graph, OlderCandidates candidates, ObjectStore objects, PinViews views,
            PoolStore pools, MaterializedFeed materialized, FeedStates states, FeedConfig config, FeedMetrics metrics,
            FeedFunnel funnel) {
        this.lists = lists;
        this.graph = graph;
        this.candidates = candidates;
        this.objects = objects;
        this.views = views;
        this.pools = pools;
        this.materialized = materialized;
        this.states = states;
        this.config = config;
        this.metrics = metrics;
        this.funnel = funnel;
    }

    /** Most rounds of candidates one page examines. */
    static final int ROUNDS = 4;

    /** A page of older pins and where the next one starts (null: nothing older is left). */
    record OlderPage(List<FeedEntryView> items, Position next) {
    }

    /** Where the older pins start for a feed whose oldest chunk was generated at {@code chunkTimeMs}. */
    static Position start(long chunkTimeMs) {
        return new Position(chunkTimeMs << Sequences.GAP_BITS, 0);
    }

    /**
     * Up to {@code limit} older pins after {@code before}. Candidates are examined in rounds (up to
     * {@link #ROUNDS}) until the page is full or nothing older is left, since many of them may have been shown
     * already; the page ends with a cursor when the rounds ran out first. {@code onPage}: pins of the page ahead of
     * them (a fresh chunk not materialized yet among them), which are left out like pins already shown.
     */
    public Uni<OlderPage> page(long user, Position before, int limit, Set<Long> onPage, Pooled pooled) {
        return read(user, before, limit, onPage, pooled, true).invoke(found -> {
            metrics.olderPage();
            if (pooled == Pooled.SHOW) {
                consumePooled(user, found.items());
            }
        });
    }

    /** How many pins {@link #page} would show, read the same way but changing nothing and counting nothing. */
    public Uni<Integer> preview(long user, Position before, int limit, Set<Long> onPage, Pooled pooled) {
        return read(user, before, limit, onPage, pooled, false).map(found -> found.items().size());
    }

    /** What a page does with pins still waiting in the user's pools. */
    public enum Pooled {
        /** Shows them at their places and removes them from the pools after the answer (pages after the first). */
        SHOW,
        /**
         * Leaves them out: they are the next visit's new pins (a first page, whose chunk just chose among them and
         * held some back for later).
         */
        SKIP
    }

    private Uni<OlderPage> read(long user, Position before, int limit, Set<Long> onPage, Pooled pooled,
            boolean counted) {
        int sources = config.followedSourcesMax();
        return Uni.combine().all().unis(
                        lists.ofUser(user, UserList.FOLLOWING, null, sources),
                        lists.ofUser(user, UserList.BOARDS, null, sources),
                        graph.interests(user, DeliveryRules.MAX_INTERESTS)).asTuple()
                .chain(follows -> round(user, new Followed(follows.getItem1().items(), follows.getItem2().items(),
                        follows.getItem3(), pooled, counted), before, limit, onPage, List.of(), 1));
    }

    /** What the user follows, as read once per page; whether the page's rounds are counted. */
    private record Followed(List<FollowItem> users, List<FollowItem> boards, List<String> interests, Pooled pooled,
            boolean counted) {
    }

    private Uni<OlderPage> round(long user, Followed followed, Position before, int limit, Set<Long> onPage,
            List<Kept> sofar, int round) {
        int room = limit - sofar.size();
        int examine = room + 10;
        int lists = Math.max(1, followed.users().size() + followed.boards().size() + followed.interests().size());
        int each = Math.max(3, (int) Math.ceil(2.0 * examine / lists));
        return candidates.read(followed.users(), followed.boards(), followed.interests(), before, each)
                .chain(found -> {
                    List<Candidate> known = found.merged();
                    List<Candidate> examined = known.subList(0, Math.min(examine, known.size()));
                    boolean more = examined.size() < known.size() || found.boundary() != null;
                    if (followed.counted()) {
                        metrics.olderRound(found.read(), examined.size());
                    }
                    return kept(user, examined, onPage, followed.pooled()).chain(items -> {
                        List<Kept> all = new ArrayList<>(sofar);
                        all.addAll(items);
                        if (all.size() > limit) {
                            List<Kept> page = all.subList(0, limit);
                            return Uni.createFrom()
                                    .item(new OlderPage(
                                            views(page),
                                            page.get(limit - 1).candidate().position()));
                        }
                        Position next = more && !examined.isEmpty()
                                ? examined.get(examined.size() - 1).position()
                                : null;
                        if (next == null || all.size() == limit || round == ROUNDS) {
                            return Uni.createFrom().item(new OlderPage(views(all), next));
                        }
                        return round(user, followed, next, limit, onPage, all, round + 1);
                    });
                });
    }

    private record Kept(Candidate candidate, RenderedPin rendered) {
        PinView pin() {
            return rendered.view();
        }
    }

    /** The candidates that belong in the feed, in order: see the class comment for what is dropped. */
    private Uni<List<Kept>> kept(long user, List<Candidate> examined, Set<Long> onPage, Pooled pooled) {
        if (examined.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return objects.getAll(ObjectTable.PINS, PinViews.pinIds(examined.stream().map(Candidate::pin).toList()))
                .chain(found -> {
                    Map<Long, RenderedPin> byId = new HashMap<>();
                    views.activeRendered(found).forEach(pin -> byId.put(Long.parseLong(pin.view().id()), pin));
                    List<Kept> live = new ArrayList<>();
                    for (Candidate candidate : examined) {
                        RenderedPin pin = byId.get(candidate.pin());
                        if (pin != null && !onPage.contains(candidate.pin())
                                && !DeliveryRules.ownPin(user, PinionId.parse(pin.view().ownerId()).value())) {
                            live.add(new Kept(candidate, pin));
                        }
                    }
                    return Uni.combine().all().unis(followed(user, live), notShown(user, live)).asTuple()
                            .map(both -> both.getItem1().stream().filter(both.getItem2()::contains).toList())
                            .chain(unseen -> pooled == Pooled.SHOW ? Uni.createFrom().item(unseen)
                                    : notPooled(user, unseen));
                });
    }

    /**
     * A followed user's pin stays if the user still receives its board; an interest's pin only if the user does not
     * receive its board (it then comes through the user's or board's list, at its own place).
     */
    private Uni<List<Kept>> followed(long user, List<Kept> live) {
        Map<PinionId, Long> owners = new LinkedHashMap<>();
        live.stream().filter(k -> k.candidate().kind() != Kind.BOARD)
                .forEach(k -> owners.put(PinionId.parse(k.pin().boardId()), PinionId.parse(k.pin().ownerId()).value()));
        if (owners.isEmpty()) {
            return Uni.createFrom().item(live);
        }
        List<PinionId> boards = List.copyOf(owners.keySet());
        return graph.followsBoards(user, boards, owners).map(follows -> {
            Set<PinionId> received = new HashSet<>();
            for (int i = 0; i < boards.size(); i++) {
                if (follows.get(i)) {
                    received.add(boards.get(i));
                }
            }
            return live.stream().filter(k -> switch (k.candidate().kind()) {
                case BOARD -> true;
                case USER -> received.contains(PinionId.parse(k.pin().boardId()));
                case INTEREST -> !received.contains(PinionId.parse(k.pin().boardId()));
            }).toList();
        });
    }

    /** The pins not in the materialized feed (the hedged shown index: the standby answers for a slow primary). */
    private Uni<List<Kept>> notShown(long user, List<Kept> live) {
        if (live.isEmpty()) {
            return Uni.createFrom().item(live);
        }
        return materialized.shown(user, live.stream().map(k -> k.candidate().pin()).toList())
                .map(shown -> live.stream().filter(k -> !shown.contains(k.candidate().pin())).toList());
    }

    private Uni<List<Kept>> notPooled(long user, List<Kept> live) {
        List<PoolIndexKey> keys = live.stream()
                .map(k -> new PoolIndexKey(
                        user,
                        PinionId.parse(k.pin().ownerId()).value(),
                        PinionId.parse(k.pin().boardId()).value(),
                        k.candidate().pin()))
                .toList();
        return pools.holding(keys).map(held -> live.stream().filter(k -> !held.contains(k.candidate().pin())).toList());
    }

    /**
     * Removes the page's pins from the user's pools, after the answer and without holding it up: a removal that
     * fails leaves a pin to come again in a later chunk, never loses one.
     */
    private void consumePooled(long user, List<FeedEntryView> page) {
        if (page.isEmpty()) {
            return;
        }
        List<PoolIndexKey> keys = page.stream().map(view -> new PoolIndexKey(user, view.entry().author(),
                view.entry().board(), view.entry().pin())).toList();
        pools.removePins(keys)
                .call(removed -> removed.isEmpty()
                        ? Uni.createFrom().voidItem()
                        : states.poolRowsChanged(user, -removed.size()).replaceWithVoid())
                .subscribe()
                .with(
                        removed -> funnel.perRow(FeedFunnel.Stage.CONSUMED, FeedFunnel.Reason.OLDER_PAGE, removed),
                        failure -> LOG.debugf(
                                "pool rows of user %d's older page not removed: %s", user, Outages.describe(failure)));
    }

    private static List<FeedEntryView> views(List<Kept> kept) {
        return kept.stream().map(k -> {
            Candidate c = k.candidate();
            FeedSource source = c.kind() == Kind.INTEREST ? FeedSource.INTERESTS : FeedSource.FOLLOWING;
            FeedEntry entry = new FeedEntry(c.pin(), source, 0, PinionId.parse(k.pin().ownerId()).value(),
                    PinionId.parse(k.pin().boardId()).value(), c.interest());
            return new FeedEntryView(entry, k.rendered());
        }).toList();
    }
}
