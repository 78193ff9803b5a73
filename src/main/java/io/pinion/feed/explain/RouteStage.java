package io.pinion.feed.explain;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.FeedConfig;
import io.pinion.feed.fanout.FanoutRoute;
import io.pinion.feed.store.FeedKeys;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.PulledAuthors;
import io.pinion.graph.GraphKeys;
import io.pinion.graph.RecentPin;
import io.pinion.graph.RecentPins;
import io.pinion.graph.VirtualShards;
import io.smallrye.mutiny.Uni;

/**
 * Stage {@code route}: the board's receiver count on the owner's shard, the author's and the interests' recent pins,
 * the registry of pulled authors (as this instance last loaded it) and the user's feed state, read in parallel.
 */
@ApplicationScoped
class RouteStage {

    private final FanoutRoute fanoutRoute;
    private final RecentPins recentPins;
    private final PulledAuthors pulledAuthors;
    private final FeedStates states;
    private final VirtualShards shards;
    private final FeedConfig config;
    private final SourceNames names;

    RouteStage(FanoutRoute fanoutRoute, RecentPins recentPins, PulledAuthors pulledAuthors, FeedStates states,
            VirtualShards shards, FeedConfig config, SourceNames names) {
        this.fanoutRoute = fanoutRoute;
        this.recentPins = recentPins;
        this.pulledAuthors = pulledAuthors;
        this.states = states;
        this.shards = shards;
        this.config = config;
        this.names = names;
    }

    /** How the pin travels and how the user's state bears on it; unavailable when the pin was not read. */
    Uni<StageRead<RouteFinding>> read(long user, long pin, PinFinding found, long now) {
        if (found == null) {
            int vs = shards.ofUser(user);
            return StageRead.withoutPin(Stage.ROUTE, names.redis(vs, FeedKeys.feedState(vs, user)));
        }
        RecentPin recent = new RecentPin(pin, found.board(), found.author(), found.created());
        RecentPins.Index authorIndex = recentPins.author(found.author());
        List<String> interests = found.interests();
        List<RecentPins.Index> interestIndexes = interests.stream().map(recentPins::interest).toList();
        Uni<List<RouteFinding.Indexed>> interestPins = interestIndexes.isEmpty() ? Uni.createFrom().item(List.of())
                : Uni.join().all(interestIndexes.stream().map(index -> indexed(index, recent)).toList()).andFailFast();
        Uni<RouteFinding> route = Uni.combine()
                .all()
                .unis(
                        fanoutRoute.decide(found.board(), found.author()),
                        indexed(authorIndex, recent),
                        interestPins,
                        states.read(user))
                .with((decision, authorPins, byInterest, state) -> {
                    Map<String, RouteFinding.Indexed> held = new LinkedHashMap<>();
                    for (int i = 0; i < interests.size(); i++) {
                        held.put(interests.get(i), byInterest.get(i));
                    }
                    return new RouteFinding(
                            decision,
                            pulledAuthors.newestPulled(found.author()),
                            authorPins,
                            held,
                            state,
                            found.created(),
                            now,
                            config);
                });
        return StageRead.bounded(Stage.ROUTE, source(user, found, authorIndex, interestIndexes), route);
    }

    private Uni<RouteFinding.Indexed> indexed(RecentPins.Index index, RecentPin pin) {
        return recentPins.presence(index, pin).map(presence -> new RouteFinding.Indexed(presence, index.keep()));
    }

    /** The keys read: the board's receivers and the author's pins, the interests' pins, the user's state. */
    private String source(long user, PinFinding found, RecentPins.Index author, List<RecentPins.Index> interests) {
        int ownerVs = shards.ofUser(found.author());
        int userVs = shards.ofUser(user);
        Map<String, Integer> keys = new LinkedHashMap<>();
        keys.put(GraphKeys.board(ownerVs, found.board(), "…"), ownerVs);
        keys.put(GraphKeys.user(ownerVs, found.author(), GraphKeys.FOLLOWERS), ownerVs);
        keys.put(author.key(), author.vs());
        interests.forEach(index -> keys.put(index.key(), index.vs()));
        keys.put(FeedKeys.feedState(userVs, user), userVs);
        return names.redis(keys) + ", and the registry " + FeedKeys.pulledAuthors() + " as last loaded";
    }
}
