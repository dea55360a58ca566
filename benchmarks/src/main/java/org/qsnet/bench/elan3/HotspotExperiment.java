package org.qsnet.bench.elan3;

import java.util.Map;

import org.qsnet.bench.elan3.PingExperiment.Placement;
import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.Prun;
import org.qsnet.elan3.RankResults;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Hot spot at the Elan3lib level: every other process reads from (get) or writes to (put) the
 * same memory block of process 0, {@code reps} DMAs of {@code size} bytes each, all at once.
 * Aggregate bandwidth = all bytes moved / (last completion - start), MB/s; per node = the node's
 * bytes / (its own last completion - start).
 */
public final class HotspotExperiment
{
    private HotspotExperiment()
    {
    }

    /**
     * The outcome of one hot spot.
     *
     * @param aggregateMBs all bytes moved / (last completion - start), MB/s.
     * @param perNodeMBs   per process: its bytes / (its last completion - start), MB/s; index 0 (the
     *                     hot spot itself) is 0.
     */
    public record Result(double aggregateMBs, double[] perNodeMBs)
    {
        /**
         * @return the smallest per-sender bandwidth, MB/s.
         */
        public double minMBs()
        {
            double m = Double.MAX_VALUE;
            for (int i = 1; i < perNodeMBs.length; i++)
            {
                m = Math.min(m, perNodeMBs[i]);
            }
            return m;
        }

        /**
         * @return the largest per-sender bandwidth, MB/s.
         */
        public double maxMBs()
        {
            double m = 0;
            for (int i = 1; i < perNodeMBs.length; i++)
            {
                m = Math.max(m, perNodeMBs[i]);
            }
            return m;
        }
    }

    /**
     * @param profile the platform.
     * @param procs   processes, one per node (2..nodes).
     * @param read    gets from the hot block (true) or puts into it.
     * @param where   where the hot block and the others' buffers live.
     * @param size    bytes per DMA.
     * @param reps    DMAs per process.
     * @return aggregate MB/s.
     */
    public static double aggregateMBs(final PlatformProfile profile, final int procs, final boolean read,
        final Placement where, final int size, final int reps)
    {
        return run(profile, procs, read, where, size, reps).aggregateMBs();
    }

    /**
     * Runs the hot spot and measures every sender.
     *
     * @param profile the platform.
     * @param procs   processes, one per node (2..nodes).
     * @param read    gets from the hot block (true) or puts into it.
     * @param where   where the hot block and the others' buffers live.
     * @param size    bytes per DMA.
     * @param reps    DMAs per process.
     * @return aggregate and per-node MB/s.
     */
    public static Result run(final PlatformProfile profile, final int procs, final boolean read,
        final Placement where, final int size, final int reps)
    {
        final RankResults results = new RankResults();
        final long warmStart = 20_000;
        // the timed phase starts when every sender's warm-up DMA is certainly done (below 40 MB/s
        // into the hot node, checked): idle simulated time costs the emulator nothing
        final long start = warmStart + 100_000 + (procs - 1L) * Math.max(size, 64) * 25;
        Prun.run(profile, new Prun.Options(procs, procs, false, 0, Map.of()), results, (p, args) ->
        {
            final long heap = Math.max(1 << 21, 4L * size);
            final Elan3Context ctx = Elan3Context.open(heap, heap);
            final int me = ctx.process();
            final long block = where == Placement.MAIN ? ctx.main2elan(ctx.allocMain(64, size))
                : ctx.sdram2elan(ctx.allocElan(64, size));
            final long local = where == Placement.MAIN ? ctx.main2elan(ctx.allocMain(64, size))
                : ctx.sdram2elan(ctx.allocElan(64, size));
            final long ev = ctx.allocElan(8, 16);
            final long word = ctx.allocMain(8, 8);
            final long[] scratch = new long[reps];
            for (int i = 0; i < reps; i++)
            {
                scratch[i] = ctx.allocElan(32, 32);
            }
            ctx.initeventWord(ev, word);
            ctx.blockInputter(0);
            p.sim().advance(warmStart - p.nowNs());
            if (me != 0)
            {
                // one untimed DMA over the same buffers first, as the paper's long loop had done before
                // its steady state: the NIC's first touch of each host page has the driver load its entry
                ctx.primeevent(ev, 1);
                ctx.putdmaMain(dma(ctx, me, read, size, block, local, ev), scratch[0]);
                ctx.waitEventWord(ev, word, Elan3.ELAN_POLL_EVENT);
                ctx.putInt(word, 0);
                ctx.primeevent(ev, reps);
                if (p.nowNs() > start)
                {
                    throw new org.qsnet.fabric.QsnetException("hot-spot warm-up of sender " + me + " ended at "
                        + p.nowNs() + " ns, after the timed phase's start " + start + " ns");
                }
            }
            p.sim().advance(start - p.nowNs());
            if (me != 0)
            {
                for (int i = 0; i < reps; i++)
                {
                    ctx.putdmaMain(dma(ctx, me, read, size, block, local, ev), scratch[i]);
                }
                ctx.waitEventWord(ev, word, Elan3.ELAN_POLL_EVENT);
                results.put("end", me, p.nowNs());
            }
        }).throwIfFailed();
        long last = 0;
        final double[] perNode = new double[procs];
        for (int i = 1; i < procs; i++)
        {
            final long end = results.get("end", i);
            last = Math.max(last, end);
            perNode[i] = (double)size * reps * 1e3 / (end - start);
        }
        return new Result((double)size * reps * (procs - 1) * 1e3 / (last - start), perNode);
    }

    private static E3DmaMain dma(final Elan3Context ctx, final int me, final boolean read, final int size,
        final long block, final long local, final long ev)
    {
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, read ? Elan3.DMA_READ : Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 0);
        d.dma_size = size;
        d.dma_source = read ? block : local;
        d.dma_dest = read ? local : block;
        if (read)
        {
            // a get completes at the reader: its destination event
            d.dma_destEvent = ctx.sdram2elan(ev);
            d.dma_destCookieVProc = ctx.localCookie(me, 0);
            d.dma_srcCookieVProc = ctx.remoteCookie(me, 0);
        }
        else
        {
            // a put completes at the writer when acknowledged: its source event
            d.dma_srcEvent = ctx.sdram2elan(ev);
            d.dma_destCookieVProc = 0;
            d.dma_srcCookieVProc = ctx.localCookie(me, 0);
        }
        return d;
    }
}
