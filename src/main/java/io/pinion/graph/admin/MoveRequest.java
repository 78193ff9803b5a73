package io.pinion.graph.admin;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

/**
 * Body of the copy and purge steps: an inclusive range of virtual shards and an instance name (the copy's target,
 * or the instance to purge).
 */
public record MoveRequest(@Min(0) int from, @Min(0) int to, @NotBlank String instance) {
}
