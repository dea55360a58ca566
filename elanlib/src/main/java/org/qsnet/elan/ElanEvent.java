package org.qsnet.elan;

import org.qsnet.fabric.QsnetException;

/**
 * {@code ELAN_EVENT}: the one completion handle every non-blocking call returns — puts and gets
 * (and their {@code doput}/{@code putv} forms), queue sends, and the Tports sends and receives,
 * whose {@code TxEvent} and {@code RxEvent} are subclasses — so code that keeps events of
 * different origins in one list and waits on each with {@code elan_wait} works as in libelan,
 * where the event is polymorphic. {@link #poll} tests it, {@link #waitEvent} blocks until it
 * completes and consumes it (as {@code elan_wait} releases the event to the free list),
 * {@link #done} is the cheaper test.
 */
public abstract class ElanEvent
{
    private boolean consumed;

    /**
     * @return whether the operation has completed (no time charged).
     */
    protected abstract boolean complete();

    /**
     * Blocks until {@link #complete()}.
     *
     * @param how ELAN_POLL_EVENT, ELAN_WAIT_EVENT or a spin count.
     */
    protected abstract void block(long how);

    /**
     * Charges one test of the event.
     */
    protected abstract void chargePoll();

    /**
     * The C calls that consume this kind of event, named when a consumed event is used again.
     *
     * @return {@code elan_wait}; the Tports events add their own wait.
     */
    protected String waitCalls()
    {
        return "elan_wait";
    }

    /**
     * Called once, when the event is consumed.
     */
    protected void release()
    {
    }

    /**
     * The failure the operation ended with (e.g. a receive whose message did not fit), which
     * {@link #waitEvent} throws once the event is consumed.
     *
     * @return the reason, or null when the operation succeeded.
     */
    protected String failure()
    {
        return null;
    }

    /**
     * The exception {@link #waitEvent} throws for a {@link #failure()}: a {@link QsnetException}
     * with the reason, or a subclass that says more (Tports' receive gives the refused message's
     * envelope).
     *
     * @param reason the failure's reason.
     * @return the exception to throw.
     */
    protected QsnetException failureException(final String reason)
    {
        return new QsnetException(reason);
    }

    private void live()
    {
        if (consumed)
        {
            throw new QsnetException("event " + this + " was already consumed by " + waitCalls()
                + ": a consumed handle may not be tested or waited for again (libelan reuses it)");
        }
    }

    /**
     * {@code elan_poll}: tests the event {@code how} times (at least once).
     *
     * @param how tests to make (ELAN_POLL_EVENT or ELAN_WAIT_EVENT count as one).
     * @return whether it has completed.
     */
    public final boolean poll(final long how)
    {
        live();
        final long n = Math.max(1, how);
        for (long i = 0; i < n; i++)
        {
            chargePoll();
            if (complete())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code elan_done}: whether the event has completed, without the device check. Charges one
     * test of the event and lets due events run, so a loop {@code while (!elan_done(ev, 0)) ;}
     * makes simulated time progress and sees the completion, as on the real machine.
     *
     * @return whether it has completed.
     */
    public final boolean done()
    {
        live();
        chargePoll();
        return complete();
    }

    /**
     * Blocks until the operation completes without consuming the event (the library waiting on the
     * program's behalf, e.g. a put/get handle's throttle): the program's own {@code elan_wait} of it
     * later returns at once. Nothing happens once the event was consumed.
     *
     * @param how ELAN_POLL_EVENT, ELAN_WAIT_EVENT or a spin count.
     */
    final void awaitUnconsumed(final long how)
    {
        if (!consumed && !complete())
        {
            block(how);
        }
    }

    /**
     * {@code elan_wait}: blocks until the event completes, then consumes it.
     *
     * @param how ELAN_POLL_EVENT, ELAN_WAIT_EVENT or a spin count.
     */
    public final void waitEvent(final long how)
    {
        live();
        if (!complete())
        {
            block(how);
        }
        consumed = true;
        release();
        final String f = failure();
        if (f != null)
        {
            throw failureException(f);
        }
    }

    /**
     * Makes a consumed event object usable again, for libraries that keep a free list of them
     * (as libelan does).
     */
    protected final void reuse()
    {
        consumed = false;
    }

    /**
     * @return whether {@link #waitEvent} consumed the event.
     */
    public final boolean isConsumed()
    {
        return consumed;
    }

    /**
     * {@code elan_link}: an event that completes when both do.
     *
     * @param a first event.
     * @param b second event.
     * @return the combined event.
     */
    public static ElanEvent link(final ElanEvent a, final ElanEvent b)
    {
        // a NULL event (a failed call's result) would only fail later, inside the wait
        QsnetException.require(a != null, "a", "null", "must be an event (elan_link of a NULL ELAN_EVENT *)");
        QsnetException.require(b != null, "b", "null", "must be an event (elan_link of a NULL ELAN_EVENT *)");
        return new ElanEvent()
        {
            @Override
            protected boolean complete()
            {
                return a.complete() && b.complete();
            }

            @Override
            protected void block(final long how)
            {
                a.waitEvent(how);
                b.waitEvent(how);
            }

            @Override
            protected void chargePoll()
            {
                a.chargePoll();
            }

            @Override
            public String toString()
            {
                return "link(" + a + ", " + b + ")";
            }
        };
    }
}
