package org.qsnet.fabric.distributed;

import java.nio.ByteBuffer;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.engine.SimProcess;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.network.RemoteCircuits;
import org.qsnet.fabric.network.WireBuffer;
import org.qsnet.fabric.transport.FrameDescriptor;
import org.qsnet.fabric.transport.Transport;

/**
 * Runs one partition of a distributed simulation in conservative synchronous windows:
 * <pre>
 *   T = the earliest pending event of every partition (agreed by all)
 *   loop: run every local event in [T, T + lookahead)         (lookahead = the node link's wire)
 *         send the window's shipped events to every other partition, then a WINDOW frame
 *           carrying a lower bound of this partition's next event
 *         receive every other partition's events of the window and its WINDOW frame
 *         combine the window's broadcast acknowledgements (RemoteCircuits.endWindow)
 *         T = the least bound any partition sent; stop when none has an event (T = infinity)
 * </pre>
 * An event shipped in a window lies at least the lookahead past its scheduling, so it is never
 * before the next window; events run in each partition in the order of their keys, so the union
 * of the partitions' runs is the run in one JVM, event for event. When nothing happens for a while
 * (long compute phases, idle links) the next window starts at the next event anywhere: idle
 * simulated time costs one exchange, not one per lookahead.
 */
public final class PartitionDriver
{
    /** Frame type: a chunk of a window's shipped events. */
    public static final int TYPE_EVENTS = FrameDescriptor.MIN_APPLICATION_TYPE;
    /**
     * Frame type: the end of a partition's window, with its (last) events; time = a lower bound of
     * its next event.
     */
    public static final int TYPE_WINDOW = FrameDescriptor.MIN_APPLICATION_TYPE + 1;
    /** Frame type: a partition's vote in {@link #allAgree(boolean)}; time = 1 for yes. */
    public static final int TYPE_VOTE = FrameDescriptor.MIN_APPLICATION_TYPE + 3;
    /** Frame type: a partition's result for the coordinator (partition 0), see {@link #gather}. */
    public static final int TYPE_RESULT = FrameDescriptor.MIN_APPLICATION_TYPE + 4;
    /** Frame type: the sending partition failed; the payload is its reason (UTF-8). */
    public static final int TYPE_ABORT = FrameDescriptor.MIN_APPLICATION_TYPE + 2;
    /**
     * Frame type: a process of the sending partition failed, which ends the run; time = when the
     * run ends ({@link Kernel#endRunForFailure}), key = the process's origin id, payload = its name, a newline and its
     * failure (UTF-8). Sent before the WINDOW frame of the window in which it failed.
     */
    public static final int TYPE_FAILURE = FrameDescriptor.MIN_APPLICATION_TYPE + 5;

    private final Kernel kernel;
    private final RemoteCircuits remote;
    private final Transport transport;
    private final int self;
    private final int count;
    /** Per window parity and peer: its events of that window (a peer may be one window ahead). */
    private final WireBuffer[][] inbound;
    private final long[][] peerNext;
    /** Per peer: WINDOW frames received, i.e. the window its next frames belong to. */
    private final long[] peerWindow;
    private long windows;
    private long currentWindow;
    private final org.qsnet.fabric.transport.FrameHandler handler = this::onFrame;

    /**
     * @param kernel    this partition's kernel.
     * @param remote    this partition's fabric's remote side ({@code fabric.remote()}).
     * @param transport this partition's endpoint of the job's transport.
     */
    public PartitionDriver(final Kernel kernel, final RemoteCircuits remote, final Transport transport)
    {
        QsnetException.require(transport.partitionCount() == remote.partitioning().count(), "transport partitions",
            transport.partitionCount(), "must equal the fabric's partition count (" + remote.partitioning().count() + ")");
        QsnetException.require(transport.partition() == remote.partitioning().self(), "transport partition",
            transport.partition(), "must equal the fabric's partition (" + remote.partitioning().self() + ")");
        this.kernel = kernel;
        this.remote = remote;
        this.transport = transport;
        this.self = transport.partition();
        this.count = transport.partitionCount();
        this.inbound = new WireBuffer[2][count];
        for (int i = 0; i < count; i++)
        {
            inbound[0][i] = new WireBuffer(1 << 12);
            inbound[1][i] = new WireBuffer(1 << 12);
        }
        this.peerNext = new long[2][count];
        this.peerWindow = new long[count];
    }

    /**
     * Whether the run failed in every partition alike (a deadlock, or the end after a failed
     * process, found by every partition at the same window): no partition need tell the others.
     */
    private boolean endedAlike;
    private long dispatchNs;
    private long exchangeNs;
    /** The end of a failed run (and the failed process) every partition knows of ({@link Long#MAX_VALUE}: none). */
    private long announcedFailureEndNs = Long.MAX_VALUE;
    private int announcedFailureOrigin = Integer.MAX_VALUE;

    /**
     * @return windows run so far.
     */
    public long windows()
    {
        return windows;
    }

    /**
     * @return of {@link #windows()}, those whose end the carrier of this partition's processes ran
     * (between windows in which a process ran the driver's thread then waits; 0 with
     * {@code -Dqsnet.windowsOnCarrier=false}, when processes run as virtual threads, or when none runs here).
     */
    public long windowsEndedOnCarrier()
    {
        return carrierWindows;
    }

    /**
     * Host time (wall clock, for performance reports only: it never enters a result) this partition
     * spent running its windows' events, so far.
     *
     * @return ns.
     */
    public long dispatchNs()
    {
        return dispatchNs;
    }

    /**
     * Host time this partition spent between its windows: sending its events, waiting for every
     * other partition's, receiving them (the same caveat as {@link #dispatchNs()}).
     *
     * @return ns.
     */
    public long exchangeNs()
    {
        return exchangeNs;
    }

    /**
     * Runs until no partition has an event pending or the next one is after {@code endNs}; every
     * partition of the job must call it with the same {@code endNs}.
     *
     * @param endNs the last simulated time to run ({@link Long#MAX_VALUE}: until quiescence).
     * @return this partition's report.
     * @throws SimulationException when every partition is idle and processes of this one still
     * wait (a deadlock of the whole job), naming them.
     */
    public RunReport run(final long endNs)
    {
        try
        {
            return runWindows(endNs);
        }
        catch (final PeerFailed e)
        {
            throw e.failure;
        }
        catch (final RuntimeException | Error e)
        {
            if (!endedAlike)
            {
                // a deadlock is found by every partition at the same window, each naming its own
                // processes; an abort would race with the others' last frames and hide them
                abortPeers(e);
            }
            throw e;
        }
    }

    /** Tells every open peer that this partition failed, so that none waits for it forever. */
    private void abortPeers(final Throwable e)
    {
        final ByteBuffer reason = ByteBuffer.wrap(String.valueOf(e).getBytes(java.nio.charset.StandardCharsets.UTF_8),
            0, Math.min(4096, String.valueOf(e).getBytes(java.nio.charset.StandardCharsets.UTF_8).length));
        for (int peer = 0; peer < count; peer++)
        {
            if (peer != self)
            {
                try
                {
                    if (transport.isPeerOpen(peer))
                    {
                        transport.offer(peer, TYPE_ABORT, kernel.nowNs(), 0, reason);
                    }
                }
                catch (final RuntimeException ignored)
                {
                    // the peer is gone already; nothing else to tell it
                }
            }
        }
    }

    /** A peer's abort, carried out of the frame handler. */
    private static final class PeerFailed extends RuntimeException
    {
        final SimulationException failure;

        PeerFailed(final SimulationException failure)
        {
            super(failure.getMessage(), null, false, false);
            this.failure = failure;
        }
    }

    /**
     * Whether the carrier of the partition's processes ends windows itself ({@link Kernel.WindowBoundary});
     * {@code -Dqsnet.windowsOnCarrier=false} (read when the driver is made) leaves every window's end
     * to the driver's thread, for comparison: the results are the same either way.
     */
    private final boolean windowsOnCarrier = !"false".equalsIgnoreCase(System.getProperty("qsnet.windowsOnCarrier"));
    /** Windows the carrier ended ({@link #endWindowOnCarrier}). */
    private long carrierWindows;

    // the state of a run's windows, shared by the driver's thread and the carrier ({@link #endWindowOnCarrier})
    /** The run's last instant. */
    private long runEndNs;
    /** Where the next window starts (the least bound of every partition), {@link Long#MAX_VALUE}: none. */
    private long nextWindowNs;
    private long lookaheadNs;
    private long watchdogNs;
    private long startedNs;
    /** Whether the carrier already ended the last window run under the driver's {@code advanceTo}. */
    private boolean endedOnCarrier;
    /** Host time the carrier spent in exchanges during the driver's {@code advanceTo} (reports only). */
    private long carrierExchangeNs;
    /** What failed on the carrier while it ended a window, for the driver to throw. */
    private Throwable carrierFailure;

    private RunReport runWindows(final long endNs)
    {
        carrierFailure = null;
        // a single partition's kernel is not partitioned (nothing to exchange with)
        if (windowsOnCarrier && remote.partitioning().isDistributed())
        {
            kernel.windowBoundary(this::endWindowOnCarrier);
        }
        try
        {
            return runWindowsOn(endNs);
        }
        finally
        {
            kernel.windowBoundary(null);
        }
    }

    /** Whether the window that starts at {@link #nextWindowNs} is to run. */
    private boolean windowDue()
    {
        return nextWindowNs != Long.MAX_VALUE && nextWindowNs <= Math.min(runEndNs, kernel.failureEndNs());
    }

    /** The last instant of the window that starts at {@link #nextWindowNs}. */
    private long windowEnd()
    {
        return Math.min(Math.min(runEndNs, kernel.failureEndNs()), nextWindowNs + lookaheadNs - 1);
    }

    private boolean watchdogExpired()
    {
        return watchdogNs > 0 && System.nanoTime() - startedNs > watchdogNs; // wall-clock: safety net only
    }

    /** The end of a window: its events out, the others' in, and where the next one starts. */
    private void endWindow()
    {
        windows++;
        nextWindowNs = exchange(Math.min(kernel.nextEventTimeNs(), remote.nextShippedBoundNs()));
    }

    /**
     * {@link Kernel.WindowBoundary} on the carrier: the window's end as the driver's loop does it,
     * and the next window's end while that loop would go on; -1 where it would stop or decide (the
     * run's end, a failed process's end of the run, the watchdog, a failure of the exchange).
     */
    private long endWindowOnCarrier()
    {
        try
        {
            final long start = System.nanoTime(); // wall-clock: host-time report only
            carrierWindows++;
            endWindow();
            carrierExchangeNs += System.nanoTime() - start; // wall-clock: host-time report only
            if (!windowDue() || watchdogExpired())
            {
                endedOnCarrier = true;
                return -1;
            }
            return windowEnd();
        }
        catch (final Throwable e)
        {
            carrierFailure = e;
            endedOnCarrier = true;
            return -1;
        }
    }

    private RunReport runWindowsOn(final long endNs)
    {
        final long failureDelay = kernel.failureEndDelayNs();
        if (failureDelay >= remote.minLookaheadNs())
        {
            // every partition ends a failed run at the same instant only if it lies past the window
            remote.capLookahead(failureDelay);
        }
        lookaheadNs = remote.lookaheadNs();
        watchdogNs = kernel.context().watchdogNs();
        startedNs = watchdogNs > 0 ? System.nanoTime() : 0; // wall-clock: safety net only, never part of a result
        runEndNs = endNs;
        if (failureDelay >= 0 && failureDelay < lookaheadNs)
        {
            throw new QsnetException("the run's end after a failed process (" + failureDelay + " ns) must be at least the"
                + " lookahead (" + lookaheadNs + " ns): the partitions could not all end it at the same instant");
        }
        nextWindowNs = exchange(kernel.nextEventTimeNs());
        while (true)
        {
            while (windowDue())
            {
                if (watchdogExpired())
                {
                    final RunReport r = kernel.snapshot();
                    kernel.shutdown();
                    throw new SimulationException("watchdog (a wall-clock safety net, not a result): the run took more"
                        + " than " + watchdogNs / 1_000_000 + " ms of host time; simulated time " + kernel.nowNs() + " ns",
                        null, r);
                }
                // host time split, for the performance table only (never part of a result)
                final long dispatchStart = System.nanoTime(); // wall-clock: host-time report only
                endedOnCarrier = false;
                carrierExchangeNs = 0;
                // a window in which a process runs goes on on its carrier, window after window, until
                // the carrier gives the turn back (endWindowOnCarrier): then that window has ended
                kernel.advanceTo(windowEnd());
                if (carrierFailure != null)
                {
                    final Throwable e = carrierFailure;
                    carrierFailure = null;
                    if (e instanceof RuntimeException re)
                    {
                        throw re;
                    }
                    if (e instanceof Error er)
                    {
                        throw er;
                    }
                    throw new SimulationException("a window's end on the carrier failed: " + e, e);
                }
                final long exchangeStart = System.nanoTime(); // wall-clock: host-time report only
                if (!endedOnCarrier)
                {
                    endWindow();
                }
                dispatchNs += exchangeStart - dispatchStart - carrierExchangeNs;
                exchangeNs += System.nanoTime() - exchangeStart + carrierExchangeNs; // wall-clock: host-time report only
            }
            final long failureEnd = kernel.failureEndNs();
            if (failureEnd == Long.MAX_VALUE || failureEnd > endNs)
            {
                break;
            }
            // as in one JVM: at the end of a failed run the processes left anywhere are killed; with
            // none left the failure ends nothing and the run goes on. Every partition decides alike.
            if (!allAgree(!kernel.anyProcessLeft()))
            {
                endedAlike = true;
                kernel.endFailedRun();
            }
            kernel.clearFailureEnd();
            announcedFailureEndNs = Long.MAX_VALUE;
            announcedFailureOrigin = Integer.MAX_VALUE;
        }
        if (nextWindowNs == Long.MAX_VALUE)
        {
            final StringBuilder sb = new StringBuilder();
            for (final SimProcess p : kernel.processes())
            {
                if (!p.state().isTerminal())
                {
                    sb.append("\n  ").append(p.name()).append(" waits for ").append(p.waitingFor());
                }
            }
            if (sb.length() > 0)
            {
                final RunReport r = kernel.snapshot();
                kernel.shutdown();
                endedAlike = true;
                throw new SimulationException("deadlock at " + kernel.nowNs() + " ns: no partition of the job has an event"
                    + " pending and processes are blocked\n in partition " + self + ":" + sb, null, r);
            }
        }
        else if (endNs != Long.MAX_VALUE && kernel.nowNs() < endNs)
        {
            // past the last window: nothing is left to exchange
            kernel.windowBoundary(null);
            kernel.runUntil(endNs);
        }
        return kernel.report();
    }

    /**
     * Sends this window's events and a bound of this partition's next event, receives every other
     * partition's, and returns the least bound.
     */
    private long exchange(final long ownBound)
    {
        final long window = currentWindow++;
        final ByteBuffer out = remote.outbox();
        final int max = transport.maxPayloadBytes();
        final int total = out.limit();
        final long failureEnd = kernel.failureEndNs();
        ByteBuffer failure = null;
        if (failureEnd != announcedFailureEndNs || kernel.failureOrigin() != announcedFailureOrigin)
        {
            // a process of this partition failed in the window: every partition ends the run then
            announcedFailureEndNs = failureEnd;
            announcedFailureOrigin = kernel.failureOrigin();
            final byte[] b = (kernel.failureName() + "\n" + kernel.failureCause())
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            failure = ByteBuffer.wrap(b, 0, Math.min(b.length, Math.min(max, 4096)));
        }
        for (int peer = 0; peer < count; peer++)
        {
            if (peer == self)
            {
                continue;
            }
            if (failure != null)
            {
                sendPolling(peer, TYPE_FAILURE, failureEnd, kernel.failureOrigin(), failure.duplicate());
            }
            // the window's events ride in its WINDOW frame; only what exceeds one frame goes before it
            int from = 0;
            while (total - from > max)
            {
                final ByteBuffer chunk = out.duplicate();
                chunk.position(from).limit(from + max);
                sendPolling(peer, TYPE_EVENTS, window, chunk);
                from += max;
            }
            final ByteBuffer last = out.duplicate();
            last.position(from).limit(total);
            sendPolling(peer, TYPE_WINDOW, ownBound, last);
        }
        remote.clearOutbox();
        while (!allPeersEnded(window))
        {
            if (transport.poll(handler, 64) == 0)
            {
                if (kernel.stopRequested())
                {
                    // the watchdog or an interrupt of the driver while the carrier waits here for a
                    // slow peer: give up the window, so that the carrier gives the driver its turn
                    // (which reports the stop) instead of polling on while the driver leaves
                    throw new SimulationException("stopped while waiting for the other partitions' window " + window
                        + " (the watchdog or an interrupt)", null);
                }
                transport.awaitFrames(1_000_000L);
            }
        }
        final int slot = (int)(window & 1);
        long least = ownBound;
        for (int peer = 0; peer < count; peer++)
        {
            if (peer != self)
            {
                final WireBuffer b = inbound[slot][peer];
                if (b.position() > 0)
                {
                    remote.receive(b.flip());
                    b.clear();
                }
                least = Math.min(least, peerNext[slot][peer]);
            }
        }
        // the window's broadcast acknowledgements are scheduled now, by every partition alike; the
        // bounds every partition sent cover them, so all agree on the next window without asking
        remote.endWindow();
        return least;
    }

    /**
     * Whether every partition says yes (between runs; every partition must call it at the same
     * point): for a decision all must take alike, such as whether a job stopped at a limit ended.
     *
     * @param mine this partition's answer.
     * @return true if every partition answered true.
     */
    public boolean allAgree(final boolean mine)
    {
        try
        {
            for (int peer = 0; peer < count; peer++)
            {
                if (peer != self)
                {
                    sendPolling(peer, TYPE_VOTE, mine ? 1 : 0, ByteBuffer.allocate(0));
                }
            }
            while (votes < count - 1)
            {
                if (transport.poll(handler, 64) == 0)
                {
                    transport.awaitFrames(1_000_000L);
                }
            }
            votes = 0;
            final boolean all = mine && noVotes == 0;
            noVotes = 0;
            return all;
        }
        catch (final PeerFailed e)
        {
            throw e.failure;
        }
    }

    private int votes;
    private int noVotes;
    private byte[][] results;

    /**
     * Sends this partition's result to the coordinator (partition 0), which returns everyone's:
     * the job's results are written by one process, none lost. Every partition calls it once,
     * after its run.
     *
     * @param mine this partition's result (at most the transport's frame payload).
     * @return at partition 0, every partition's result by partition (its own included); elsewhere null.
     */
    public byte[][] gather(final byte[] mine)
    {
        try
        {
            if (self != 0)
            {
                sendPolling(0, TYPE_RESULT, 0, ByteBuffer.wrap(mine));
                return null;
            }
            if (results == null)
            {
                results = new byte[count][];
            }
            results[0] = mine;
            while (true)
            {
                int missing = 0;
                for (final byte[] r : results)
                {
                    missing += r == null ? 1 : 0;
                }
                if (missing == 0)
                {
                    break;
                }
                if (transport.poll(handler, 64) == 0)
                {
                    transport.awaitFrames(1_000_000L);
                }
            }
            final byte[][] all = results;
            results = null;
            return all;
        }
        catch (final PeerFailed e)
        {
            throw e.failure;
        }
    }

    /**
     * Like {@link #gather}, but every partition gets every partition's result: partition 0 gathers
     * them and sends them all back, so that every JVM of a job goes on from the same figures (an
     * experiment whose next run depends on the last one's results takes the same path in each).
     * Every partition calls it once, after its run.
     *
     * @param mine this partition's result; all of them together at most the transport's frame payload.
     * @return every partition's result by partition (its own included), in every partition.
     */
    public byte[][] allGather(final byte[] mine)
    {
        try
        {
            if (self == 0)
            {
                final byte[][] all = gather(mine);
                int total = 4 * count;
                for (final byte[] r : all)
                {
                    total += r.length;
                }
                QsnetException.require(total <= transport.maxPayloadBytes(), "gathered results", total + " bytes",
                    "must fit one frame of the transport (" + transport.maxPayloadBytes() + " bytes)");
                final ByteBuffer b = ByteBuffer.allocate(total);
                for (final byte[] r : all)
                {
                    b.putInt(r.length).put(r);
                }
                b.flip();
                for (int peer = 1; peer < count; peer++)
                {
                    sendPolling(peer, TYPE_RESULT, 0, b.duplicate());
                }
                return all;
            }
            sendPolling(0, TYPE_RESULT, 0, ByteBuffer.wrap(mine));
            while (results == null || results[0] == null)
            {
                if (transport.poll(handler, 64) == 0)
                {
                    transport.awaitFrames(1_000_000L);
                }
            }
            final ByteBuffer b = ByteBuffer.wrap(results[0]);
            results = null;
            final byte[][] all = new byte[count][];
            for (int p = 0; p < count; p++)
            {
                all[p] = new byte[b.getInt()];
                b.get(all[p]);
            }
            return all;
        }
        catch (final PeerFailed e)
        {
            throw e.failure;
        }
    }

    private boolean allPeersEnded(final long window)
    {
        for (int peer = 0; peer < count; peer++)
        {
            if (peer != self && peerWindow[peer] <= window)
            {
                return false;
            }
        }
        return true;
    }

    private void onFrame(final int peer, final int type, final long timeNs, final long key, final ByteBuffer payload)
    {
        if (type == TYPE_RESULT)
        {
            if (results == null)
            {
                results = new byte[count][];
            }
            results[peer] = new byte[payload.remaining()];
            payload.get(results[peer]);
            return;
        }
        if (type == TYPE_VOTE)
        {
            votes++;
            noVotes += timeNs == 1 ? 0 : 1;
            return;
        }
        final long w = peerWindow[peer];
        if (w > currentWindow)
        {
            throw new QsnetException("partition " + peer + " sent a frame of type " + type + " for window " + w
                + " while this partition is at window " + (currentWindow - 1) + ": it ran ahead of the lookahead");
        }
        final int slot = (int)(w & 1);
        if (type == TYPE_EVENTS)
        {
            inbound[slot][peer].put(payload);
        }
        else if (type == TYPE_WINDOW)
        {
            inbound[slot][peer].put(payload);
            peerNext[slot][peer] = timeNs;
            peerWindow[peer] = w + 1;
        }
        else if (type == TYPE_FAILURE)
        {
            final byte[] b = new byte[payload.remaining()];
            payload.get(b);
            final String text = new String(b, java.nio.charset.StandardCharsets.UTF_8);
            final int nl = text.indexOf('\n');
            final String who = nl < 0 ? text : text.substring(0, nl);
            kernel.endRunForFailure(timeNs, (int)key, who, new SimulationException(who + " (in partition " + peer + ") failed: "
                + (nl < 0 ? "" : text.substring(nl + 1)), null));
            // what every partition has learnt in this window: the winner is not announced again
            announcedFailureEndNs = kernel.failureEndNs();
            announcedFailureOrigin = kernel.failureOrigin();
        }
        else if (type == TYPE_ABORT)
        {
            final byte[] b = new byte[payload.remaining()];
            payload.get(b);
            throw new PeerFailed(new SimulationException("partition " + peer + " of the job failed at " + timeNs
                + " ns (simulated): " + new String(b, java.nio.charset.StandardCharsets.UTF_8), null));
        }
        else
        {
            throw new QsnetException("partition " + peer + " sent an unknown frame type " + type);
        }
    }

    private void sendPolling(final int peer, final int type, final long timeNs, final ByteBuffer payload)
    {
        sendPolling(peer, type, timeNs, 0, payload);
    }

    private void sendPolling(final int peer, final int type, final long timeNs, final long key, final ByteBuffer payload)
    {
        // poll while the path is full: the peer may be sending to this partition at the same time
        while (!transport.offer(peer, type, timeNs, key, payload))
        {
            transport.poll(handler, 64);
            Thread.onSpinWait();
        }
    }
}
