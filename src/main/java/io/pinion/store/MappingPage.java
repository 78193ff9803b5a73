package io.pinion.store;

import java.util.List;

import io.pinion.paging.Position;

/**
 * One page of a mapping list.
 *
 * @param toIds the target ids, in list order
 * @param next  the position of the last entry when more entries follow, else null
 */
public record MappingPage(List<Long> toIds, Position next) {
}
