package org.qsnet.fabric.engine;

import java.util.HashMap;
import java.util.Map;

import org.qsnet.fabric.QsnetException;

/**
 * A kernel's {@link QuiescenceProbe}s: the probed events it schedules, the probes of other
 * partitions it answers at their keys, and the answers it still waits for. In one JVM a probe is
 * answered by its own event; in a partitioned run through a {@link ProbeExchange}.
 */
final class QuiescenceProbes
{
    private final Kernel kernel;
    /** A partitioned run's way to the other partitions (null in one JVM). */
    private ProbeExchange exchange;
    /** Probe events of other partitions' probes in the queue: not work of the run. */
    private int pendingEvents;
    /** This partition's probes still waiting for other partitions' answers, by key. */
    private final Map<Key, QuiescenceProbe> waiting = new HashMap<>();

    QuiescenceProbes(final Kernel kernel)
    {
        this.kernel = kernel;
    }

    void exchange(final ProbeExchange probeExchange)
    {
        this.exchange = probeExchange;
    }

    /** @return other partitions' probe events in the queue. */
    int pendingEvents()
    {
        return pendingEvents;
    }

    /** @return whether this partition shipped work in the window running that another will run. */
    boolean shippedWorkPending()
    {
        return exchange != null && exchange.shippedWorkPending();
    }

    /**
     * Schedules an event whose instant is probed: as it runs, the probe learns whether this kernel
     * had nothing else pending there and how many process resumptions it had seen; in a partitioned
     * run every other partition answers at the end of that window.
     */
    QuiescenceProbe schedule(final Origin origin, final long timeNs, final EventHandler handler)
    {
        if (origin.heldCount > 0)
        {
            origin.catchUp();
        }
        final long seq = origin.peekSeq();
        final QuiescenceProbe probe = new QuiescenceProbe(timeNs, origin.id(), seq,
            exchange == null ? 1 : exchange.partitionCount());
        if (exchange != null)
        {
            final long lead = timeNs - kernel.nowNs();
            if (lead < exchange.probeLeadNs())
            {
                QsnetException.require(false, "probed event delay", lead + " ns",
                    "must be at least the partitions' lookahead (" + exchange.probeLeadNs() + " ns) in a partitioned run, so"
                    + " that every partition answers its probe (a NIC retry interval too short for partitions)");
            }
        }
        origin.schedule(timeNs, new Probed(probe, handler));
        if (exchange != null)
        {
            waiting.put(new Key(origin.id(), seq), probe);
            exchange.announceProbe(origin.id(), seq, timeNs);
        }
        return probe;
    }

    void scheduleRemote(final int originId, final long timeNs, final long seq)
    {
        QsnetException.require(exchange != null, "probe", originId + "/" + seq, "arrived at a kernel that is not a partition");
        kernel.scheduleRemote(originId, timeNs, seq, new RemoteProbe(originId, seq));
        pendingEvents++;
    }

    boolean answered(final int originId, final long seq, final boolean quiescent, final long resumes,
        final long progress, final int pendingResumes)
    {
        final Key k = new Key(originId, seq);
        final QuiescenceProbe probe = waiting.get(k);
        if (probe == null)
        {
            return false;
        }
        probe.answer(quiescent, resumes, progress, pendingResumes);
        if (probe.complete())
        {
            waiting.remove(k);
        }
        return true;
    }

    private record Key(int originId, long seq)
    {
    }

    /** The probed event itself: this partition's answer first, then what it does. */
    private final class Probed implements EventHandler
    {
        private final QuiescenceProbe probe;
        private final EventHandler handler;

        Probed(final QuiescenceProbe probe, final EventHandler handler)
        {
            this.probe = probe;
            this.handler = handler;
        }

        @Override
        public void onEvent(final long timeNs)
        {
            probe.answer(kernel.locallyQuiescent(), kernel.resumeCount(), kernel.progressCount(), kernel.pendingResumes());
            handler.onEvent(timeNs);
        }
    }

    /** Another partition's probe: answers it at its key; no work of the run. */
    private final class RemoteProbe implements EventHandler
    {
        private final int originId;
        private final long seq;

        RemoteProbe(final int originId, final long seq)
        {
            this.originId = originId;
            this.seq = seq;
        }

        @Override
        public void onEvent(final long timeNs)
        {
            pendingEvents--;
            exchange.answerProbe(originId, seq, kernel.locallyQuiescent(), kernel.resumeCount(), kernel.progressCount(),
                kernel.pendingResumes());
        }
    }
}
