package io.pinion.seed;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * {@code pinion.seed.*}: set by {@code bin/seed}. With {@code run=true} the service seeds the data set at start and
 * exits. Sizes left out follow {@link SeedPlan#forUsers}.
 */
@ConfigMapping(prefix = "pinion.seed")
public interface SeedConfig {

    @WithDefault("false")
    boolean run();

    @WithDefault("10000")
    int users();

    OptionalInt boardsPerUser();

    OptionalInt pins();

    OptionalInt followsPerUser();

    OptionalInt heavyAuthors();

    OptionalInt likesPerUser();

    OptionalDouble boardFollowRate();

    OptionalDouble boardUnfollowRate();

    OptionalDouble interestsPerUser();

    OptionalInt sampleUsers();

    Optional<String> prefix();

    @WithDefault("42")
    long seed();

    /** Where the manifest and side files go. */
    @WithDefault(".stack/seed")
    String out();

    /** The user whose token the manifest lists for job scripts (start the service with it as admin and worker). */
    @WithDefault("seed_worker")
    String worker();

    /** Follow-backfill events for the sample users, so their home feeds have pins. */
    @WithDefault("true")
    boolean backfill();

    default SeedPlan plan() {
        SeedPlan base = SeedPlan.forUsers(users(), seed());
        return new SeedPlan(
                users(),
                boardsPerUser().orElse(base.boardsPerUser()),
                pins().orElse(base.pins()),
                followsPerUser().orElse(base.followsPerUser()),
                heavyAuthors().orElse(base.heavyAuthors()),
                likesPerUser().orElse(base.likesPerUser()),
                boardFollowRate().orElse(base.boardFollowRate()),
                boardUnfollowRate().orElse(base.boardUnfollowRate()),
                interestsPerUser().orElse(base.interestsPerUser()),
                sampleUsers().orElse(base.sampleUsers()),
                prefix().orElse(base.prefix()),
                seed());
    }
}
