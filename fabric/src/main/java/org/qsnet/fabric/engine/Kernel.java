package org.qsnet.fabric.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;

import org.qsnet.fabric.QsnetException;

/**
 * The discrete-event simulation kernel of one partition.
 *
 * <p>Events are totally ordered by {@code (timeNs, origin id, origin sequence)}; the key never
 * depends on insertion order across entities, so a run is deterministic bit for bit.
 *
 * <p>Simulated processes ({@link SimProcess}) run user code under strict hand-off: at any instant
 * exactly one runs, either the driver (the thread that called {@link #run()} or
 * {@link #runUntil(long)}) or one process. The kernel has no thread of its own: whichever process
 * gives up control processes the due events itself until an event resumes a process, then hands
 * control straight to that process. A process that resumes itself (the common case of
 * {@link SimProcess#advance(long)}) therefore costs no switch at all. Processes are continuations
 * run one after the other by the kernel's {@link CarrierThread} (a switch between two is a yield
 * to the carrier's loop and a resume, about 95 ns on the reference host), or, when the JVM does
 * not export {@code jdk.internal.vm}, virtual threads (one park/unpark, about 175 ns).
 *
 * <pre>
 *   driver --run()--> dispatch events --Resume(P)--> P runs user code
 *   P.advance(d): no event before now+d?  yes: clock += d (fast path, no hand-off)
 *                                          no:  schedule Resume(P) at now+d, dispatch events
 *                                               in P's own code until a Resume pops:
 *                                               Resume(P) -> continue; Resume(Q) -> P yields to the
 *                                               carrier, which runs Q (virtual threads: unpark Q, park P)
 *   queue empty or past the limit -> control returns to the driver
 * </pre>
 *
 * <p>Why one class of about 1,300 lines: the dispatch loop, the hand-off between processes (on
 * virtual threads, or continuations on a carrier: the carrier's loop, the segment's end and the
 * unwinding of killed processes) and the driver's wait (with its stop requests: watchdog, interrupt, the end of a run a failed
 * process set) read and write the same few fields (now, the limit, the current process, the turn
 * flags, the stop flags) under a protocol that is only correct as a whole; split, that protocol
 * would be spread over classes that each see half of it.
 * The reserved events' catch-up ({@link Origin#catchUp()}) belongs to the same protocol: it runs at
 * fixed points of that loop (before an origin schedules, at the end of every run) and decides by
 * the event being dispatched or the process's clock what orders before what runs now.
 * What is not part of it lives elsewhere: the queue ({@link EventQueue}), the processes' own side
 * ({@link SimProcess}), the report's data ({@link RunReport}).
 */
public final class Kernel
{
    private final EventQueue queue = new EventQueue();
    private final Map<Integer, Origin> origins = new HashMap<>();
    private final List<SimProcess> processes = new ArrayList<>();
    private final KernelContext context;

    private long nowNs;
    private long limitNs = Long.MAX_VALUE;
    private long eventCount;
    private long traceHash = 0xcbf29ce484222325L;
    private long traceSum;
    private long tracedEvents;
    private IntPredicate traced;
    /** {@link #traced}'s answers by origin id: 0 not asked yet, 1 counted, 2 not. */
    private byte[] tracedIds = new byte[0];
    private boolean partitioned;
    /** What ends a partition's window on the carrier ({@link WindowBoundary}), or null. */
    private WindowBoundary windowBoundary;
    /** The last instant of the run or window {@link #advanceTo} processes now (a carrier may move it on). */
    private long advanceEndNs;
    /** Whether the carrier ended the last window of the current {@link #advanceTo} (its clock already set then). */
    private boolean endedByBoundary;
    /** The context class loader of {@link #advanceTo}'s caller, under which the carrier ends windows. */
    private ClassLoader driverLoader;
    /** Quiescence probes: the NIC's retries ask whether the whole run is idle ({@link QuiescenceProbe}). */
    private final QuiescenceProbes probes = new QuiescenceProbes(this);
    private long resumes;
    private long progress;
    /** Resume events in the queue ({@link #pendingResumes()}). */
    int pendingResumes;
    /** Whether the kernel dispatches events (rather than a process's code or the driver running). */
    private boolean dispatching;

    SimProcess current;
    /** The process a carrier runs next (set by the process that yields), null for the driver. */
    private SimProcess segmentNext;
    /** The carrier running this kernel's processes now, or null. */
    private volatile CarrierThread activeCarrier;
    /** The carrier this kernel keeps between segments (its suspended processes resume only there), or null. */
    private CarrierThread carrier;
    /** Processes whose continuation started and has not ended (they pin {@link #carrier}). */
    int liveContinuations;
    private java.lang.ref.WeakReference<Kernel> weakSelf;
    /** Orders a segment's end on the carrier against {@link #killAll()} by a driver that left without its turn. */
    private final Object carrierLock = new Object();
    /** Set by {@link #killAll()} while a carrier runs: that carrier unwinds the killed processes when its segment ends. */
    private boolean unwindOnCarrier;
    private Thread driver;
    private volatile boolean driverTurn;
    private volatile boolean stopRequested;
    private boolean watchdogUnanswered;
    /** Whether the driver thread was interrupted while the kernel ran (a test's timeout, a cancelled run). */
    private boolean interruptedRun;
    private Throwable abortCause;
    private boolean finished;
    /** How long after a process's failure the run ends ({@link #endRunWhenAProcessFails(long)}); -1: never. */
    private long failureEndDelayNs = -1;
    /** When the run ends because a process failed ({@link Long#MAX_VALUE}: no failure yet). */
    private long failureEndNs = Long.MAX_VALUE;
    /** Which process failed first and how (for the message of the run's end). */
    private String failureName;
    /** That process's origin id (between failures at one instant, the lower ends the run). */
    private int failureOrigin = Integer.MAX_VALUE;
    private Throwable failureCause;

    /**
     * Creates a kernel with the default context (compute time charged as zero, no watchdog).
     */
    public Kernel()
    {
        this(KernelContext.DEFAULT);
    }

    /**
     * Creates a kernel.
     *
     * @param context how compute time is charged and the wall-clock safety net.
     */
    public Kernel(final KernelContext context)
    {
        this.context = context;
    }

    /**
     * @return the configuration of this kernel.
     */
    public KernelContext context()
    {
        return context;
    }

    /**
     * @return the current simulated time: the time of the event being processed, or the clock of
     * the process that runs.
     */
    public long nowNs()
    {
        return nowNs;
    }

    /**
     * @return events processed so far.
     */
    public long eventCount()
    {
        return eventCount;
    }

    /**
     * @return events scheduled and not yet processed (cancelled ones included).
     */
    public int pendingEvents()
    {
        return queue.size();
    }

    /**
     * Whether nothing at all is pending besides the event being processed: no event queued, none
     * reserved that orders after what runs now, and this kernel is the whole run (not one partition
     * of a distributed run, whose wake-ups may come from another: there a {@link QuiescenceProbe}
     * answers). No process can then run again except through what the current event schedules.
     *
     * @return true when the run is quiescent.
     */
    public boolean quiescent()
    {
        return !partitioned && locallyQuiescent();
    }

    /**
     * Whether this kernel holds no work besides the event being processed: no event queued (other
     * partitions' probe events are not work), none reserved that orders after what runs now, and
     * (partitioned) nothing shipped in this window for another partition to run.
     */
    boolean locallyQuiescent()
    {
        if (queue.size() != probes.pendingEvents() || probes.shippedWorkPending())
        {
            return false;
        }
        // a reservation ordering before what runs now has happened (its owner takes it lazily, and
        // its work stays with its owner); one ordering after it is pending work
        for (int i = 0; i < queue.heldCount(); i++)
        {
            final Reservation r = queue.held(i);
            if (!ordersBeforeCurrent(r.timeNs, r.tie))
            {
                return false;
            }
        }
        return true;
    }

    /** See {@link QuiescenceProbes#schedule}. */
    QuiescenceProbe scheduleProbed(final Origin origin, final long timeNs, final EventHandler handler)
    {
        return probes.schedule(origin, timeNs, handler);
    }

    /**
     * Inserts another partition's probe (between windows only, as {@link #scheduleRemote}): at its
     * key this kernel ships its own answer.
     *
     * @param originId the probed event's origin.
     * @param timeNs   its time.
     * @param seq      its sequence number there.
     */
    public void scheduleRemoteProbe(final int originId, final long timeNs, final long seq)
    {
        probes.scheduleRemote(originId, timeNs, seq);
    }

    /**
     * Takes another partition's answer to one of this partition's probes (between windows only).
     *
     * @param originId  the probed event's origin.
     * @param seq       its sequence number there.
     * @param quiescent whether nothing was pending in that partition at the probe.
     * @param resumes   that partition's process resumptions so far.
     * @param progress  that partition's {@link #progressCount()}.
     * @param pendingResumes that partition's {@link #pendingResumes()}.
     * @return false when the probe is not this partition's (an answer meant for another).
     */
    public boolean probeAnswered(final int originId, final long seq, final boolean quiescent, final long resumes,
        final long progress, final int pendingResumes)
    {
        return probes.answered(originId, seq, quiescent, resumes, progress, pendingResumes);
    }

    /**
     * @return how many times a process has been resumed so far (a process that has not run
     *         since cannot have written memory).
     */
    public long resumeCount()
    {
        return resumes;
    }

    /**
     * Counts a step of the model that a waiting process may observe other than through another
     * process's code: a packet its destination accepted (the NIC counts each acknowledgement that
     * is not a refusal). A run whose retries see neither this count nor {@link #resumeCount()}
     * move for a long while, with no process due to resume, can never move again
     * ({@link QuiescenceProbe#progress()}).
     */
    public void noteProgress()
    {
        progress++;
    }

    /**
     * @return the steps counted by {@link #noteProgress()} so far.
     */
    public long progressCount()
    {
        return progress;
    }

    /**
     * @return process resumptions queued and not yet dispatched: a process computing (its clock
     *         ahead), or woken by a signal and about to run.
     */
    public int pendingResumes()
    {
        return pendingResumes;
    }

    /**
     * A hash over the key {@code (time, origin, seq)} of every event processed so far, in order.
     * Two runs of the same program, profile and seed give the same hash.
     *
     * @return the running trace hash.
     */
    public long traceHash()
    {
        return traceHash;
    }

    /**
     * An order-free digest of the model events this partition owns: the sum (mod 2^64) of a mix of
     * each event's key {@code (time, origin, seq)}. A process's resumptions are left out: they are
     * the hand-off's bookkeeping, and a partition of a distributed run must stop a process at the
     * end of its window where one JVM would let it run on (the process's own clock, and so every
     * result, is the same). The partitions of a distributed run own disjoint
     * sets of events, so the sum of their digests equals the digest of the same run in one JVM;
     * since events run in key order, equal key sets mean equal traces. Which origins this kernel
     * owns is set by {@link #traceOnly(IntPredicate)} (all by default). A reserved event taken
     * without being dispatched ({@link Origin#catchUp()}) is counted here as if dispatched, so the
     * digest does not depend on which events were reserved.
     *
     * @return the digest of the owned events processed so far.
     */
    public long traceSum()
    {
        return traceSum;
    }

    /**
     * @return the number of events counted in {@link #traceSum()}.
     */
    public long tracedEvents()
    {
        return tracedEvents;
    }

    /**
     * Counts in {@link #traceSum()} only the events of origins this partition owns (a partition
     * also runs copies of events another partition owns, such as the replicated network's).
     *
     * @param owned which origin ids this kernel owns: a function of the id alone (its answers are
     *              kept, asked once per id).
     */
    public void traceOnly(final IntPredicate owned)
    {
        this.traced = owned;
        this.tracedIds = new byte[0];
    }

    /** Whether this kernel counts {@code origin}'s events (the predicate's answers by id: 1 yes, 2 no). */
    private boolean traces(final int origin)
    {
        final byte[] known = tracedIds;
        if (origin < known.length && known[origin] != 0)
        {
            return known[origin] == 1;
        }
        final boolean t = traced.test(origin);
        if (origin >= known.length)
        {
            tracedIds = java.util.Arrays.copyOf(known, Math.max(origin + 1, 2 * known.length));
        }
        tracedIds[origin] = (byte)(t ? 1 : 2);
        return t;
    }

    /**
     * Marks this kernel as one partition of a distributed run: an empty queue with blocked
     * processes is then not a deadlock by itself (their wake-up may come from another partition),
     * and the driver of the run decides; {@link QuiescenceProbe}s are answered by every partition
     * through {@code probeExchange}.
     *
     * @param probeExchange the way to the other partitions.
     */
    public void partitioned(final ProbeExchange probeExchange)
    {
        QsnetException.require(probeExchange != null, "probeExchange", "null",
            "must be given: a partition cannot tell alone whether the run is quiescent");
        this.partitioned = true;
        probes.exchange(probeExchange);
    }

    /**
     * The end of a partition's window, as its driver does it: send the window's events, receive the
     * others', and say where the next window ends. A partitioned kernel whose processes run as
     * continuations calls it on their carrier when a window's events are done and no process is
     * due, and goes on with the next window there: the driver's thread and the carrier would
     * otherwise hand the turn to each other twice in every window in which a process runs (a park
     * and an unpark each way, microseconds on a host whose cores are shared). What it does is what
     * the driver would do after {@link #advanceTo(long)} returned, on another thread.
     */
    @FunctionalInterface
    public interface WindowBoundary
    {
        /**
         * Ends the window just run and returns the end of the next one, or a negative value to
         * give the driver its turn (the run's end, a failure, the watchdog: the driver decides).
         * Must not throw: a failure is kept for the driver.
         *
         * @return the next window's last instant, or -1.
         */
        long endWindowOnCarrier();
    }

    /**
     * Whether the driver asked this kernel to stop (the watchdog, or an interrupt of the driver's
     * thread): a {@link WindowBoundary} waiting for other partitions gives up then, so that the
     * carrier gives the driver its turn before the driver's grace second runs out.
     *
     * @return true once a stop was asked.
     */
    public boolean stopRequested()
    {
        return stopRequested;
    }

    /**
     * Lets the carrier of this partitioned kernel's processes end windows itself
     * ({@link WindowBoundary}); null to leave every window's end to the driver.
     *
     * @param boundary what ends a window, or null.
     */
    public void windowBoundary(final WindowBoundary boundary)
    {
        QsnetException.require(boundary == null || partitioned, "boundary", "a window boundary",
            "is for a partitioned kernel only (call partitioned(...) first)");
        this.windowBoundary = boundary;
    }

    /**
     * @return the time of the earliest pending event, {@link Long#MAX_VALUE} when none is pending.
     */
    public long nextEventTimeNs()
    {
        return queue.peekTimeNs();
    }

    /**
     * Inserts an event another partition scheduled, under the key it was given there. Only between
     * {@link #runUntil(long)} calls (never from an event or a process). Every event of one origin
     * must come from the partition that owns it, in sequence order, and no event of that origin may
     * be scheduled here: the queue then orders it exactly as one kernel would have.
     *
     * @param originId  the origin that scheduled it.
     * @param timeNs    its time, after now.
     * @param originSeq its sequence number at that origin.
     * @param handler   what to run.
     */
    public void scheduleRemote(final int originId, final long timeNs, final long originSeq, final EventHandler handler)
    {
        if (timeNs <= nowNs && eventCount > 0)
        {
            throw new QsnetException("remote event time " + timeNs + " ns of origin " + originId
                + " is not after now (" + nowNs + " ns): the partition's lookahead was violated");
        }
        queue.add(timeNs, originId, originSeq, handler);
    }

    /**
     * @return the process whose code is running, or null when the driver or an event runs.
     */
    public SimProcess currentProcess()
    {
        return current;
    }

    /**
     * Registers an entity that schedules events.
     *
     * @param id   unique id, at least zero; it breaks ties between events of the same time.
     * @param name name for reports.
     * @return the origin.
     */
    public Origin origin(final int id, final String name)
    {
        QsnetException.require(id >= 0, "origin id", id, "must be at least 0");
        final Origin o = new Origin(this, id, name);
        final Origin old = origins.putIfAbsent(id, o);
        if (old != null)
        {
            throw new QsnetException("origin id " + id + " is already taken by " + old.name());
        }
        return o;
    }

    /**
     * Spawns a simulated process that starts at the current simulated time.
     *
     * @param id   origin id of the process, unique among all origins.
     * @param name name for reports, e.g. {@code "rank 3"}.
     * @param body the user code.
     * @return the process.
     */
    public SimProcess spawn(final int id, final String name, final ProcessBody body)
    {
        final SimProcess p = new SimProcess(this, origin(id, name), body);
        processes.add(p);
        p.start();
        pendingResumes++;
        schedule(p.origin(), nowNs, p.resume);
        return p;
    }

    /**
     * @return every process spawned, in spawn order.
     */
    public List<SimProcess> processes()
    {
        return Collections.unmodifiableList(processes);
    }

    void schedule(final Origin origin, final long timeNs, final EventHandler handler)
    {
        if (origin.heldCount > 0)
        {
            origin.catchUp();
        }
        if (timeNs < nowNs)
        {
            throw new QsnetException("event time " + timeNs + " ns of " + origin + " is before now (" + nowNs + " ns)");
        }
        queue.add(timeNs, origin.id(), origin.nextSeq(), handler);
    }

    /**
     * Takes the key that {@link #schedule} would give an event of {@code origin} at {@code timeNs},
     * for an event another partition runs alone (it is shipped there under that key, as a
     * {@link TracedHere}, which that partition counts when it runs): the origin's sequence advances
     * as if it had been scheduled here.
     */
    long scheduleElsewhere(final Origin origin, final long timeNs)
    {
        if (origin.heldCount > 0)
        {
            origin.catchUp();
        }
        if (timeNs <= nowNs)
        {
            throw new QsnetException("event time " + timeNs + " ns of " + origin + " for another partition is not after"
                + " now (" + nowNs + " ns)");
        }
        return origin.nextSeq();
    }

    void reserve(final Origin origin, final Reservation r, final long timeNs, final EventHandler handler)
    {
        if (r.origin() != origin)
        {
            throw new QsnetException("reservation of " + r.origin() + " used by " + origin);
        }
        if (r.held)
        {
            throw new QsnetException("reservation of " + origin + " already holds an event at " + r.timeNs + " ns");
        }
        origin.catchUp();
        r.timeNs = timeNs;
        r.seq = origin.nextSeq();
        r.tie = queue.reserveTie(origin.id());
        r.handler = handler;
        r.held = true;
        origin.addHeld(r);
        queue.hold(r);
    }

    void scheduleReserved(final Reservation r)
    {
        if (ordersBeforeCurrent(r.timeNs, r.tie))
        {
            throw new QsnetException("reserved event at " + r.timeNs + " ns of " + r.origin()
                + " orders before the event running (" + nowNs + " ns): take it (Origin.catchUp) instead of scheduling it");
        }
        release(r);
        queue.addReserved(r.timeNs, r.tie, r.seq, r.handler);
    }

    private void release(final Reservation r)
    {
        r.held = false;
        r.origin().removeHeld(r);
        queue.unhold(r);
    }

    /**
     * Whether an event keyed {@code (timeNs, tie)} orders before what runs now: the event being
     * dispatched, or a process's code at its clock (after every event of its instant whose origin
     * orders before it: the fast path's rule).
     */
    boolean ordersBeforeCurrent(final long timeNs, final long tie)
    {
        if (!dispatching && current != null)
        {
            final long clock = current.clockNs;
            return timeNs < clock || timeNs == clock && (int)(tie >>> 32) < current.origin().id();
        }
        return timeNs < nowNs || timeNs == nowNs && tie < queue.polledTie;
    }

    /** The time of what runs now: a process's clock while its code runs, else the kernel's. */
    long currentTimeNs()
    {
        return !dispatching && current != null ? current.clockNs : nowNs;
    }

    /**
     * Takes {@code origin}'s reserved events in key order: those ordering before what runs now, or
     * (at the end of a run) every one due by {@code limitNs}.
     */
    void catchUp(final Origin origin, final boolean toLimit, final long limitNs)
    {
        origin.catchingUp = true;
        try
        {
            while (origin.heldCount > 0)
            {
                final Reservation r = origin.firstHeld();
                if (toLimit ? r.timeNs > limitNs : !ordersBeforeCurrent(r.timeNs, r.tie))
                {
                    break;
                }
                release(r);
                traceTaken(r.timeNs, origin.id(), r.seq);
                r.handler.onEvent(r.timeNs);
            }
        }
        finally
        {
            origin.catchingUp = false;
        }
    }

    void traceTaken(final long timeNs, final int origin, final long seq)
    {
        if (traced == null || traces(origin))
        {
            traceSum += mix(timeNs, origin, seq);
            tracedEvents++;
        }
    }

    /**
     * Runs until no event is pending. Fails with a {@link SimulationException} naming what each
     * process waits for if processes are still blocked then.
     *
     * @return the outcome of every process.
     */
    public RunReport run()
    {
        return runUntil(Long.MAX_VALUE);
    }

    /**
     * Processes every event up to and including {@code endNs}, running processes as their
     * events resume them, then returns with the clock at {@code endNs} (or at the last event if
     * the queue emptied first and {@code endNs} is unbounded). May be called again to continue.
     *
     * @param endNs the last simulated time to process.
     * @return the outcome of every process so far.
     */
    public RunReport runUntil(final long endNs)
    {
        advanceTo(endNs);
        return report();
    }

    /**
     * {@link #runUntil(long)} without the report: a partition ends a window every lookahead, and
     * the report describes every process (what each waits for) each time it is built.
     *
     * @param endNs the last simulated time to process.
     */
    public void advanceTo(final long endNs)
    {
        if (endNs < nowNs)
        {
            // the rule's text is built only when it is broken: a partition calls this every window
            QsnetException.require(false, "endNs", endNs, "must not be before now (" + nowNs + " ns)");
        }
        if (finished)
        {
            throw new QsnetException("kernel has ended"
                + (abortCause == null ? " (shut down, deadlock or watchdog)" : ": " + abortCause));
        }
        if (current != null)
        {
            throw new QsnetException("runUntil called from inside simulated process " + current.name());
        }
        limitNs = Math.min(endNs, failureEndNs);
        advanceEndNs = endNs;
        endedByBoundary = false;
        driver = Thread.currentThread();
        if (windowBoundary != null)
        {
            driverLoader = driver.getContextClassLoader();
        }
        final SimProcess next = dispatch();
        if (next != null)
        {
            driverTurn = false;
            if (Continuations.ENABLED)
            {
                current = next;
                (carrier != null ? carrier : CarrierThread.claim()).runSegment(this, next);
            }
            else
            {
                transferTo(next);
            }
            awaitDriverTurn();
        }
        // the carrier may have run more windows (WindowBoundary): the clock ends at the last one's end
        final long end = advanceEndNs;
        if (stopRequested)
        {
            // the report first: it shows the processes where the watchdog found them
            final RunReport r = snapshot();
            finished = true;
            killAll();
            if (interruptedRun)
            {
                // the caller asked for the stop: it keeps its interrupt
                Thread.currentThread().interrupt();
            }
            throw new SimulationException((interruptedRun
                ? "interrupted (the thread driving the run was interrupted: a timeout or a cancel) at simulated time "
                    + nowNs + " ns"
                : "watchdog (a wall-clock safety net, not a result): the run took more than "
                + context.watchdogNs() / 1_000_000 + " ms of host time; simulated time " + nowNs + " ns")
                + (watchdogUnanswered ? "; a process did not give control back to the kernel (it computes without"
                    + " calling the library), so the report is a snapshot and that process may still run" : ""),
                null, r);
        }
        if (abortCause != null)
        {
            finished = true;
            killAll();
            if (abortCause instanceof SimulationException se)
            {
                throw se;
            }
            throw new SimulationException("simulation aborted at " + nowNs + " ns: " + abortCause, abortCause);
        }
        if (failureEndNs != Long.MAX_VALUE && failureEndNs <= end && !partitioned)
        {
            // the end of a failed run is reached (before any deadlock: the job is over either way):
            // the processes left are killed; with none left the failure ends nothing and the run
            // goes on (acknowledgements still due)
            if (anyProcessLeft())
            {
                endFailedRun();
            }
            clearFailureEnd();
            advanceTo(end);
            return;
        }
        if (queue.isEmpty() && !partitioned)
        {
            final List<SimProcess> blocked = new ArrayList<>();
            for (final SimProcess p : processes)
            {
                if (!p.state().isTerminal())
                {
                    blocked.add(p);
                }
            }
            if (!blocked.isEmpty())
            {
                finished = true;
                final StringBuilder sb = new StringBuilder("deadlock at ").append(nowNs)
                    .append(" ns: every process is blocked and no event is pending:");
                for (final SimProcess p : blocked)
                {
                    sb.append("\n  ").append(p.name()).append(" waits for ").append(p.waitingFor());
                }
                // the report before the kill: it shows each process blocked where it was
                final RunReport r = snapshot();
                killAll();
                throw new SimulationException(sb.toString(), null, r);
            }
        }
        else if (!endedByBoundary && !queue.isEmpty() && end != Long.MAX_VALUE)
        {
            // (a carrier that ended the window set the clock before its exchange, as the driver's
            // loop did before the exchange filled the queue)
            nowNs = end;
        }
    }

    private void awaitDriverTurn()
    {
        final long watchdogNs = context.watchdogNs();
        final long start = watchdogNs > 0 ? System.nanoTime() : 0; // wall-clock: safety net only, never part of a result
        long stopAskedNs = 0;
        while (!driverTurn)
        {
            if (watchdogNs > 0 || stopRequested)
            {
                LockSupport.parkNanos(this, 100_000_000L);
            }
            else
            {
                LockSupport.park(this);
            }
            if (driverTurn)
            {
                return;
            }
            if (!stopRequested && Thread.interrupted())
            {
                // a timeout or a cancel interrupted the driver: stop at the next event, as the watchdog does
                interruptedRun = true;
                stopRequested = true;
            }
            if (!stopRequested && watchdogNs > 0 && System.nanoTime() - start > watchdogNs) // wall-clock: safety net only
            {
                // ask the kernel to stop at its next event
                stopRequested = true;
            }
            if (stopRequested)
            {
                // a process that never calls the library cannot be stopped: after a grace second
                // the driver leaves anyway
                final long now = System.nanoTime(); // wall-clock: safety net only
                if (stopAskedNs == 0)
                {
                    stopAskedNs = now;
                }
                else if (now - stopAskedNs > WATCHDOG_GRACE_NS)
                {
                    watchdogUnanswered = true;
                    return;
                }
            }
        }
    }

    /** How long the driver waits, after the watchdog fired, for the kernel to stop (host time). */
    private static final long WATCHDOG_GRACE_NS = 1_000_000_000L;

    /**
     * Makes a process that throws end the run, as {@code prun} ends a job when one of its processes
     * dies: {@code delayNs} after the failure (the process's clock when it threw), if any process
     * has not ended, the run stops, those processes are killed there, and {@link #runUntil(long)}
     * throws a {@link SimulationException} whose cause is the failure and whose report shows where
     * each process was. If every process has ended by then, the failure ends nothing: the run goes
     * on and its report holds the failure. The delay lets a partitioned run agree on the instant
     * (it must be at least the lookahead), so that the end is the same in any number of
     * partitions. Not called: a failure ends only its own process.
     *
     * @param delayNs simulated time from the failure to the end of the run, at least 0.
     */
    public void endRunWhenAProcessFails(final long delayNs)
    {
        QsnetException.require(delayNs >= 0, "delayNs", delayNs, "must be at least 0");
        failureEndDelayNs = delayNs;
    }

    /** Called by a process that has just failed, before it hands control back. */
    void processFailed(final SimProcess p)
    {
        if (failureEndDelayNs >= 0)
        {
            endRunForFailure(p.finishedAtNs() + failureEndDelayNs, p.origin().id(), p.name(), p.failure());
        }
    }

    /**
     * Ends the run at {@code endNs} for a failed process (here or, in a partitioned run, in
     * another partition); the earliest end wins, and between failures at one instant the process
     * of the lower origin id (the earlier rank): any partitioning learns them in its own order and
     * picks the same.
     *
     * @param endNs   when the run ends, not before now.
     * @param origin  the failed process's origin id.
     * @param who     its name.
     * @param failure what it threw (its text is used when it comes from another partition).
     */
    public void endRunForFailure(final long endNs, final int origin, final String who, final Throwable failure)
    {
        if (endNs < nowNs)
        {
            QsnetException.require(false, "endNs", endNs, "must not be before now (" + nowNs + " ns)");
        }
        if (endNs < failureEndNs || endNs == failureEndNs && origin < failureOrigin)
        {
            failureEndNs = endNs;
            failureOrigin = origin;
            failureName = who;
            failureCause = failure;
            limitNs = Math.min(limitNs, endNs);
        }
    }

    /**
     * @return the origin id of the failed process that ends the run, or {@link Integer#MAX_VALUE}.
     */
    public int failureOrigin()
    {
        return failureOrigin;
    }

    /**
     * @return the delay set by {@link #endRunWhenAProcessFails(long)}, or -1.
     */
    public long failureEndDelayNs()
    {
        return failureEndDelayNs;
    }

    /**
     * @return the name of the failed process that ends the run, or null.
     */
    public String failureName()
    {
        return failureName;
    }

    /**
     * @return what that process threw (from another partition: its text), or null.
     */
    public Throwable failureCause()
    {
        return failureCause;
    }

    /**
     * @return when the run ends because a process failed, or {@link Long#MAX_VALUE}.
     */
    public long failureEndNs()
    {
        return failureEndNs;
    }

    /**
     * @return whether a process of this kernel has not ended (it would be killed at the end of a
     * failed run).
     */
    public boolean anyProcessLeft()
    {
        for (final SimProcess p : processes)
        {
            if (!p.state().isTerminal())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Forgets the failure whose end was reached with no process left (it ended nothing): a later
     * failure sets its own end. Every partition of a run calls it at the same window.
     */
    public void clearFailureEnd()
    {
        failureEndNs = Long.MAX_VALUE;
        failureOrigin = Integer.MAX_VALUE;
        failureName = null;
        failureCause = null;
    }

    /**
     * Ends a run at {@link #failureEndNs()}, which it has reached with processes left (here or, for
     * a partition, in any partition): the clock stops there, the processes left are killed and the
     * run fails naming the failure.
     *
     * @throws SimulationException always: the run's end, with where each process was.
     */
    public void endFailedRun()
    {
        nowNs = Math.max(nowNs, failureEndNs);
        // the report before the kill: it shows each process where the end found it
        final RunReport r = snapshot();
        finished = true;
        killAll();
        throw new SimulationException("the run was ended at " + failureEndNs + " ns, " + failureEndDelayNs + " ns after "
            + failureName + " failed (a failed process ends its job, as prun ends one when a process dies): the processes"
            + " still running or blocked were killed", failureCause, r);
    }

    /**
     * Ends the run for good: every process that has not finished is killed (its stack unwinds,
     * its state becomes {@link ProcessState#KILLED}) and the kernel cannot run again. For a
     * launcher that stops a job at a limit after {@link #runUntil(long)}; take a
     * {@link #snapshot()} first to see where each process was.
     */
    public void shutdown()
    {
        QsnetException.require(current == null, "shutdown", "from " + current, "must be called by the driver, not a process");
        finished = true;
        killAll();
    }

    /**
     * @return the outcome of every process so far (without stacks: cheap enough for every
     * {@link #runUntil(long)}).
     */
    public RunReport report()
    {
        return report(false);
    }

    /**
     * The outcome of every process so far with, for each unfinished one, where its code is (its
     * stack): for the report of a run that stopped (a deadlock, a limit, the watchdog). Call from
     * the driver.
     *
     * @return the report.
     */
    public RunReport snapshot()
    {
        return report(true);
    }

    private RunReport report(final boolean stacks)
    {
        final List<RunReport.Outcome> outcomes = new ArrayList<>(processes.size());
        for (final SimProcess p : processes)
        {
            outcomes.add(new RunReport.Outcome(p.name(), p.state(), p.finishedAtNs(), p.failure(), p.waitingFor(), p.nowNs(),
                stacks ? p.stackTrace() : List.of()));
        }
        return new RunReport(nowNs, eventCount, traceHash, outcomes);
    }

    /**
     * Processes due events on the calling thread until one resumes a process.
     *
     * @return the process to resume, or null when no event is due before the limit.
     */
    SimProcess dispatch()
    {
        dispatching = true;
        try
        {
            return dispatchEvents();
        }
        finally
        {
            dispatching = false;
        }
    }

    private SimProcess dispatchEvents()
    {
        final EventQueue q = queue;
        while (abortCause == null && !stopRequested && !q.isEmpty() && q.peekTimeNs() <= limitNs)
        {
            final EventHandler handler = q.poll();
            if (handler instanceof Event c && c.isCancelled())
            {
                continue;
            }
            final long timeNs = q.polledTimeNs;
            nowNs = timeNs;
            eventCount++;
            long h = traceHash;
            h = (h ^ timeNs) * 0x100000001b3L;
            h = (h ^ q.polledOrigin) * 0x100000001b3L;
            h = (h ^ q.polledSeq) * 0x100000001b3L;
            traceHash = h;
            final int origin = q.polledOrigin;
            // a process's resumption is hand-off bookkeeping, not a model event: a partition of a
            // distributed run resumes a process at its window's end where one JVM would let it run on
            if (!(handler instanceof SimProcess.Resume)
                && (traced == null || traces(origin) || handler instanceof TracedHere))
            {
                traceSum += mix(timeNs, origin, q.polledSeq);
                tracedEvents++;
            }
            if (handler instanceof SimProcess.Resume r)
            {
                r.process.clockNs = timeNs;
                resumes++;
                pendingResumes--;
                return r.process;
            }
            try
            {
                handler.onEvent(timeNs);
            }
            catch (final Throwable t)
            {
                abortCause = new SimulationException("event " + q.polledSeq + " of origin " + q.polledOrigin + " at " + timeNs
                    + " ns failed: " + t, t);
            }
        }
        if (abortCause == null && !stopRequested && queue.heldCount() > 0)
        {
            endOfRunCatchUp();
        }
        return null;
    }

    /**
     * Nothing else is due by the limit: every reserved event due by then is taken, as it would have
     * run. Origin by origin (each in key order): what one origin's reserved events change, no other
     * origin's read. They must not schedule anything due by the limit (their owners reserve only
     * events whose work stays with them).
     */
    private void endOfRunCatchUp()
    {
        try
        {
            // a scan of the held reservations' times (side by side in the queue), not a visit of
            // every origin that ever reserved: a partition ends a window every lookahead
            // the scan goes on where it found one: taking an origin's due reservations moves the
            // last held one into their slots and appends the next ones, and leaves the slots before
            // alone (none of them was due); a last scan from the start makes sure
            int at = 0;
            while ((at = queue.dueHeldFrom(limitNs, at)) >= 0)
            {
                catchUp(queue.held(at).origin(), true, limitNs);
            }
            Reservation due;
            while ((due = queue.dueHeld(limitNs)) != null)
            {
                catchUp(due.origin(), true, limitNs);
            }
            if (!queue.isEmpty() && queue.peekTimeNs() <= limitNs)
            {
                abortCause = new SimulationException("a reserved event taken at the end of a run scheduled an event due by "
                    + limitNs + " ns: its work was not its owner's alone", null);
            }
        }
        catch (final Throwable t)
        {
            abortCause = new SimulationException("a reserved event due by " + limitNs + " ns failed: " + t, t);
        }
    }

    /**
     * Gives control to {@code next}, or to the driver when {@code next} is null. The caller must
     * have cleared its own turn flag first.
     */
    void transferTo(final SimProcess next)
    {
        if (next != null)
        {
            current = next;
            next.giveTurn();
        }
        else
        {
            current = null;
            driverTurn = true;
            LockSupport.unpark(driver);
        }
    }

    /**
     * Called by a process thread that arranged its own resumption (or blocked): runs the kernel
     * until some process is due, and returns when this process's turn comes again.
     */
    void handOff(final SimProcess me)
    {
        if (Continuations.ENABLED)
        {
            handOffOnCarrier(me);
            return;
        }
        final SimProcess next = dispatch();
        if (next == me)
        {
            current = me;
            return;
        }
        me.clearTurn();
        transferTo(next);
        me.awaitTurn();
        current = me;
    }

    /**
     * {@link #handOff} for a process that runs as a continuation: the kernel's work on the
     * carrier, then a yield to {@link #carrierLoop}, which runs the next process on the same thread.
     */
    private void handOffOnCarrier(final SimProcess me)
    {
        me.throwIfKilled();
        final SimProcess next = dispatch();
        if (next == me)
        {
            current = me;
            return;
        }
        segmentNext = next;
        try
        {
            Continuations.yieldNow();
        }
        catch (final IllegalStateException pinned)
        {
            // the next process's resumption is taken: the run cannot go on
            final SimulationException e = new SimulationException("process " + me.name() + " gave control to the kernel"
                + " where the JVM cannot suspend it (" + pinned.getMessage() + "): in a class's static initialiser, under"
                + " a native frame, or (JDK 21-23) inside a synchronized block. Call the library outside these (on"
                + " virtual threads, -Dqsnet.carrier=virtual, such a process would hang the run instead)", pinned);
            if (abortCause == null)
            {
                abortCause = e;
            }
            segmentNext = null;
            throw e;
        }
        me.throwIfKilled();
        current = me;
    }

    /**
     * What a process's code does last: the kernel's work until another process must run (or the
     * driver), then the process's thread or continuation ends.
     */
    void processEnded()
    {
        if (Continuations.ENABLED)
        {
            segmentNext = dispatch();
        }
        else
        {
            transferTo(dispatch());
        }
    }

    /**
     * The loop of a {@link CarrierThread}: runs processes one after the other, each until it hands
     * off or ends, for as long as a process is due; then gives the driver its turn.
     */
    void carrierLoop(final CarrierThread carrier, final SimProcess first)
    {
        activeCarrier = carrier;
        try
        {
            SimProcess p = first;
            while (p != null)
            {
                current = p;
                segmentNext = null;
                runMounted(carrier, p);
                p = segmentNext;
                if (p == null && windowBoundary != null)
                {
                    p = nextWindowsOnCarrier(carrier);
                }
            }
        }
        catch (final Throwable t)
        {
            if (abortCause == null)
            {
                abortCause = new SimulationException("the carrier of the simulated processes failed: " + t, t);
            }
        }
        finally
        {
            carrier.mounted = null;
            current = null;
            final boolean unwind;
            synchronized (carrierLock)
            {
                unwind = unwindOnCarrier;
                unwindOnCarrier = false;
                if (!unwind)
                {
                    endSegment(carrier);
                }
            }
            if (unwind)
            {
                // the driver left while this carrier ran a process (the watchdog's grace second ran
                // out) and killed every process: the suspended ones unwind here, on their thread
                for (final SimProcess p : processes)
                {
                    if (p.suspendedOnCarrier())
                    {
                        runMounted(carrier, p);
                    }
                }
                carrier.mounted = null;
                synchronized (carrierLock)
                {
                    endSegment(carrier);
                }
            }
            carrier.release();
            driverTurn = true;
            LockSupport.unpark(driver);
        }
    }

    /**
     * A partition's windows on the carrier ({@link WindowBoundary}): the window's end as
     * {@link #advanceTo} has it (the clock at the window's last instant while events are pending),
     * the exchange, then the next window's events, until a process is due (returned) or the boundary
     * gives the driver its turn (null).
     */
    private SimProcess nextWindowsOnCarrier(final CarrierThread carrier)
    {
        current = null;
        carrier.mounted = null;
        // the exchange runs under the driver's class loader, as on the driver's thread (never a rank's)
        carrier.setContextClassLoader(driverLoader);
        final WindowBoundary boundary = windowBoundary;
        while (abortCause == null && !stopRequested && !finished)
        {
            if (!queue.isEmpty())
            {
                nowNs = advanceEndNs;
            }
            final long end = boundary.endWindowOnCarrier();
            if (end < 0)
            {
                endedByBoundary = true;
                return null;
            }
            if (end < nowNs)
            {
                abortCause = new SimulationException("a window's end " + end + " ns is before now (" + nowNs + " ns)", null);
                return null;
            }
            advanceEndNs = end;
            limitNs = Math.min(end, failureEndNs);
            final SimProcess next = dispatch();
            if (next != null)
            {
                return next;
            }
        }
        return null;
    }

    /** The end of a carrier's segment (under {@link #carrierLock}): the kernel keeps it while a process is suspended. */
    private void endSegment(final CarrierThread carrier)
    {
        activeCarrier = null;
        // a suspended process resumes only on the thread it was suspended on
        if (liveContinuations > 0)
        {
            if (weakSelf == null)
            {
                weakSelf = new java.lang.ref.WeakReference<>(this);
            }
            carrier.keptBy = weakSelf;
            this.carrier = carrier;
        }
        else
        {
            carrier.keptBy = null;
            this.carrier = null;
        }
    }

    /**
     * Runs {@code p} on {@code carrier} until it hands off or ends, with what a thread of its own
     * would have kept for it: its context class loader and its interrupt status (set by its own
     * code, e.g. the "restore the interrupt" idiom; left on the carrier it would reach the next
     * process, and make the carrier's own wait for work return at once).
     */
    private static void runMounted(final CarrierThread carrier, final SimProcess p)
    {
        carrier.mounted = p;
        if (carrier.getContextClassLoader() != p.contextClassLoader)
        {
            carrier.setContextClassLoader(p.contextClassLoader);
        }
        if (p.interrupted)
        {
            p.interrupted = false;
            carrier.interrupt();
        }
        try
        {
            p.runOnCarrier();
        }
        finally
        {
            p.contextClassLoader = carrier.getContextClassLoader();
            p.interrupted = Thread.interrupted();
        }
    }

    /** The carrier that runs {@code p} now, or null when it is suspended (or not a continuation). */
    CarrierThread carrierOf(final SimProcess p)
    {
        final CarrierThread c = activeCarrier;
        return c != null && c.mounted == p ? c : null;
    }

    /** A 64-bit mix of an event key (SplitMix64 finaliser over its three fields). */
    private static long mix(final long timeNs, final int origin, final long seq)
    {
        long z = timeNs * 0x9E3779B97F4A7C15L + ((long)origin << 40 ^ seq) * 0xC2B2AE3D27D4EB4FL;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    boolean fastPathAllowed(final long newClockNs, final int origin)
    {
        // a stop (watchdog, interrupt) must reach a process that polls with nothing pending too;
        // an event due at the same instant runs first when its origin orders before the process's
        // (the (time, origin, originSeq) order: the resumption the process skips has its origin)
        final long next = queue.peekTimeNs();
        return (next > newClockNs || next == newClockNs && queue.peekOrigin() > origin) && newClockNs <= limitNs
            && !stopRequested;
    }

    /** For tests: the queue's next rank, to exercise its renumbering with reservations held. */
    void setNextRankForTest(final long rank)
    {
        queue.setNextRankForTest(rank);
    }

    void setNow(final long timeNs)
    {
        nowNs = timeNs;
    }

    private void killAll()
    {
        synchronized (carrierLock)
        {
            if (activeCarrier != null)
            {
                // the driver left without its turn (a process computes without calling the library):
                // the carrier unwinds the suspended processes when that process gives control back
                for (final SimProcess p : processes)
                {
                    p.kill();
                }
                unwindOnCarrier = true;
                return;
            }
        }
        // no carrier runs, and none will: the driver alone starts one, and the run has ended
        List<SimProcess> unwind = null;
        for (final SimProcess p : processes)
        {
            final boolean suspended = p.suspendedOnCarrier() && !p.state().isTerminal();
            p.kill();
            if (suspended)
            {
                if (unwind == null)
                {
                    unwind = new ArrayList<>();
                }
                unwind.add(p);
            }
        }
        final CarrierThread kept = carrier;
        if (unwind != null && kept != null)
        {
            // as a killed virtual thread does: each suspended process unwinds (its finally blocks
            // run) after the run has ended, on the thread it was suspended on
            final List<SimProcess> killed = unwind;
            carrier = null;
            kept.runTask(() ->
            {
                for (final SimProcess p : killed)
                {
                    runMounted(kept, p);
                }
                kept.mounted = null;
                kept.release();
                kept.keptBy = null;
            });
        }
    }
}
