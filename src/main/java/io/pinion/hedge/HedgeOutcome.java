package io.pinion.hedge;

import java.util.Locale;

/**
 * Which side answered a hedged read, and why. The lower-case name is the {@code outcome} tag of
 * {@code pinion_hedge_reads_total}.
 */
public enum HedgeOutcome {

    /** The primary answered within the hedge delay; the standby was not asked. */
    PRIMARY,
    /** The primary was slower than the hedge delay, the standby was asked too, and the primary answered first. */
    HEDGED_PRIMARY_WON,
    /** The primary was slower than the hedge delay, the standby was asked too, and the standby answered first. */
    HEDGED_STANDBY_WON,
    /** The primary failed before the hedge delay; the standby was asked at once and answered. */
    FAILOVER,
    /** Both sides failed; the read failed with a {@link HedgedReadFailedException}. */
    BOTH_FAILED,
    /** The primary kept losing (see {@link PrimaryBreaker}), so the read went to the standby alone. */
    STANDBY_ONLY;

    /** The metric tag value, e.g. {@code hedged_standby_won}. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True when the standby's answer was used. */
    public boolean fromStandby() {
        return this == HEDGED_STANDBY_WON || this == FAILOVER || this == STANDBY_ONLY;
    }
}
