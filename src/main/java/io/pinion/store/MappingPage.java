package io.pinion.store;

import io.pinion.paging.Position;
import java.util.List;

/**
 * One page of a mapping list.
 *
 * @param toIds the target ids, in list order
 * @param next  the position of the last entry when more entries follow, else null
 */
public record MappingPage(List<Long> toIds, Position next) {
}
