package io.pinion.feed.explain;

import java.time.Duration;
import java.util.Map;

import org.jboss.logging.Logger;

import io.pinion.failure.Failure;
import io.pinion.failure.NotFound;
import io.pinion.failure.Outages;
import io.smallrye.mutiny.TimeoutException;
import io.smallrye.mutiny.Uni;

/**
 * One stage as read: its source and finding, or what failed when the source did not answer in time. A stage that
 * fails costs only itself; the explanation goes on with the others.
 *
 * @param finding null when the stage is unavailable
 * @param failure what failed, when it is
 */
record StageRead<F extends Finding>(Stage stage, String source, F finding, String failure) {

    /** The longest a stage waits; Redis and MySQL calls give up sooner on their own (1 s, 1.5 s), HBase calls later. */
    static final Duration TIMEOUT = Duration.ofSeconds(3);

    private static final Logger LOG = Logger.getLogger(StageRead.class);

    /** The stage's read, bounded by {@link #TIMEOUT}; any failure but a {@link NotFound} makes it unavailable. */
    static <F extends Finding> Uni<StageRead<F>> bounded(Stage stage, String source, Uni<F> read) {
        return read.ifNoItem().after(TIMEOUT).fail()
                .map(finding -> new StageRead<>(stage, source, finding, null))
                .onFailure(failure -> !(failure instanceof NotFound))
                .recoverWithItem(failure -> new StageRead<>(stage, source, null, describe(stage.label(), failure)));
    }

    /** A stage that needs the pin's data, when the pin stage did not answer. */
    static <F extends Finding> Uni<StageRead<F>> withoutPin(Stage stage, String source) {
        return Uni.createFrom().item(new StageRead<>(stage, source, null,
                "needs the pin's author, board and interests, which were not read"));
    }

    boolean available() {
        return finding != null;
    }

    ExplainStage render(String state) {
        if (finding == null) {
            return new ExplainStage(stage.label(), source, ExplainStage.UNAVAILABLE, "not read: " + failure,
                    Map.of("failure", failure));
        }
        return new ExplainStage(stage.label(), source, state, finding.summary(), finding.evidence());
    }

    /** What failed, in words an operator can act on: never a class name or an address. */
    static String describe(String what, Throwable failure) {
        if (failure instanceof TimeoutException) {
            return "no answer within " + TIMEOUT.toMillis() + " ms";
        }
        if (failure instanceof Failure known) {
            return known.getMessage();
        }
        if (Outages.isUnavailable(failure)) {
            return "the source did not answer";
        }
        LOG.errorf(failure, "feed explain: %s failed", what);
        return "failed unexpectedly; see the service log";
    }
}
