package io.pinion.feed.funnel;

import java.util.Locale;

import io.pinion.feed.FunnelPin;

/** What a per-entity funnel is kept for: a pin, an author (all their pins) or a board (all its pins). */
public enum FunnelEntity {
    PIN('p'), AUTHOR('a'), BOARD('b');

    private final char code;

    FunnelEntity(char code) {
        this.code = code;
    }

    /** The letter in the entity's Redis keys. */
    char code() {
        return code;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The entity's id in a count (0 when the count does not name it). */
    long idIn(FunnelPin pin) {
        return switch (this) {
            case PIN -> pin.pin();
            case AUTHOR -> pin.author();
            case BOARD -> pin.board();
        };
    }
}
