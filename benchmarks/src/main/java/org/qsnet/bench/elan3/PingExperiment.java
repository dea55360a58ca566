package org.qsnet.bench.elan3;

import java.util.Map;

import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanProcess;
import org.qsnet.elan3.Prun;
import org.qsnet.elan3.RankResults;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.LinkErrorStats;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Ping between two processes on two nodes, written against Elan3lib as a user would:
 * <ul>
 *   <li>latency: a ping-pong. Rank 0 posts one {@code putdma_main} of {@code size} bytes; rank 1
 *       spins on the word its destination event writes and answers with a pong of the same size;
 *       rank 0 posts the next ping once it has seen the pong. Latency = the simulated time from
 *       posting a ping to rank 1 seeing the word (CALIBRATION.md's definition; the emulator's clock
 *       is global, so no round-trip halving is needed). Warm-up iterations first (TLB, caches);</li>
 *   <li>bandwidth: after one untimed warm-up DMA over the same buffers (the NIC's first touch of each
 *       host page has the driver load its entry), rank 0 posts {@code reps} DMAs back to back; the receiver's event counts all of
 *       them; bandwidth = bytes / (last arrival seen - first post), in MB/s (10^6 B/s);</li>
 *   <li>bidirectional: both ranks ping each other at once (latency per direction), or stream to
 *       each other at once (bandwidth per direction).</li>
 * </ul>
 * Buffers are in main memory (allocMain, crossing PCI) or Elan memory (allocElan, SDRAM).
 */
public final class PingExperiment
{
    /** Unmeasured pings first (TLB, caches). */
    private static final int WARMUP = 2;
    /** Measured pings. */
    private static final int MEASURED = 4;

    /** Where a buffer lives. */
    public enum Placement
    {
        /** Host memory: the NIC reaches it across PCI. */
        MAIN,
        /** Elan SDRAM on the card. */
        ELAN
    }

    private PingExperiment()
    {
    }

    /**
     * One-way latency of one DMA.
     *
     * @param profile the platform.
     * @param size    bytes (0 allowed).
     * @param src     source placement.
     * @param dst     destination placement.
     * @return latency in ns.
     */
    public static long latencyNs(final PlatformProfile profile, final int size, final Placement src, final Placement dst)
    {
        return latencyNs(profile, size, src, dst, false);
    }

    /**
     * One-way latency of a ping, from a ping-pong: rank 0 posts a ping, rank 1 answers it with a
     * pong of the same size as soon as it sees it, and rank 0 posts the next ping only once it
     * has seen the pong; so no ping ever waits behind the previous one. Bidirectional: both ranks
     * ping each other at once, each posting its next ping once it has seen the peer's.
     *
     * @param profile       the platform.
     * @param size          bytes (0 allowed).
     * @param src           source placement.
     * @param dst           destination placement.
     * @param bidirectional both ranks ping at once (latency per direction, averaged over both).
     * @return latency in ns: post of the DMA to the destination host seeing its event word, the mean
     *         of 4 pings after 2 unmeasured ones.
     */
    public static long latencyNs(final PlatformProfile profile, final int size, final Placement src, final Placement dst,
        final boolean bidirectional)
    {
        final RankResults r = run(profile, results -> (p, args) -> pingLatency(p, size, src, dst, bidirectional, results));
        // the clock is global: one-way latency = seen by one rank - posted by the other
        final long toRank1 = meanLatencyNs(r, 0, 1);
        return bidirectional ? (toRank1 + meanLatencyNs(r, 1, 0)) / 2 : toRank1;
    }

    /**
     * Streaming bandwidth.
     *
     * @param profile       the platform.
     * @param size          bytes per DMA.
     * @param reps          DMAs posted back to back.
     * @param src           source placement.
     * @param dst           destination placement.
     * @param bidirectional both ranks send at once.
     * @return MB/s (10^6 bytes per second) per direction.
     */
    public static double bandwidthMBs(final PlatformProfile profile, final int size, final int reps, final Placement src,
        final Placement dst, final boolean bidirectional)
    {
        final RankResults r = run(profile, results -> (p, args) -> stream(p, size, reps, src, dst, bidirectional, results));
        final double toRank1 = bandwidthMBs(r, size, reps, 0, 1);
        return bidirectional ? Math.min(toRank1, bandwidthMBs(r, size, reps, 1, 0)) : toRank1;
    }

    /** The mean one-way latency from {@code sender} to {@code receiver}: each measured ping, seen - posted. */
    private static long meanLatencyNs(final RankResults r, final int sender, final int receiver)
    {
        long sumNs = 0;
        for (int i = WARMUP; i < WARMUP + MEASURED; i++)
        {
            sumNs += r.get("seen" + receiver, i) - r.get("posted" + sender, i);
        }
        return sumNs / MEASURED;
    }

    /** MB/s from {@code sender} to {@code receiver}: the bytes / (last arrival seen - first post). */
    private static double bandwidthMBs(final RankResults r, final int size, final int reps, final int sender,
        final int receiver)
    {
        return (double)size * reps * 1e3 / (r.get("end", receiver) - r.get("start", sender));
    }

    /** Runs the two ranks of {@code main} (given where they record their figures) and returns their figures. */
    private static RankResults run(final PlatformProfile profile,
        final java.util.function.Function<RankResults, org.qsnet.elan3.ElanMain> main)
    {
        final RankResults results = new RankResults();
        final org.qsnet.elan3.ElanMain program = main.apply(results);
        final Prun.PartitionedResult r = Prun.runJob(profile, results,
            s -> s.launch(new Prun.Options(2, 2, false, 0, Map.of()), program));
        r.report().throwIfFailed();
        final LinkErrorStats[] mine = LAST_ERRORS.get();
        mine[0] = mine[0].plus(r.linkErrors());
        return results;
    }

    /** Link-error statistics of this thread's runs since {@link #takeLinkErrors()}. */
    private static final ThreadLocal<LinkErrorStats[]> LAST_ERRORS =
        ThreadLocal.withInitial(() -> new LinkErrorStats[] {new LinkErrorStats(0, 0, 0)});

    /**
     * The link errors of the runs this thread made since the last call (CRC retries, out-of-order
     * refusals, discarded duplicates), for a report beside the figures; resets them.
     *
     * @return the statistics.
     */
    public static LinkErrorStats takeLinkErrors()
    {
        final LinkErrorStats[] mine = LAST_ERRORS.get();
        final LinkErrorStats s = mine[0];
        mine[0] = new LinkErrorStats(0, 0, 0);
        return s;
    }

    private static long buffer(final Elan3Context ctx, final Placement where, final long size)
    {
        final long bytes = Math.max(64, size);
        if (where == Placement.MAIN)
        {
            final long host = ctx.allocMain(64, bytes);
            if (host == 0)
            {
                throw new QsnetException("allocMain of " + bytes + " bytes failed");
            }
            return ctx.main2elan(host);
        }
        final long sdram = ctx.allocElan(64, bytes);
        if (sdram == 0)
        {
            throw new QsnetException("allocElan of " + bytes + " bytes failed");
        }
        return ctx.sdram2elan(sdram);
    }

    /** The largest message: the source and destination buffers and the library's heap fit the 64 MB of Elan SDRAM. */
    public static final int MAX_BYTES = 1 << 24;

    private static long heap(final long size)
    {
        QsnetException.require(size >= 0 && size <= MAX_BYTES, "size", size, "must be in 0.." + MAX_BYTES
            + " (16 MB: both buffers fit the node's 64 MB of Elan memory)");
        // both buffers and 1 MB for events and descriptors, in whole 8 KB pages
        return Math.max(1 << 21, (2 * size + (1 << 20) + 8191) & -8192L);
    }

    private static void pingLatency(final ElanProcess p, final int size, final Placement src, final Placement dst,
        final boolean bidirectional, final RankResults results)
    {
        final Elan3Context ctx = Elan3Context.open(heap(size), heap(size));
        final int me = ctx.process();
        final int peer = 1 - me;
        final int iterations = WARMUP + MEASURED;
        // one event (and the word it writes) per iteration, at the same address on both ranks: a
        // message can never land on an event its receiver has not yet re-armed
        final long[] ev = new long[iterations];
        final long[] word = new long[iterations];
        for (int i = 0; i < iterations; i++)
        {
            ev[i] = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            word[i] = ctx.allocMain(64, 64);
            ctx.initeventWord(ev[i], word[i]);
            ctx.primeevent(ev[i], 1);
        }
        final long scratch = ctx.allocElan(Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        final long srcBuf = buffer(ctx, src, size);
        final long dstBuf = buffer(ctx, dst, size);
        ctx.blockInputter(0);
        // both ranks start together, after set-up
        p.sim().advance(Math.max(0, 20_000 - p.nowNs()));
        final boolean pings = me == 0 || bidirectional;
        for (int i = 0; i < iterations; i++)
        {
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 0);
            d.dma_size = size;
            d.dma_source = srcBuf;
            d.dma_dest = dstBuf;
            d.dma_destEvent = ctx.sdram2elan(ev[i]);
            d.dma_destCookieVProc = peer;
            d.dma_srcCookieVProc = ctx.localCookie(me, peer);
            if (pings)
            {
                // a ping: one DMA; the next one only after the answer (the pong, or the peer's ping)
                results.put("posted" + me, i, p.nowNs());
                ctx.putdmaMain(d, scratch);
            }
            ctx.waitEventWord(ev[i], word[i], Elan3.ELAN_POLL_EVENT);
            // the latency is taken after the run from both ranks' records (the peer may be in another JVM)
            results.put("seen" + me, i, p.nowNs());
            if (!pings)
            {
                // the pong: rank 1 answers each ping as soon as it sees it
                results.put("posted" + me, i, p.nowNs());
                ctx.putdmaMain(d, scratch);
            }
        }
    }

    private static void stream(final ElanProcess p, final int size, final int reps, final Placement src,
        final Placement dst, final boolean bidirectional, final RankResults results)
    {
        final Elan3Context ctx = Elan3Context.open(heap(size), heap(size));
        final int me = ctx.process();
        final int peer = 1 - me;
        final long rxEv = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long rxWord = ctx.allocMain(64, 64);
        final long txEv = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long txWord = ctx.allocMain(64, 64);
        final long srcBuf = buffer(ctx, src, size);
        final long dstBuf = buffer(ctx, dst, size);
        final long[] scratch = new long[reps];
        for (int i = 0; i < reps; i++)
        {
            scratch[i] = ctx.allocElan(Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        }
        ctx.blockInputter(0);
        p.sim().advance(Math.max(0, 20_000 - p.nowNs()));
        final boolean sends = me == 0 || bidirectional;
        final boolean receives = me == 1 || bidirectional;
        // a warm-up DMA over the same buffers first, untimed, as a benchmark's loop has done before it
        // reaches its steady state: the driver loads the entries of host pages on the NIC's first touch
        ctx.initeventWord(rxEv, rxWord);
        ctx.primeevent(rxEv, 1);
        ctx.initeventWord(txEv, txWord);
        ctx.primeevent(txEv, 1);
        if (sends)
        {
            ctx.putdmaMain(dma(ctx, me, peer, size, srcBuf, dstBuf, rxEv, txEv), scratch[0]);
        }
        if (receives)
        {
            ctx.waitEventWord(rxEv, rxWord, Elan3.ELAN_POLL_EVENT);
        }
        if (sends)
        {
            ctx.waitEventWord(txEv, txWord, Elan3.ELAN_POLL_EVENT);
        }
        // the receiver of the timed DMAs re-arms before the sender posts: both past the warm-up
        ctx.putInt(rxWord, 0);
        ctx.primeevent(rxEv, reps);
        ctx.putInt(txWord, 0);
        ctx.primeevent(txEv, reps);
        p.sim().advance(10_000);
        if (sends)
        {
            // the simulated clock is global: the bandwidth is taken after the run from the sender's first
            // post and the receiver's last arrival
            results.put("start", me, p.nowNs());
            for (int i = 0; i < reps; i++)
            {
                ctx.putdmaMain(dma(ctx, me, peer, size, srcBuf, dstBuf, rxEv, txEv), scratch[i]);
            }
        }
        if (receives)
        {
            ctx.waitEventWord(rxEv, rxWord, Elan3.ELAN_POLL_EVENT);
            results.put("end", me, p.nowNs());
        }
        if (sends)
        {
            ctx.waitEventWord(txEv, txWord, Elan3.ELAN_POLL_EVENT);
        }
    }

    private static E3DmaMain dma(final Elan3Context ctx, final int me, final int peer, final int size,
        final long srcBuf, final long dstBuf, final long rxEv, final long txEv)
    {
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 0);
        d.dma_size = size;
        d.dma_source = srcBuf;
        d.dma_dest = dstBuf;
        d.dma_destEvent = ctx.sdram2elan(rxEv);
        d.dma_destCookieVProc = peer;
        d.dma_srcEvent = ctx.sdram2elan(txEv);
        d.dma_srcCookieVProc = ctx.localCookie(me, peer);
        return d;
    }
}
