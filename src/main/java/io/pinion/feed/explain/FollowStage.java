package io.pinion.feed.explain;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.DeliveryRules;
import io.pinion.graph.FollowQueries;
import io.pinion.graph.GraphKeys;
import io.pinion.graph.VirtualShards;
import io.smallrye.mutiny.Uni;

/** Stage {@code follow}: the user's relation to the pin's board, its owner and its interests, on the user's shard. */
@ApplicationScoped
class FollowStage {

    private final FollowQueries queries;
    private final VirtualShards shards;
    private final SourceNames names;

    FollowStage(FollowQueries queries, VirtualShards shards, SourceNames names) {
        this.queries = queries;
        this.shards = shards;
        this.names = names;
    }

    /** The user's follows of what the pin comes by; unavailable when the pin was not read. */
    Uni<StageRead<FollowFinding>> read(long user, PinFinding pin) {
        int vs = shards.ofUser(user);
        String source = names.redis(vs, GraphKeys.user(vs, user, "…"));
        if (pin == null) {
            return StageRead.withoutPin(Stage.FOLLOW, source);
        }
        List<String> interests = pin.interests();
        Uni<FollowFinding> found = Uni.combine().all()
                .unis(queries.boardRelation(user, pin.board(), pin.author()), queries.followsInterests(user, interests))
                .with((relation, follows) -> {
                    Map<String, Boolean> byInterest = new LinkedHashMap<>();
                    for (int i = 0; i < interests.size(); i++) {
                        byInterest.put(interests.get(i), follows.get(i));
                    }
                    return new FollowFinding(DeliveryRules.ownPin(user, pin.author()), relation, byInterest);
                });
        return StageRead.bounded(Stage.FOLLOW, source, found);
    }
}
