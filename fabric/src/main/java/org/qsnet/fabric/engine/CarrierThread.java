package org.qsnet.fabric.engine;

import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A platform thread that runs simulated processes' continuations ({@link Continuations}) for a
 * kernel while the kernel's driver waits, then gives the driver its turn back.
 *
 * <p>One thread runs a kernel's processes one after the other: a process that hands off yields
 * back to {@link Kernel#carrierLoop}, which runs the next process's continuation on the same
 * thread. The driver keeps its own thread, so its wait keeps its watchdog and its interrupt (a
 * process that computes forever without calling the library holds its carrier, as it held its
 * virtual thread).
 *
 * <p>A kernel keeps its carrier for as long as any of its processes is suspended: a continuation
 * resumes on the thread it was suspended on, never another. (Compiled code may keep
 * {@code Thread.currentThread()} across a call; a continuation moved to another platform thread
 * would then see the old one. Virtual threads are exempt, their identity moves with them.) When
 * no process of the kernel is suspended the carrier goes back to a pool shared by the JVM's
 * kernels; a pooled carrier idle for {@value #IDLE_EXIT_MS} ms ends, and a kept one ends when its
 * kernel has been collected.
 */
final class CarrierThread extends Thread
{
    private static final long IDLE_EXIT_MS = 10_000;
    private static final ConcurrentLinkedDeque<CarrierThread> POOL = new ConcurrentLinkedDeque<>();
    private static final AtomicInteger NAMES = new AtomicInteger();

    private static final int POOLED = 0;
    private static final int CLAIMED = 1;
    private static final int ENDED = 2;

    private final AtomicInteger state = new AtomicInteger(CLAIMED);
    /** The process whose continuation runs on this thread now (what {@link SimProcess#current()} reads). */
    SimProcess mounted;
    /** The kernel that keeps this carrier between its segments, or null when the carrier is pooled. */
    volatile WeakReference<Kernel> keptBy;
    private Kernel kernel;
    private SimProcess first;
    private Runnable task;
    private volatile boolean assigned;

    private CarrierThread()
    {
        super("qsnet-carrier-" + NAMES.incrementAndGet());
        setDaemon(true);
        release();
    }

    /**
     * Drops what the last process left on this thread between its runs: its context class loader
     * (a rank's loader reaches the rank's program and, through its static fields, its job: kept
     * here, it would keep the kernel reachable, and so this carrier and the whole run, for ever).
     */
    void release()
    {
        setContextClassLoader(ClassLoader.getSystemClassLoader());
    }

    /** A carrier from the pool, or a new one; it runs nothing until {@link #runSegment} or {@link #runTask}. */
    static CarrierThread claim()
    {
        CarrierThread c;
        while ((c = POOL.pollFirst()) != null)
        {
            if (c.state.compareAndSet(POOLED, CLAIMED))
            {
                return c;
            }
        }
        return new CarrierThread();
    }

    /** Runs {@code kernel}'s processes from {@code first}; returns at once. The loop gives the driver its turn. */
    void runSegment(final Kernel kernel, final SimProcess first)
    {
        this.kernel = kernel;
        this.first = first;
        hand();
    }

    /** Runs {@code task} (the unwinding of killed processes); returns at once. */
    void runTask(final Runnable task)
    {
        this.task = task;
        hand();
    }

    private void hand()
    {
        assigned = true;
        if (getState() == State.NEW)
        {
            start();
        }
        else
        {
            LockSupport.unpark(this);
        }
    }

    @Override
    public void run()
    {
        while (awaitAssignment())
        {
            assigned = false;
            final Kernel k = kernel;
            final SimProcess p = first;
            final Runnable t = task;
            kernel = null;
            first = null;
            task = null;
            try
            {
                if (k != null)
                {
                    k.carrierLoop(this, p);
                }
                else if (t != null)
                {
                    t.run();
                }
            }
            catch (final Throwable e)
            {
                // the kernel records its own failures; anything else must not end the carrier silently
                final UncaughtExceptionHandler h = getUncaughtExceptionHandler();
                if (h != null)
                {
                    h.uncaughtException(this, e);
                }
            }
            mounted = null;
        }
    }

    /**
     * Waits for the next assignment: from the kernel that keeps this carrier, or (pooled) from
     * any. False when the carrier ends: pooled and idle too long, or kept by a collected kernel.
     */
    private boolean awaitAssignment()
    {
        // an interrupt left here would make every park below return at once (the processes' own
        // interrupts are kept by Kernel.runMounted; this is for anyone else's)
        Thread.interrupted();
        if (assigned)
        {
            return true;
        }
        final WeakReference<Kernel> kept = keptBy;
        if (kept == null)
        {
            state.set(POOLED);
            POOL.addFirst(this);
        }
        long idleSince = 0;
        while (!assigned)
        {
            LockSupport.parkNanos(this, 1_000_000_000L);
            if (assigned)
            {
                break;
            }
            if (kept != null)
            {
                if (kept.get() == null)
                {
                    return false;
                }
                continue;
            }
            final long now = System.nanoTime(); // wall-clock: the pool's idle timeout, never part of a result
            if (idleSince == 0)
            {
                idleSince = now;
            }
            else if (now - idleSince > IDLE_EXIT_MS * 1_000_000L && state.compareAndSet(POOLED, ENDED))
            {
                POOL.remove(this);
                return false;
            }
        }
        return true;
    }
}
