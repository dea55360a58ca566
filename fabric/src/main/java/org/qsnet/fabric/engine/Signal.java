package org.qsnet.fabric.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Something simulated processes wait for: model code fires it, and every process parked on it
 * resumes at the time of firing.
 */
public final class Signal
{
    private final Object name;
    /** The first waiter; the others, if any, in {@link #more} (a signal mostly has one waiter). */
    private SimProcess waiter;
    private List<SimProcess> more;

    /**
     * @param name what it stands for, shown in deadlock reports (e.g. {@code "event 0x1000 on vp 3"}).
     */
    public Signal(final String name)
    {
        this.name = name;
    }

    /**
     * Creates a signal whose name is built only when a report shows it, so that model code can
     * create signals on a hot path without building strings.
     *
     * @param name builds what it stands for.
     */
    public Signal(final Supplier<String> name)
    {
        this.name = name;
    }

    /**
     * @return the name given at creation (built now if it was given lazily).
     */
    public String name()
    {
        return name instanceof Supplier<?> s ? String.valueOf(s.get()) : (String)name;
    }

    /**
     * @return whether a process waits on this signal.
     */
    public boolean hasWaiters()
    {
        return waiter != null;
    }

    void addWaiter(final SimProcess p)
    {
        if (waiter == null)
        {
            waiter = p;
            return;
        }
        if (more == null)
        {
            more = new ArrayList<>(2);
        }
        more.add(p);
    }

    /**
     * Resumes every waiting process at the current simulated time. Call from model code (an event
     * handler or a process's library call).
     */
    public void fire()
    {
        final SimProcess first = waiter;
        if (first == null)
        {
            return;
        }
        final List<SimProcess> others = more;
        waiter = null;
        more = null;
        wake(first);
        if (others != null)
        {
            for (int i = 0, n = others.size(); i < n; i++)
            {
                wake(others.get(i));
            }
        }
    }

    /** Takes a process that was parked on several signals off this one's waiters. */
    void removeWaiter(final SimProcess p)
    {
        if (waiter == p)
        {
            waiter = more == null || more.isEmpty() ? null : more.remove(0);
        }
        else if (more != null)
        {
            more.remove(p);
        }
    }

    private void wake(final SimProcess p)
    {
        // a process woken by failWith meanwhile (or by another of the signals it waited for) is
        // no longer parked here
        if (p.parkedOn(this))
        {
            p.blockedOn = null;
            p.wake();
        }
    }

    @Override
    public String toString()
    {
        return name();
    }
}
