package org.qsnet.fabric.engine;

import java.util.concurrent.atomic.AtomicInteger;

import org.qsnet.fabric.QsnetException;

/**
 * A value of its own for each simulated process, as a {@link ThreadLocal} is for each thread: what
 * a library keeps per process (C code's globals, one copy per Unix process). Processes may share a
 * thread (they run as continuations on a carrier, see {@link SimProcess#runsOnContinuations()}), so
 * a library must not use a {@code ThreadLocal} for this.
 *
 * @param <T> the value's type.
 */
public final class ProcessLocal<T>
{
    private static final AtomicInteger SLOTS = new AtomicInteger();

    private final int slot = SLOTS.getAndIncrement();

    /**
     * @return the calling process's value, or null when it has none or no process runs on this thread.
     */
    @SuppressWarnings("unchecked")
    public T get()
    {
        final SimProcess p = SimProcess.current();
        return p == null ? null : (T)p.local(slot);
    }

    /**
     * Sets the calling process's value.
     *
     * @param value the value, or null to clear it.
     * @throws QsnetException when no simulated process runs on this thread.
     */
    public void set(final T value)
    {
        final SimProcess p = SimProcess.current();
        if (p == null)
        {
            throw new QsnetException("no simulated process runs on thread " + Thread.currentThread().getName()
                + ": a process-local value is set from the process's own code");
        }
        p.setLocal(slot, value);
    }
}
