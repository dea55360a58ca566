package org.qsnet.fabric.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.qsnet.fabric.QsnetException;

/**
 * {@link QuiescenceProbe}: what a probed event learns about the whole run at its instant, in one
 * kernel and in two kernels joined as partitions (by hand here; the network's side does it in a
 * real partitioned run).
 */
class QuiescenceProbeTest
{
    @Test
    void shouldSeeOtherEventsAndResumptionsInOneKernel()
    {
        final Kernel k = new Kernel();
        final Origin a = k.origin(1, "a");
        final Origin b = k.origin(2, "b");
        b.schedule(15, t -> { });
        final QuiescenceProbe busy = a.scheduleProbed(10, t -> { });
        final QuiescenceProbe alone = a.scheduleProbed(20, t -> { });
        assertFalse(busy.complete());
        k.spawn(3, "p", p -> p.compute(25));
        final QuiescenceProbe afterProcess = a.scheduleProbed(40, t -> { });
        k.run();
        assertTrue(busy.complete() && alone.complete() && afterProcess.complete());
        assertFalse(busy.quiescent(), "the event at 15 is pending at 10");
        assertFalse(alone.quiescent(), "the process's wake-up at 25 is pending at 20");
        assertTrue(afterProcess.quiescent(), "nothing is pending at 40");
        assertTrue(afterProcess.resumes() > alone.resumes(), "the process ran between 20 and 40");
    }

    /** Two kernels as partitions of one run: each answers the other's probes at the probe's key. */
    @Test
    void shouldCombineEveryPartitionsAnswer()
    {
        final Kernel[] k = {new Kernel(), new Kernel()};
        final HandExchange[] x = {new HandExchange(k, 0), new HandExchange(k, 1)};
        k[0].partitioned(x[0]);
        k[1].partitioned(x[1]);
        final Origin a = k[0].origin(1, "a");
        final Origin b = k[1].origin(2, "b");
        b.schedule(150, t -> { });
        final QuiescenceProbe busy = a.scheduleProbed(100, t -> { });
        final QuiescenceProbe alone = a.scheduleProbed(300, t -> { });
        x[0].deliver();
        k[0].runUntil(200);
        k[1].runUntil(200);
        x[0].deliver();
        x[1].deliver();
        assertTrue(busy.complete(), busy.toString());
        assertFalse(busy.quiescent(), "partition 1's event at 150 is pending at 100");
        assertFalse(alone.complete(), "its partitions have not reached 300 yet");
        k[0].runUntil(400);
        k[1].runUntil(400);
        x[1].deliver();
        assertTrue(alone.complete() && alone.quiescent(), alone.toString());
        assertFalse(k[0].quiescent(), "a partition alone never claims the run is quiescent");
    }

    @Test
    void shouldRefuseAProbeTooCloseForThePartitionsToAnswer()
    {
        final Kernel[] k = {new Kernel(), new Kernel()};
        k[0].partitioned(new HandExchange(k, 0));
        final Origin a = k[0].origin(1, "a");
        final QsnetException e = assertThrows(QsnetException.class, () -> a.scheduleProbed(5, t -> { }));
        assertTrue(e.getMessage().contains("lookahead (20 ns)"), e.getMessage());
    }

    /** Ships probes and answers between two kernels when told (between windows). */
    private static final class HandExchange implements ProbeExchange
    {
        private final Kernel[] kernels;
        private final int self;
        private final List<Runnable> outbox = new ArrayList<>();

        HandExchange(final Kernel[] kernels, final int self)
        {
            this.kernels = kernels;
            this.self = self;
        }

        void deliver()
        {
            final List<Runnable> sent = new ArrayList<>(outbox);
            outbox.clear();
            sent.forEach(Runnable::run);
        }

        @Override
        public int partitionCount()
        {
            return 2;
        }

        @Override
        public long probeLeadNs()
        {
            return 20;
        }

        @Override
        public void announceProbe(final int originId, final long seq, final long timeNs)
        {
            outbox.add(() -> kernels[1 - self].scheduleRemoteProbe(originId, timeNs, seq));
        }

        @Override
        public void answerProbe(final int originId, final long seq, final boolean quiescent, final long resumes,
            final long progress, final int pendingResumes)
        {
            outbox.add(() -> assertTrue(kernels[1 - self].probeAnswered(originId, seq, quiescent, resumes, progress,
                pendingResumes)));
        }

        @Override
        public boolean shippedWorkPending()
        {
            return false;
        }
    }
}
