package io.pinion.feed.explain;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.failure.NotFound;
import io.pinion.id.PinionId;
import io.pinion.pins.PinService;
import io.smallrye.mutiny.Uni;

/** Stage {@code pin}: the pin's row on its shard (through the object cache), deleted or not. */
@ApplicationScoped
class PinStage {

    private final PinService pins;
    private final SourceNames names;

    PinStage(PinService pins, SourceNames names) {
        this.pins = pins;
        this.names = names;
    }

    /** The pin as stored; fails with 404 {@code pin_not_found} when there is no such pin. */
    Uni<StageRead<PinFinding>> read(PinionId pin) {
        Uni<PinFinding> stored = pins.stored(pin)
                .onItem().ifNull().failWith(() -> new NotFound("pin_not_found", "no pin " + pin))
                .map(PinFinding::new);
        return StageRead.bounded(Stage.PIN, names.mysql(pin.shard()), stored);
    }
}
