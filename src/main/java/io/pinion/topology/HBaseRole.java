package io.pinion.topology;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What the service uses an HBase cluster for. Several roles may name the same cluster.
 */
public enum HBaseRole {
    /** Per-user candidate pools written by the feed worker. */
    @JsonProperty("pools")
    POOLS,
    /** The materialized home feed that reads go to first. */
    @JsonProperty("materializedPrimary")
    MATERIALIZED_PRIMARY,
    /** The replicated copy of the materialized feed, read when the primary fails or is slow. */
    @JsonProperty("materializedStandby")
    MATERIALIZED_STANDBY
}
