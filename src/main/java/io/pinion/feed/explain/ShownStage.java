package io.pinion.feed.explain;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.feed.store.MaterializedFeed;
import io.smallrye.mutiny.Uni;

/**
 * Stage {@code shown}: the user's materialized feed, read as feed pages read it (hedged between primary and standby);
 * it holds at most {@code pinion.feed.materialized-max} entries, so one bounded scan finds the pin.
 */
@ApplicationScoped
class ShownStage {

    private final MaterializedFeed materialized;
    private final SourceNames names;

    ShownStage(MaterializedFeed materialized, SourceNames names) {
        this.materialized = materialized;
        this.names = names;
    }

    Uni<StageRead<ShownFinding>> read(long user, long pin) {
        Uni<ShownFinding> shown = materialized.all(user).map(entries -> find(entries, pin));
        return StageRead.bounded(Stage.SHOWN, names.materialized(), shown);
    }

    private static ShownFinding find(List<MaterializedFeed.Stored> entries, long pin) {
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).entry().pin() == pin) {
                return new ShownFinding(entries.get(i), i, entries.size());
            }
        }
        return new ShownFinding(null, -1, entries.size());
    }
}
