package io.pinion.feed.read;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.DeliveryRules;
import io.pinion.feed.FeedScorer;
import io.pinion.feed.FeedSource;
import io.pinion.feed.PoolEntry;
import io.pinion.feed.PoolKey;
import io.pinion.feed.ScoringInput;
import io.pinion.feed.store.FeedKeys;
import io.pinion.feed.store.FeedStates;
import io.pinion.feed.store.PulledAuthors;
import io.pinion.graph.GraphKeys;
import io.pinion.graph.GraphRedis;
import io.pinion.graph.RecentPin;
import io.pinion.graph.RecentPins;
import io.pinion.graph.VirtualShards;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * The pull half of the feed. One pipelined round trip to the user's virtual shard reads the user's feed state,
 * interests, and how they follow each pulled author ({@link PulledAuthors}); one round trip per Redis instance then
 * reads the newest pins of those authors and interests since the user's last pull. The pins are scored for the
 * user with the same scorer as pushed ones (affinity included) and handed to the content generator as candidates.
 */
@ApplicationScoped
public class PullReader {

    private final VirtualShards shards;
    private final GraphRedis redis;
    private final RecentPins recentPins;
    private final PulledAuthors pulled;
    private final FeedScorer scorer;

    PullReader(VirtualShards shards, GraphRedis redis, RecentPins recentPins, PulledAuthors pulled, FeedScorer scorer) {
        this.shards = shards;
        this.redis = redis;
        this.recentPins = recentPins;
        this.pulled = pulled;
        this.scorer = scorer;
    }

    /** The user's feed state and pulled sources, in one round trip to the user's shard. */
    public Uni<PullSources> sources(long user) {
        int vs = shards.ofUser(user);
        List<Long> authors = pulled.current().stream().filter(author -> author != user).toList();
        List<Request> requests = new ArrayList<>();
        requests.add(FeedStates.readRequest(vs, user));
        requests.add(Request.cmd(Command.ZRANGE)
                .arg(GraphKeys.user(vs, user, GraphKeys.INTERESTS))
                .arg(0)
                .arg(DeliveryRules.MAX_INTERESTS - 1));
        if (!authors.isEmpty()) {
            requests.add(
                    withAll(Request.cmd(Command.ZMSCORE).arg(GraphKeys.user(vs, user, GraphKeys.FOLLOWING)), authors));
            requests.add(withAll(Request.cmd(Command.HMGET).arg(FeedKeys.affinity(vs, user)), authors));
            for (long author : authors) {
                requests.add(Request.cmd(Command.ZRANGE).arg(GraphKeys.boardsOf(vs, user, author)).arg(0).arg(-1));
                requests.add(Request.cmd(Command.SMEMBERS).arg(GraphKeys.unfollowedBoardsOf(vs, user, author)));
            }
        }
        return redis.batch(vs, requests).map(answers -> {
            List<String> interests = new ArrayList<>();
            answers.get(1).forEach(name -> interests.add(name.toString()));
            List<PulledFollow> follows = new ArrayList<>();
            Map<Long, Long> affinity = new HashMap<>();
            for (int i = 0; i < authors.size(); i++) {
                boolean explicit = answers.get(2).get(i) != null;
                Set<Long> boards = ids(answers.get(4 + 2 * i));
                if (explicit || !boards.isEmpty()) {
                    follows.add(new PulledFollow(authors.get(i), explicit, boards, ids(answers.get(5 + 2 * i))));
                }
                Response count = answers.get(3).get(i);
                if (count != null) {
                    affinity.put(authors.get(i), count.toLong());
                }
            }
            return new PullSources(FeedStates.state(answers.get(0)), follows, interests, affinity);
        });
    }

    /**
     * Up to {@code perSource} pins created after {@code sinceMs} from each pulled author and interest the user
     * follows, scored for the user at {@code now}: following-source entries for the authors' pins on boards the user
     * receives, interests-source entries for the interests' pins. Never the user's own pins. A Redis instance that
     * does not answer costs its sources only.
     */
    public Uni<List<PoolEntry>> candidates(long user, PullSources sources, long sinceMs, int perSource, long now) {
        List<Integer> vss = new ArrayList<>();
        List<Request> requests = new ArrayList<>();
        for (PulledFollow follow : sources.authors()) {
            RecentPins.Index index = recentPins.author(follow.author());
            vss.add(index.vs());
            requests.add(RecentPins.newestRequest(index, sinceMs, perSource));
        }
        for (String interest : sources.interests()) {
            RecentPins.Index index = recentPins.interest(interest);
            vss.add(index.vs());
            requests.add(RecentPins.newestRequest(index, sinceMs, perSource));
        }
        return redis.batchAcross(vss, requests).chain(answers -> {
            List<Found> found = new ArrayList<>();
            int k = 0;
            for (PulledFollow follow : sources.authors()) {
                for (RecentPin pin : RecentPins.pins(answers.get(k++))) {
                    if (pin.author() != user && follow.receives(pin.board())) {
                        found.add(new Found(pin, FeedSource.FOLLOWING, null));
                    }
                }
            }
            for (String interest : sources.interests()) {
                for (RecentPin pin : RecentPins.pins(answers.get(k++))) {
                    if (pin.author() != user) {
                        found.add(new Found(pin, FeedSource.INTERESTS, interest));
                    }
                }
            }
            return affinities(user, found, sources.affinity()).map(affinity -> scored(user, found, affinity, now));
        });
    }

    /** The affinities already read, plus those of the interests' authors (one more round trip, only if needed). */
    private Uni<Map<Long, Long>> affinities(long user, List<Found> found, Map<Long, Long> known) {
        Set<Long> missing = new HashSet<>();
        for (Found f : found) {
            if (f.source() == FeedSource.INTERESTS && !known.containsKey(f.pin().author())) {
                missing.add(f.pin().author());
            }
        }
        if (missing.isEmpty()) {
            return Uni.createFrom().item(known);
        }
        int vs = shards.ofUser(user);
        List<Long> authors = List.copyOf(missing);
        Request read = withAll(Request.cmd(Command.HMGET).arg(FeedKeys.affinity(vs, user)), authors);
        return redis.send(vs, read).map(answer -> {
            Map<Long, Long> all = new HashMap<>(known);
            for (int i = 0; i < authors.size(); i++) {
                if (answer.get(i) != null) {
                    all.put(authors.get(i), answer.get(i).toLong());
                }
            }
            return all;
        }).onFailure().recoverWithItem(known);
    }

    private List<PoolEntry> scored(long user, List<Found> found, Map<Long, Long> affinity, long now) {
        List<PoolEntry> entries = new ArrayList<>(found.size());
        for (Found f : found) {
            RecentPin pin = f.pin();
            double score = scorer.score(
                    new ScoringInput(f.source(), pin.created(), now, affinity.getOrDefault(pin.author(), 0L)));
            entries.add(new PoolEntry(new PoolKey(user, f.source(), score, pin.pin()), pin.author(), pin.board(),
                    pin.created(), f.interest()));
        }
        return entries;
    }

    private static Request withAll(Request request, List<Long> ids) {
        ids.forEach(request::arg);
        return request;
    }

    private static Set<Long> ids(Response members) {
        Set<Long> ids = new HashSet<>();
        if (members != null) {
            members.forEach(member -> ids.add(member.toLong()));
        }
        return ids;
    }

    /** A pin found in a pulled source. */
    private record Found(RecentPin pin, FeedSource source, String interest) {
    }
}
