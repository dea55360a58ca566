package org.qsnet.elan;

/**
 * {@code ELAN_REDUCER}: the C reduction operator {@code void (*)(void *in, void *inout, int *count,
 * void *handle)} that {@code elan_reduce} takes: combines the {@code count[0]} elements at host
 * address {@code in} into those at {@code inout}, in place: {@code inout = in op inout}, where
 * {@code in} is the earlier operand in group order (as MPI's user functions). The operator must
 * be associative (the reduction runs up a tree); it need not be commutative. It reads and writes
 * the operands through the process's memory accessors (e.g. {@code ctx.getLong(inout + 8 * i)}).
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
