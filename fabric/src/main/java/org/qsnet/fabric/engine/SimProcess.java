package org.qsnet.fabric.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.concurrent.locks.LockSupport;

import org.qsnet.fabric.QsnetException;

/**
 * A simulated process: user code with its own stack and its own simulated clock, run as a
 * continuation on its kernel's carrier thread ({@link Continuations}, the default with the
 * project's JVM flags) or on a virtual thread of its own ({@code -Dqsnet.carrier=virtual}, or when
 * the JVM does not export {@code jdk.internal.vm}). Either way exactly one process or the driver
 * runs at a time, a process keeps one thread identity for its whole life, and per-process state
 * belongs in a {@link ProcessLocal} (processes on continuations share their carrier's thread).
 *
 * <p>The clock advances only inside library calls, through the primitives here: {@link #advance},
 * {@link #poll}, {@link #await} and {@link #compute}. Each first lets the kernel process every
 * event before the new clock, so code that reads memory after a call sees everything that
 * landed before "now". When nothing is pending before the new clock the call returns at once
 * without a thread switch (fast path).
 *
 * <p>About 700 lines, one class: each primitive (advance, poll, compute, await, awaitAny,
 * failWith) is a few lines over the same private state (clock, turn, blocked-on signals, the
 * pending error) whose hand-off ordering the class comment of {@link Kernel} describes; most of the
 * length is their contracts' Javadoc.
 */
public final class SimProcess
{
    /** The event handler that resumes a process; recognised by the kernel's dispatch loop. */
    static final class Resume implements EventHandler
    {
        final SimProcess process;

        Resume(final SimProcess process)
        {
            this.process = process;
        }

        @Override
        public void onEvent(final long timeNs)
        {
            throw new IllegalStateException("resume events are dispatched by the kernel");
        }
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** The process a virtual thread runs (continuations are found through their carrier instead). */
    private static final ThreadLocal<SimProcess> ON_VIRTUAL_THREAD = new ThreadLocal<>();

    /*
     * The turn flag and the state are read by other threads, but each hand-off is a release
     * (the giver's turn = true) paired with an acquire (the receiver's read of its flag), which
     * orders everything the giver did before the receiver's code: no write here needs the full
     * fence of a volatile store (a locked instruction on x86, several per hand-off otherwise).
     */
    private static final VarHandle TURN;
    private static final VarHandle STATE;

    static
    {
        try
        {
            final MethodHandles.Lookup l = MethodHandles.lookup();
            TURN = l.findVarHandle(SimProcess.class, "turn", boolean.class);
            STATE = l.findVarHandle(SimProcess.class, "state", ProcessState.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Kernel kernel;
    private final Origin origin;
    private final ProcessBody body;
    final Resume resume = new Resume(this);
    /** The process's virtual thread, or null when it runs as a continuation on a {@link CarrierThread}. */
    private final Thread thread;
    /** The process's continuation ({@link Continuations}), or null on a virtual thread. */
    private Object continuation;
    /** The context class loader of the process's code (a carrier swaps it in and out with the process). */
    ClassLoader contextClassLoader;
    /** Whether the process's code left itself interrupted when it last handed off (a carrier swaps it too). */
    boolean interrupted;

    long clockNs;
    private volatile boolean turn;
    private volatile boolean killed;
    private volatile ProcessState state = ProcessState.NEW;
    private Signal waitingOn;
    private Object waitingWhat;
    private long finishedAtNs = -1;
    private Throwable failure;
    private Throwable pendingError;
    private long lastCpuNs = -1;
    private Object attachment;
    Signal blockedOn;
    /** While parked by {@link #awaitAny}: the signals any of which resumes it ({@link #blockedOn} is {@link #ANY}). */
    Signal[] blockedOnAny;

    /** What {@link #blockedOn} holds while the process is parked on several signals. */
    static final Signal ANY = new Signal("any of several signals");

    SimProcess(final Kernel kernel, final Origin origin, final ProcessBody body)
    {
        this.kernel = kernel;
        this.origin = origin;
        this.body = body;
        this.thread = Continuations.ENABLED ? null : Thread.ofVirtual().name("sim-" + origin.name()).unstarted(this::main);
        this.contextClassLoader = Thread.currentThread().getContextClassLoader();
    }

    /**
     * The process whose code (or whose kernel work) runs on the calling thread: what a library
     * finds its per-process state through, where C code had globals of its own per process.
     *
     * @return the process, or null on a thread that runs none (the driver, a test's thread).
     */
    public static SimProcess current()
    {
        return Thread.currentThread() instanceof CarrierThread c ? c.mounted : ON_VIRTUAL_THREAD.get();
    }

    /**
     * @return whether processes run as continuations on carrier threads (the fast hand-off) rather
     *         than on virtual threads of their own; see the README's "Processes and threads".
     */
    public static boolean runsOnContinuations()
    {
        return Continuations.ENABLED;
    }

    /** The {@link ProcessLocal} values, by slot; null until the first is set. */
    private Object[] locals;

    Object local(final int slot)
    {
        final Object[] l = locals;
        return l != null && slot < l.length ? l[slot] : null;
    }

    void setLocal(final int slot, final Object value)
    {
        if (locals == null || slot >= locals.length)
        {
            locals = java.util.Arrays.copyOf(locals == null ? new Object[0] : locals, Math.max(slot + 1, 4));
        }
        locals[slot] = value;
    }

    void start()
    {
        if (thread != null)
        {
            thread.start();
        }
        else
        {
            continuation = Continuations.create(this::main);
        }
    }

    /** Runs the process on its carrier until it hands off or ends (continuations only). */
    void runOnCarrier()
    {
        Continuations.run(continuation);
    }

    /** Whether the process's continuation started and did not end: it is suspended in a hand-off. */
    boolean suspendedOnCarrier()
    {
        return continuation != null && state != ProcessState.NEW && !Continuations.isDone(continuation);
    }

    private void main()
    {
        if (thread != null)
        {
            awaitTurnQuietly();
            ON_VIRTUAL_THREAD.set(this);
        }
        if (killed)
        {
            state = ProcessState.KILLED;
            return;
        }
        state = ProcessState.RUNNING;
        if (thread == null)
        {
            kernel.liveContinuations++;
        }
        try
        {
            body.run(this);
            state = ProcessState.DONE;
        }
        catch (final Killed k)
        {
            // unwound: handled below
        }
        catch (final Throwable t)
        {
            if (!killed)
            {
                failure = t;
                state = ProcessState.FAILED;
            }
        }
        if (killed)
        {
            // the run has ended: whatever the process's finally blocks threw (a cleanup that fails
            // once the job is gone), it ends killed, and the ended run does no more work for it (a
            // new failure's end, before now, would throw here and stop the other processes' unwinding)
            state = ProcessState.KILLED;
            if (thread == null)
            {
                kernel.liveContinuations--;
            }
            return;
        }
        finishedAtNs = clockNs;
        if (state == ProcessState.FAILED)
        {
            kernel.processFailed(this);
        }
        if (thread == null)
        {
            kernel.liveContinuations--;
        }
        // This thread does the kernel's work until another process must run, then ends.
        kernel.processEnded();
    }

    /**
     * @return the kernel this process runs in.
     */
    public Kernel kernel()
    {
        return kernel;
    }

    /**
     * @return the origin of events this process schedules.
     */
    public Origin origin()
    {
        return origin;
    }

    /**
     * @return the process's name.
     */
    public String name()
    {
        return origin.name();
    }

    /**
     * @return the process's simulated clock in ns.
     */
    public long nowNs()
    {
        return clockNs;
    }

    /**
     * @return the process's state.
     */
    public ProcessState state()
    {
        return state;
    }

    /**
     * What the process waits for when blocked, else an empty string: the description its library
     * call gave (in the user's terms: the event, the receive and its tag, the barrier), then the
     * signal it is parked on. Built only when asked for, so waiting costs no string building.
     *
     * @return the description, or an empty string.
     */
    public String waitingFor()
    {
        final Signal s = waitingOn;
        if (s == null)
        {
            return "";
        }
        final Signal[] any = s == ANY ? blockedOnAny : null;
        final String names;
        if (any != null)
        {
            final StringBuilder b = new StringBuilder("any of: ");
            for (int i = 0; i < any.length; i++)
            {
                b.append(i == 0 ? "" : " | ").append(any[i].name());
            }
            names = b.toString();
        }
        else
        {
            names = s.name();
        }
        final Object what = waitingWhat;
        return what == null ? names : describe(what) + " [" + names + "]";
    }

    /**
     * Renders a wait description: a {@link Supplier} is asked for its value, anything else gives
     * its {@code toString()}.
     *
     * @param what the description.
     * @return its text.
     */
    static String describe(final Object what)
    {
        return String.valueOf(what instanceof Supplier<?> s ? s.get() : what);
    }

    /**
     * Where the process's code is, innermost frame first; empty once it has finished. For
     * reports (a rank blocked or stopped by a limit), not for the model.
     *
     * @return the stack of the process's thread.
     */
    public List<StackTraceElement> stackTrace()
    {
        if (state.isTerminal())
        {
            return List.of();
        }
        if (thread != null)
        {
            return List.of(thread.getStackTrace());
        }
        if (state == ProcessState.NEW)
        {
            return List.of();
        }
        final CarrierThread on = kernel.carrierOf(this);
        return List.of(on != null ? on.getStackTrace() : Continuations.stackTrace(continuation));
    }

    /**
     * @return the simulated time the process finished at, or -1.
     */
    public long finishedAtNs()
    {
        return finishedAtNs;
    }

    /**
     * @return what the process threw, or null.
     */
    public Throwable failure()
    {
        return failure;
    }

    /**
     * @return the object a library attached to this process (its per-process state), or null.
     */
    public Object attachment()
    {
        return attachment;
    }

    /**
     * Attaches a library's per-process state.
     *
     * @param attachment the state.
     */
    public void attach(final Object attachment)
    {
        this.attachment = attachment;
    }

    /**
     * Charges {@code ns} of simulated time: processes every event before the new clock first.
     *
     * @param ns time to charge, at least 0.
     */
    public void advance(final long ns)
    {
        checkCaller();
        if (ns < 0)
        {
            throw new QsnetException("ns " + ns + " must be at least 0");
        }
        final long t = clockNs + ns;
        if (kernel.fastPathAllowed(t, origin.id()))
        {
            clockNs = t;
            kernel.setNow(t);
            return;
        }
        kernel.pendingResumes++;
        kernel.schedule(origin, t, resume);
        kernel.handOff(this);
        restartComputeClock();
        rethrowPending();
    }

    /**
     * Charges the modelled cost of one poll and yields to the kernel, so that a busy-wait loop
     * makes simulated time progress.
     *
     * @param costNs the poll's cost, at least 1.
     */
    public void poll(final long costNs)
    {
        if (costNs < 1)
        {
            throw new QsnetException("costNs " + costNs + " must be at least 1 so that a polling loop advances time");
        }
        advance(costNs);
    }

    /**
     * Charges explicit compute time (work between library calls).
     *
     * @param ns compute time, at least 0.
     */
    public void compute(final long ns)
    {
        advance(ns);
    }

    /**
     * Charges the compute time since the previous library call, as the kernel's
     * {@link KernelContext.ComputeMode} says; a no-op in the default mode. Libraries call this at
     * the start of every call.
     */
    public void chargeCompute()
    {
        final KernelContext c = kernel.context();
        if (c.computeMode() == KernelContext.ComputeMode.ZERO)
        {
            return;
        }
        final long cpu = hostCpuNs();
        if (lastCpuNs >= 0 && cpu > lastCpuNs)
        {
            advance((long)((cpu - lastCpuNs) * c.computeFactor()));
        }
        lastCpuNs = hostCpuNs();
    }

    /**
     * After a hand-off ({@link KernelContext.ComputeMode#MEASURED} only): what the process computes is measured
     * from here. The host clock it reads ran on while the process waited (its carrier's CPU clock
     * ran the other processes; on a virtual thread it is the wall clock), and that time is theirs.
     */
    private void restartComputeClock()
    {
        if (lastCpuNs >= 0)
        {
            lastCpuNs = hostCpuNs();
        }
    }

    private static long hostCpuNs()
    {
        final long cpu = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
        // virtual threads have no CPU clock of their own on some JDKs
        return cpu >= 0 ? cpu : System.nanoTime(); // wall-clock: MEASURED compute mode only, non-deterministic by definition
    }

    /**
     * Parks the process until {@code signal} fires.
     *
     * @param signal what to wait for.
     */
    public void await(final Signal signal)
    {
        await(signal, null);
    }

    /**
     * Parks the process until {@code signal} fires, saying in the user's terms what it waits for.
     *
     * @param signal what to wait for.
     * @param what   the wait's description for reports, or null: any object (rendered with
     *               {@code toString()} only when a report is made) or a {@link Supplier} of the text.
     */
    public void await(final Signal signal, final Object what)
    {
        checkCaller();
        waitingOn = signal;
        waitingWhat = what;
        STATE.setRelease(this, ProcessState.BLOCKED);
        blockedOn = signal;
        signal.addWaiter(this);
        kernel.handOff(this);
        restartComputeClock();
        STATE.setRelease(this, ProcessState.RUNNING);
        waitingOn = null;
        waitingWhat = null;
        rethrowPending();
    }

    /**
     * Parks the process on {@code signal} until {@code condition} holds; returns at once if it holds.
     *
     * @param condition what must hold.
     * @param signal    fired by whatever may make the condition true.
     */
    public void awaitUntil(final BooleanSupplier condition, final Signal signal)
    {
        awaitUntil(condition, signal, null);
    }

    /**
     * Parks the process on {@code signal} until {@code condition} holds, saying in the user's terms
     * what it waits for; returns at once if it holds.
     *
     * @param condition what must hold.
     * @param signal    fired by whatever may make the condition true.
     * @param what      the wait's description for reports, or null (see {@link #await(Signal, Object)}).
     */
    public void awaitUntil(final BooleanSupplier condition, final Signal signal, final Object what)
    {
        while (!condition.getAsBoolean())
        {
            await(signal, what);
        }
    }

    /**
     * Parks the process until {@code condition} holds, resumed by whichever of {@code signals}
     * fires first: what a progress engine does when it may be unblocked by any of several
     * operations (a blocking receive while collectives are in flight). Returns at once if the
     * condition holds. A process woken by one signal is taken off the others' waiters.
     *
     * @param condition what must hold.
     * @param signals   fired by whatever may make the condition true; at least one, none null.
     * @param what      the wait's description for reports, or null (see {@link #await(Signal, Object)}).
     */
    public void awaitAny(final BooleanSupplier condition, final Signal[] signals, final Object what)
    {
        QsnetException.require(signals.length > 0, "signals", "an empty array", "must name at least one signal");
        if (signals.length == 1)
        {
            awaitUntil(condition, signals[0], what);
            return;
        }
        while (!condition.getAsBoolean())
        {
            checkCaller();
            waitingOn = ANY;
            waitingWhat = what;
            blockedOnAny = signals;
            STATE.setRelease(this, ProcessState.BLOCKED);
            blockedOn = ANY;
            for (final Signal sig : signals)
            {
                sig.addWaiter(this);
            }
            kernel.handOff(this);
            restartComputeClock();
            STATE.setRelease(this, ProcessState.RUNNING);
            for (final Signal sig : signals)
            {
                sig.removeWaiter(this);
            }
            blockedOnAny = null;
            waitingOn = null;
            waitingWhat = null;
            rethrowPending();
        }
    }

    /** Whether a signal that fires now should resume this process. */
    boolean parkedOn(final Signal s)
    {
        final Signal b = blockedOn;
        if (b == s)
        {
            return true;
        }
        if (b == ANY)
        {
            for (final Signal x : blockedOnAny)
            {
                if (x == s)
                {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Makes the process's current or next blocking call throw {@code error} (an error raised by
     * the model on behalf of this process surfaces in the call that caused it). Call from model
     * code; the process is resumed at the current time if it is blocked.
     *
     * @param error what the call throws.
     */
    public void failWith(final RuntimeException error)
    {
        pendingError = error;
        if (blockedOn != null)
        {
            blockedOn = null;
            wake();
        }
    }

    private void rethrowPending()
    {
        final Throwable e = pendingError;
        if (e != null)
        {
            pendingError = null;
            throw (RuntimeException)e;
        }
    }

    void wake()
    {
        kernel.pendingResumes++;
        kernel.schedule(origin, kernel.nowNs(), resume);
    }

    private void checkCaller()
    {
        if (thread != null ? Thread.currentThread() != thread
            : !(Thread.currentThread() instanceof CarrierThread c && c.mounted == this))
        {
            throw new QsnetException("process " + name() + " may be advanced only by its own code, not from thread "
                + Thread.currentThread().getName() + (Thread.currentThread() instanceof CarrierThread c ? " running " + c.mounted : ""));
        }
    }

    void giveTurn()
    {
        TURN.setRelease(this, true);
        if (thread != null)
        {
            LockSupport.unpark(thread);
        }
    }

    void clearTurn()
    {
        TURN.setRelease(this, false);
    }

    /** On a carrier: unwinds a process the kernel killed, at its hand-off. */
    void throwIfKilled()
    {
        if (killed)
        {
            throw new Killed();
        }
    }

    void awaitTurn()
    {
        awaitTurnQuietly();
        if (killed)
        {
            throw new Killed();
        }
    }

    private void awaitTurnQuietly()
    {
        // a process killed while it ran (a stopped run) unwinds at its next hand-off
        boolean interrupted = false;
        while (!turn && !killed)
        {
            LockSupport.park(this);
            // a process's own interrupt would make every park return at once: the thread would
            // spin on the only carrier of the virtual-thread scheduler and the run would hang
            if (Thread.interrupted())
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    void kill()
    {
        if (!state.isTerminal())
        {
            killed = true;
            state = ProcessState.KILLED;
            turn = true;
            if (thread != null)
            {
                LockSupport.unpark(thread);
            }
        }
    }

    /** Unwinds a killed process's stack; never caught by user code that catches Exception. */
    static final class Killed extends Error
    {
        private static final long serialVersionUID = 1L;

        Killed()
        {
            super("process killed by the kernel", null, false, false);
        }
    }

    @Override
    public String toString()
    {
        return name() + "@" + clockNs + "ns/" + state;
    }
}
