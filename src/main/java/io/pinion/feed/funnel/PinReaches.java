package io.pinion.feed.funnel;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.Forbidden;
import io.pinion.failure.NotFound;
import io.pinion.feed.FeedFunnel;
import io.pinion.id.PinionId;
import io.pinion.pins.PinService;
import io.smallrye.mutiny.Uni;

/** A pin's reach for its author ({@link PinReach}), from the pin's own funnel ({@link EntityFunnels}). */
@ApplicationScoped
public class PinReaches {

    /** The default range: the last seven days, by the hour. */
    public static final Duration SPAN = Duration.ofDays(7);
    public static final Duration STEP = Duration.ofHours(1);

    private final PinService pins;
    private final EntityFunnels funnels;

    PinReaches(PinService pins, EntityFunnels funnels) {
        this.pins = pins;
        this.funnels = funnels;
    }

    /** The pin's reach, for {@code caller} only if they wrote it (403 otherwise, 404 for no such pin). */
    public Uni<PinReach> of(PinionId caller, PinionId pin, FunnelRange range) {
        EntityFunnels.check(range.from(), range.to(), range.step(), Instant.now());
        return pins.get(pin).chain(view -> {
            if (view == null) {
                throw new NotFound("pin_not_found", "no pin " + pin);
            }
            if (!caller.toString().equals(view.ownerId())) {
                throw new Forbidden("not_pin_author", "only the pin's author sees its reach");
            }
            return funnels.read(FunnelEntity.PIN, pin, range.from(), range.to(), range.step())
                    .map(PinReaches::reach);
        });
    }

    private static PinReach reach(FunnelView funnel) {
        long followers = 0;
        long inactive = 0;
        long delivered = 0;
        long considered = 0;
        long shown = 0;
        List<FunnelView.Point> shownOverTime = List.of();
        for (FunnelView.Line line : funnel.lines()) {
            String stage = line.stage();
            if (stage.equals(FeedFunnel.Stage.PAGED.tag()) || stage.equals(FeedFunnel.Stage.SKIPPED.tag())
                    && line.reason().equals(FeedFunnel.Reason.PULLED_AUTHOR.tag())) {
                followers += line.total();
            }
            if (stage.equals(FeedFunnel.Stage.SKIPPED.tag())
                    && line.reason().equals(FeedFunnel.Reason.INACTIVE.tag())) {
                inactive += line.total();
            }
            if (stage.equals(FeedFunnel.Stage.PUSHED.tag()) || stage.equals(FeedFunnel.Stage.POOLED.tag())) {
                delivered += line.total();
            }
            if (stage.equals(FeedFunnel.Stage.CANDIDATE.tag())) {
                considered += line.total();
            }
            if (stage.equals(FeedFunnel.Stage.SHOWN.tag())) {
                shown += line.total();
                shownOverTime = merge(shownOverTime, line.points());
            }
        }
        return new PinReach(funnel.id(), funnel.from(), funnel.to(), funnel.step(), followers, inactive, delivered,
                considered, shown, shownOverTime);
    }

    /** Two sorted series of points summed into one. */
    private static List<FunnelView.Point> merge(List<FunnelView.Point> a, List<FunnelView.Point> b) {
        TreeMap<Instant, Long> sum = new TreeMap<>();
        a.forEach(p -> sum.merge(p.at(), p.count(), Long::sum));
        b.forEach(p -> sum.merge(p.at(), p.count(), Long::sum));
        return sum.entrySet().stream().map(e -> new FunnelView.Point(e.getKey(), e.getValue())).toList();
    }
}
