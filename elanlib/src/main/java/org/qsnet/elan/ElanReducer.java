package org.qsnet.elan;

/**
 * {@code ELAN_REDUCER}: the C reduction operator {@code void (*)(void *in, void *inout, int *count,
 * void *handle)} that {@code elan_reduce} takes: combines the {@code count[0]} elements at host
 * address {@code in} into those at {@code inout}, in place. It reads and writes them through the
 * process's memory accessors (e.g. {@code ctx.getLong(inout + 8 * i)}).
 */
@FunctionalInterface
public interface ElanReducer
{
    /**
     * Combines {@code in} into {@code inout}.
     *
     * @param in     host address of the other operand.
     * @param inout  host address of the accumulator, updated in place.
     * @param count  {@code int *count}: element 0 is the number of elements.
     * @param handle the {@code fnHandle} given to {@code elan_reduce}.
     */
    void reduce(long in, long inout, int[] count, Object handle);
}
