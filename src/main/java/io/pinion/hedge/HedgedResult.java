package io.pinion.hedge;

/**
 * The answer of a hedged read and which side gave it ({@link HedgedReader#readWithOutcome}).
 *
 * @param value the winning side's item (may be null if the sources emit null)
 * @param outcome which side answered, never {@link HedgeOutcome#BOTH_FAILED} (that read fails instead)
 */
public record HedgedResult<T>(T value, HedgeOutcome outcome) {
}
