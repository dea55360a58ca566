package org.qsnet.tports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanGroup;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Jobs as large as the machine: {@code elan_baseInit}, {@code elan_tportInit}, the collectives and a
 * Tports ring exchange at hundreds and thousands of processes, with every payload checked. Prints the
 * host (wall) time and the peak heap of each run, the figures quoted in the README ("Large jobs").
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class LargeJobTest
{
    /** Inline (below 288 B) and synchronous (pulled by a get) Tports messages. */
    private static final int[] SIZES = {100, 1000};
    private static final int BCAST_BYTES = 256;

    /** What rank 0 saw, in simulated time, for the report. */
    private record Phases(long initNs, long gsyncNs, long bcastNs, long reduceNs, long exchangeNs)
    {
    }

    private static void ring(final int procs, final PlatformProfile profile, final int nodes)
    {
        final Map<Integer, Phases> seen = new ConcurrentHashMap<>();
        final long[] live = new long[1];
        System.gc();
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            pool.resetPeakUsage();
        }
        final long wallStart = System.nanoTime();
        final RunReport report = Prun.run(profile, new Prun.Options(procs, nodes, false, 0, Map.of()), (p, a) ->
        {
            final long t0 = p.nowNs();
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final ElanGroup all = base.allGroup();
            final int me = base.vp();
            final int n = base.nvp();
            assertEquals(procs, n);
            final long t1 = p.nowNs();

            base.gsync(all);
            final long t2 = p.nowNs();

            final long buf = base.gallocMain(all, 64, BCAST_BYTES);
            final int root = n / 3;
            if (me == root)
            {
                for (int i = 0; i < BCAST_BYTES / 4; i++)
                {
                    base.ctx().putInt(buf + 4L * i, 0x5000_0000 + i * 31);
                }
            }
            base.gsync(all);
            final long t3 = p.nowNs();
            base.bcast(all, buf, BCAST_BYTES, root);
            final long t4 = p.nowNs();
            for (int i = 0; i < BCAST_BYTES / 4; i++)
            {
                assertEquals(0x5000_0000 + i * 31, base.ctx().getInt(buf + 4L * i), "bcast word " + i + " at VP " + me);
            }

            // an associative, non-commutative operator (composition of affine maps x -> a x + b:
            // (a1, b1) op (a2, b2) = (a1 a2, b1 a2 + b2)) shows the group order is kept; and a sum
            final long m = 1_000_000_007L;
            final long src = base.gallocMain(all, 8, 24);
            final long dst = base.gallocMain(all, 8, 24);
            base.ctx().putLong(src, me + 2);
            base.ctx().putLong(src + 8, me + 1);
            base.ctx().putLong(src + 16, me + 1);
            base.gsync(all);
            final long t5 = p.nowNs();
            base.reduce(all, src, dst, 1, 24, (in, inout, count, size) ->
            {
                final ByteBuffer x = ByteBuffer.wrap(inout).order(ByteOrder.LITTLE_ENDIAN);
                final ByteBuffer y = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
                x.putLong(8, (x.getLong(8) * y.getLong(0) + y.getLong(8)) % m);
                x.putLong(0, x.getLong(0) * y.getLong(0) % m);
                x.putLong(16, x.getLong(16) + y.getLong(16));
            }, 0, ElanBase.ELAN_RESULT_ALL);
            final long t6 = p.nowNs();
            long ea = 2;
            long eb = 1;
            for (int v = 1; v < n; v++)
            {
                eb = (eb * (v + 2) + v + 1) % m;
                ea = ea * (v + 2) % m;
            }
            assertEquals(ea, base.ctx().getLong(dst), "ordered allreduce (a) at VP " + me);
            assertEquals(eb, base.ctx().getLong(dst + 8), "ordered allreduce (b) at VP " + me);
            assertEquals((long)n * (n + 1) / 2, base.ctx().getLong(dst + 16), "sum allreduce at VP " + me);

            // each rank sends to (rank + 1) % P and receives from rank - 1, inline and synchronous
            final int next = (me + 1) % n;
            final int prev = (me + n - 1) % n;
            final long out = base.allocMain(64, 1024);
            final long in = base.allocMain(64, 1024);
            base.gsync(all);
            final long t7 = p.nowNs();
            for (final int len : SIZES)
            {
                for (int i = 0; i < len; i++)
                {
                    base.ctx().write(out + i, new byte[] {(byte)(me * 13 + i * 7 + len)}, 0, 1);
                }
                final RxEvent rx = tp.rxStart(0, -1, prev, -1, len, in, len);
                final TxEvent tx = tp.txStart(0, next, me, len, out, len);
                final Tport.RxResult r = rx.rxWait();
                tx.txWait();
                assertEquals(new Tport.RxResult(prev, len, len, in), r, "receive at VP " + me);
                final byte[] got = new byte[len];
                base.ctx().read(in, got, 0, len);
                for (int i = 0; i < len; i++)
                {
                    assertEquals((byte)(prev * 13 + i * 7 + len), got[i], "byte " + i + " of " + len + " at VP " + me);
                }
            }
            base.gsync(all);
            final long t8 = p.nowNs();
            if (me == 0)
            {
                // every process has reached the barrier: the whole job is alive, its structures built
                System.gc();
                live[0] = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                seen.put(me, new Phases(t1 - t0, t2 - t1, t4 - t3, t6 - t5, t8 - t7));
            }
        });
        final long wallMs = (System.nanoTime() - wallStart) / 1_000_000;
        report.throwIfFailed();
        long peakHeap = 0;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            if (pool.getType() == MemoryType.HEAP)
            {
                peakHeap += pool.getPeakUsage().getUsed();
            }
        }
        final Phases ph = seen.get(0);
        assertTrue(ph != null, "rank 0 finished");
        System.out.printf("large job: %d processes on %d nodes (%s, dim %d): wall %d ms, peak heap %d MB,"
            + " live heap of the running job %d MB (%d KB per process), simulated %.1f us in all;"
            + " rank 0: init %.1f us, gsync %.2f us, bcast %d B %.2f us, allreduce %.2f us, ring exchange %.2f us%n",
            procs, nodes, profile.name(), profile.fabric().dim(), wallMs, peakHeap >> 20, live[0] >> 20,
            (live[0] >> 10) / procs, report.endNs() / 1e3, ph.initNs() / 1e3, ph.gsyncNs() / 1e3, BCAST_BYTES, ph.bcastNs() / 1e3,
            ph.reduceNs() / 1e3, ph.exchangeNs() / 1e3);
    }

    private static PlatformProfile alphaWithDim(final int dim)
    {
        final PlatformProfile p = PlatformProfile.alphaEs40();
        return p.withFabric(p.fabric().withDim(dim));
    }

    @Test
    void shouldRunSixteenProcessesOnEachOfSixteenNodes()
    {
        ring(256, PlatformProfile.pentium3He(), 16);
    }

    @Test
    void shouldStartAndRunCollectivesAndARingOf1024ProcessesOneANode()
    {
        ring(1024, alphaWithDim(5), 1024);
    }

    /** 16 processes per node share each NIC (and its SDRAM): every collective crosses it 16 times. */
    @Tag("slow")
    @Test
    void shouldRunSixteenProcessesOnEachOfSixtyFourNodes()
    {
        ring(1024, PlatformProfile.alphaEs40(), 64);
    }

    /** The largest machine (a 4-ary 6-tree): about a minute and 2 GB of heap. */
    @Tag("slow")
    @Test
    void shouldStartAndRunCollectivesAndARingOf4096ProcessesOneANode()
    {
        ring(4096, alphaWithDim(6), 4096);
    }
}
