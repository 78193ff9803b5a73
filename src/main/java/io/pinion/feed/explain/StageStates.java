package io.pinion.feed.explain;

import io.pinion.feed.DeliveryRules;
import io.pinion.feed.FeedConfig;

/**
 * The state of each stage given the verdict: {@code unavailable} when it did not answer (for the jobs, when one
 * lookup did not), {@code stop} where the path ends, {@code ok} when the pin got past it, {@code info} otherwise.
 */
final class StageStates {

    private StageStates() {
    }

    static String of(StageRead<?> read, Findings f, ExplainVerdict verdict, FeedConfig config) {
        if (!read.available() || (read.stage() == Stage.JOBS && !f.jobs().unavailable().isEmpty())) {
            return ExplainStage.UNAVAILABLE;
        }
        if (read.stage() == verdict.stoppedAt()) {
            return ExplainStage.STOP;
        }
        return passed(read.stage(), f, config.qualityThreshold()) ? ExplainStage.OK : ExplainStage.INFO;
    }

    private static boolean passed(Stage stage, Findings f, double bar) {
        return switch (stage) {
            case PIN -> f.pin().active();
            case FOLLOW -> f.follow().reaches();
            case ROUTE -> f.pulledForUser() || f.pushedToUser();
            case POOL -> f.pooled().map(row -> DeliveryRules.worthShowing(row.worth(), bar))
                    .orElseGet(() -> f.prospect() != null && DeliveryRules.worthShowing(f.prospect().worth(), bar));
            case SHOWN -> f.shownInFeed() || f.unfinished(FoundJob.Purpose.PERSIST_SHOWN).isPresent();
            case JOBS -> f.failed(FoundJob.Purpose.DELIVERY).isEmpty() && f.failed(FoundJob.Purpose.PURGE).isEmpty();
        };
    }
}
