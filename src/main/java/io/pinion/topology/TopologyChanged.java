package io.pinion.topology;

/**
 * Fired (synchronously) after a new topology took effect, so the backend clients can re-point themselves.
 */
public record TopologyChanged(Topology previous, Topology current) {
}
