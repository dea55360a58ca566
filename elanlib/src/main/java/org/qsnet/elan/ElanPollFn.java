package org.qsnet.elan;

/**
 * {@code ELAN_POLLFN}: {@code int (*)(void *handle, unsigned *ready)}, a function libelan calls
 * while it spins ({@code elan_addPollFn}); {@code elan_addProgressFn} takes the same shape here
 * (the catalog does not show {@code ELAN_PROGFN}'s).
 */
@FunctionalInterface
public interface ElanPollFn
{
    /**
     * Runs once.
     *
     * @param handle the handle given when the function was added.
     * @param ready  {@code unsigned *ready}: element 0 may be set by the function.
     * @return 0 to let the library sleep until the next arrival; nonzero to be called again at once.
     */
    int poll(Object handle, int[] ready);
}
