package org.qsnet.bench.elan3;

import java.util.Map;

import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanMain;
import org.qsnet.elan3.Prun;
import org.qsnet.elan3.RankResults;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * The Ohio State micro-benchmarks at the Elan3lib level (Liu et al., 2003), each an Elan3lib
 * program run under prun; buffers in host memory as in the paper unless said otherwise.
 */
public final class OsuExperiment
{
    private static final long START = 20_000;

    private OsuExperiment()
    {
    }

    /** What every test program has at hand. */
    private record Env(Elan3Context ctx, int me, long rxEv, long rxWord, long txEv, long txWord, long scratch)
    {
    }

    @FunctionalInterface
    private interface Body
    {
        void run(org.qsnet.elan3.ElanProcess p, Env e) throws Exception;
    }

    /** Runs {@code body} in every rank; it records its figures in {@code results}, which after the run holds every rank's. */
    private static void run(final PlatformProfile profile, final int procs, final long heap, final RankResults results,
        final Body body)
    {
        final ElanMain main = (p, args) ->
        {
            final Elan3Context ctx = Elan3Context.open(heap, 1 << 21);
            final Env e = new Env(ctx, ctx.process(), ctx.allocElan(8, 16), ctx.allocMain(8, 8), ctx.allocElan(8, 16),
                ctx.allocMain(8, 8), ctx.allocElan(32, 32));
            ctx.initeventWord(e.rxEv, e.rxWord);
            ctx.initeventWord(e.txEv, e.txWord);
            ctx.blockInputter(0);
            body.run(p, e);
        };
        Prun.run(profile, new Prun.Options(procs, procs, false, 0, Map.of()), results, main).throwIfFailed();
    }

    private static E3DmaMain put(final Env e, final int peer, final long src, final long dst, final long size,
        final boolean destEvent, final boolean srcEvent)
    {
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 0);
        d.dma_size = size;
        d.dma_source = src;
        d.dma_dest = dst;
        d.dma_destEvent = destEvent ? e.ctx.sdram2elan(e.rxEv) : 0;
        d.dma_srcEvent = srcEvent ? e.ctx.sdram2elan(e.txEv) : 0;
        d.dma_destCookieVProc = peer;
        d.dma_srcCookieVProc = e.ctx.localCookie(e.me, peer);
        return d;
    }

    /**
     * @param size bytes per message.
     * @return the untimed warm-up rounds of a bandwidth test, as osu_bw skips them.
     */
    static int skip(final int size)
    {
        return size > 8192 ? 2 : 10;
    }

    private static void clear(final Env e, final long word, final long ev, final int count)
    {
        e.ctx.putInt(word, 0);
        e.ctx.primeevent(ev, count);
    }

    /**
     * Bandwidth with a window of {@code window} outstanding DMAs: rank 0 posts the window, waits
     * for all of them to complete (source event), repeats.
     *
     * @param profile the platform.
     * @param size    bytes per DMA.
     * @param window  DMAs outstanding.
     * @param loops   windows.
     * @return MB/s.
     */
    public static double windowBandwidthMBs(final PlatformProfile profile, final int size, final int window, final int loops)
    {
        // the overlap test with no computation between posting the window and waiting for it
        return overlap(profile, size, window, 0, loops)[0];
    }

    /**
     * Host overhead: the time the host spends in {@code elan3_putdma_main}, per operation.
     *
     * @param profile the platform.
     * @return ns per DMA posted.
     */
    public static double hostOverheadNs(final PlatformProfile profile)
    {
        final RankResults r = new RankResults();
        run(profile, 2, 1 << 22, r, (p, e) ->
        {
            final long buf = e.ctx.main2elan(e.ctx.allocMain(64, 64));
            final long[] scratch = new long[100];
            for (int i = 0; i < scratch.length; i++)
            {
                scratch[i] = e.ctx.allocElan(32, 32);
            }
            if (e.me == 0)
            {
                long spent = 0;
                for (int i = 0; i < scratch.length; i++)
                {
                    final E3DmaMain d = put(e, 1, buf, buf, 4, false, false);
                    final long t = p.nowNs();
                    e.ctx.putdmaMain(d, scratch[i]);
                    spent += p.nowNs() - t;
                    p.sim().advance(5_000);
                }
                r.putDouble("overhead", 0, (double)spent / scratch.length);
            }
        });
        return r.getDouble("overhead", 0);
    }

    /**
     * One-way latency of a {@code size}-byte put into host memory, detected (a) by the program's
     * own loop loading the last word of the buffer, (b) by polling the event word with
     * {@code elan3_waitevent_word} (a library call), (c) by a blocking wait on the event.
     *
     * @param profile the platform.
     * @param size    bytes, at least 4.
     * @return {by buffer, by event, blocking} in ns.
     */
    public static long[] completionLatencyNs(final PlatformProfile profile, final int size)
    {
        final RankResults r = new RankResults();
        run(profile, 2, 1 << 22, r, (p, e) ->
        {
            final long src = e.ctx.allocMain(64, Math.max(64, size));
            final long dst = e.ctx.allocMain(64, Math.max(64, size));
            for (int mode = 0; mode < 3; mode++)
            {
                for (int it = 0; it < 3; it++)
                {
                    // slots far enough apart that a put has landed before the next is posted
                    final long slot = START + Math.max(100_000L, 50_000L + 8L * size) * (mode * 3 + it);
                    final int pattern = mode * 3 + it + 1;
                    clear(e, e.rxWord, e.rxEv, 1);
                    p.sim().advance(slot - p.nowNs());
                    if (e.me == 0)
                    {
                        // the harness's arrival mark, not part of the measured path: written uncharged
                        // at the slot (earlier, the previous DMA may still be reading the buffer)
                        e.ctx.raw().putInt(src + size - 4, pattern);
                        // polling the buffer needs no event: the DMA carries none in that mode
                        e.ctx.putdmaMain(put(e, 1, e.ctx.main2elan(src), e.ctx.main2elan(dst), size, mode != 0, false),
                            e.scratch);
                    }
                    else
                    {
                        if (mode == 0)
                        {
                            // polling the buffer is the program's own loop on its last word, no library call:
                            // an L1 hit per turn, and the load that misses on the line the NIC wrote
                            while (e.ctx.getInt(dst + size - 4) != pattern)
                            {
                                Thread.onSpinWait();
                            }
                        }
                        else
                        {
                            e.ctx.waitEventWord(e.rxEv, e.rxWord, mode == 1 ? Elan3.ELAN_POLL_EVENT : Elan3.ELAN_WAIT_EVENT);
                        }
                        r.put("latency", mode, p.nowNs() - slot);
                    }
                }
            }
        });
        return new long[] {r.get("latency", 0), r.get("latency", 1), r.get("latency", 2)};
    }

    /**
     * Buffer reuse: {@code messages} puts of {@code size} bytes; a fraction {@code reusePercent} of
     * them reuse buffer 0, the others cycle through {@code buffers} buffers in FIFO order (each on
     * its own pages), so the NIC's 16-entry TLB misses when the set is large.
     *
     * @param profile      the platform.
     * @param size         bytes per message.
     * @param buffers      buffers in the FIFO.
     * @param reusePercent 0..100.
     * @return mean ns per message (post to completion).
     */
    public static double bufferReuseNs(final PlatformProfile profile, final int size, final int buffers,
        final int reusePercent)
    {
        return bufferReuseNs(profile, size, buffers, reusePercent, 1, 200);
    }

    /**
     * Buffer reuse, latency or bandwidth variant: puts of {@code size} bytes in rounds of
     * {@code window} outstanding (1: one at a time, the latency variant), each round waited for on
     * its source event; a fraction {@code reusePercent} of the puts reuse buffer 0, the others cycle
     * through {@code buffers} buffers in FIFO order, each on pages of its own. Every page of a buffer
     * the NIC's TLB does not hold costs a table walk (a 512 KB buffer spans 64 pages of 8 KB, more
     * than the 16 entries, so even one reused buffer misses).
     *
     * @param profile      the platform.
     * @param size         bytes per message.
     * @param buffers      buffers in the FIFO, at least 1.
     * @param reusePercent 0..100.
     * @param window       puts outstanding per round, at least 1.
     * @param messages     puts in all (rounded up to whole rounds).
     * @return mean ns per message: with {@code window} 1 the post-to-completion latency; otherwise
     * {@code size / that} is the bandwidth.
     */
    public static double bufferReuseNs(final PlatformProfile profile, final int size, final int buffers,
        final int reusePercent, final int window, final int messages)
    {
        org.qsnet.fabric.QsnetException.require(buffers >= 1, "buffers", buffers, "must be at least 1");
        org.qsnet.fabric.QsnetException.require(reusePercent >= 0 && reusePercent <= 100, "reuse", reusePercent,
            "must be in 0..100");
        org.qsnet.fabric.QsnetException.require(window >= 1 && window <= 1024, "window", window, "must be in 1..1024");
        final RankResults r = new RankResults();
        final long stride = (Math.max(size, 1) + 8191L) / 8192 * 8192 + 8192;
        final int rounds = (messages + window - 1) / window;
        run(profile, 2, Math.max(1 << 22, Long.highestOneBit(stride * buffers) * 2), r, (p, e) ->
        {
            final long base = e.ctx.allocMain(8192, stride * buffers);
            final long[] scratch = new long[window];
            scratch[0] = e.scratch;
            for (int i = 1; i < window; i++)
            {
                scratch[i] = e.ctx.allocElan(32, 32);
            }
            p.sim().advance(START - p.nowNs());
            if (e.me == 0)
            {
                int next = 0;
                int m = 0;
                for (int round = 0; round < rounds; round++)
                {
                    clear(e, e.txWord, e.txEv, window);
                    for (int i = 0; i < window; i++, m++)
                    {
                        final boolean reuse = (m * reusePercent) / 100 != ((m + 1) * reusePercent) / 100;
                        final int b = reuse ? 0 : next++ % buffers;
                        final long va = e.ctx.main2elan(base + b * stride);
                        e.ctx.putdmaMain(put(e, 1, va, va, size, false, true), scratch[i]);
                    }
                    e.ctx.waitEventWord(e.txEv, e.txWord, Elan3.ELAN_POLL_EVENT);
                }
                r.putDouble("perMessage", 0, (double)(p.nowNs() - START) / ((long)rounds * window));
            }
        });
        return r.getDouble("perMessage", 0);
    }

    /**
     * Computation/communication overlap: rank 0 posts a window of {@code window} puts of
     * {@code size} bytes, computes for {@code computeNs} (its host busy, the NIC moving the data
     * meanwhile), then waits for the window's completion; {@code loops} rounds.
     *
     * @param profile   the platform.
     * @param size      bytes per put.
     * @param window    puts per round.
     * @param computeNs host computation per round, ns.
     * @param loops     rounds.
     * @return {MB/s, fraction of the time spent computing}.
     */
    public static double[] overlap(final PlatformProfile profile, final int size, final int window, final long computeNs,
        final int loops)
    {
        org.qsnet.fabric.QsnetException.require(computeNs >= 0, "compute", computeNs, "must be at least 0 ns");
        final RankResults r = new RankResults();
        run(profile, 2, 1 << 22, r, (p, e) ->
        {
            final long buf = e.ctx.main2elan(e.ctx.allocMain(64, Math.max(64, size)));
            final long[] scratch = new long[window];
            for (int i = 0; i < window; i++)
            {
                scratch[i] = e.ctx.allocElan(32, 32);
            }
            p.sim().advance(START - p.nowNs());
            if (e.me == 0)
            {
                // OSU's untimed warm-up rounds (osu_bw: skip 10, 2 above 8 KB): the NIC's first touch of
                // each host page has the driver load its entry, which a steady state has behind it
                for (int l = 0; l < skip(size); l++)
                {
                    clear(e, e.txWord, e.txEv, window);
                    for (int i = 0; i < window; i++)
                    {
                        e.ctx.putdmaMain(put(e, 1, buf, buf, size, false, true), scratch[i]);
                    }
                    e.ctx.waitEventWord(e.txEv, e.txWord, Elan3.ELAN_POLL_EVENT);
                }
                final long start = p.nowNs();
                for (int l = 0; l < loops; l++)
                {
                    clear(e, e.txWord, e.txEv, window);
                    for (int i = 0; i < window; i++)
                    {
                        e.ctx.putdmaMain(put(e, 1, buf, buf, size, false, true), scratch[i]);
                    }
                    // the computation: host time the program spends between library calls
                    p.sim().advance(computeNs);
                    e.ctx.waitEventWord(e.txEv, e.txWord, Elan3.ELAN_POLL_EVENT);
                }
                final long total = p.nowNs() - start;
                r.putDouble("bandwidth", 0, (double)size * window * loops * 1e3 / total);
                r.putDouble("computing", 0, (double)computeNs * loops / total);
            }
        });
        return new double[] {r.getDouble("bandwidth", 0), r.getDouble("computing", 0)};
    }

    /**
     * Hot-spot send (master puts to each of {@code slaves} slaves) or receive (every slave puts to
     * the master at once).
     *
     * @param profile the platform.
     * @param slaves  slaves, 1..nodes-1.
     * @param size    bytes per message.
     * @param receive true: slaves to master.
     * @return aggregate MB/s.
     */
    public static double hotspotSendReceiveMBs(final PlatformProfile profile, final int slaves, final int size,
        final boolean receive)
    {
        final RankResults end = new RankResults();
        run(profile, slaves + 1, 1 << 22, end, (p, e) ->
        {
            final long buf = e.ctx.main2elan(e.ctx.allocMain(64, Math.max(64, size)));
            final long[] scratch = new long[slaves];
            for (int i = 0; i < slaves; i++)
            {
                scratch[i] = e.ctx.allocElan(32, 32);
            }
            clear(e, e.rxWord, e.rxEv, e.me == 0 && receive ? slaves : 1);
            clear(e, e.txWord, e.txEv, e.me == 0 && !receive ? slaves : 1);
            p.sim().advance(START - p.nowNs());
            if (e.me == 0)
            {
                if (!receive)
                {
                    for (int s = 1; s <= slaves; s++)
                    {
                        e.ctx.putdmaMain(put(e, s, buf, buf, size, false, true), scratch[s - 1]);
                    }
                    e.ctx.waitEventWord(e.txEv, e.txWord, Elan3.ELAN_POLL_EVENT);
                }
                else
                {
                    e.ctx.waitEventWord(e.rxEv, e.rxWord, Elan3.ELAN_POLL_EVENT);
                }
                end.put("end", 0, p.nowNs());
            }
            else if (receive)
            {
                e.ctx.putdmaMain(put(e, 0, buf, buf, size, true, false), e.scratch);
            }
        });
        return (double)size * slaves * 1e3 / (end.get("end", 0) - START);
    }

    /**
     * Latency when both ends send at once (a 4-byte put each way), against one way.
     *
     * @param profile the platform.
     * @return {unidirectional, bidirectional} latency in ns.
     */
    public static long[] bidirectionalLatencyNs(final PlatformProfile profile)
    {
        final RankResults r = new RankResults();
        run(profile, 2, 1 << 22, r, (p, e) ->
        {
            final long buf = e.ctx.main2elan(e.ctx.allocMain(64, 64));
            for (int mode = 0; mode < 2; mode++)
            {
                for (int it = 0; it < 3; it++)
                {
                    final long slot = START + 100_000L * (mode * 3 + it);
                    clear(e, e.rxWord, e.rxEv, 1);
                    final E3DmaMain d = put(e, 1 - e.me, buf, buf, 4, true, false);
                    p.sim().advance(slot - p.nowNs());
                    if (e.me == 0 || mode == 1)
                    {
                        e.ctx.putdmaMain(d, e.scratch);
                    }
                    if (e.me == 1 || mode == 1)
                    {
                        e.ctx.waitEventWord(e.rxEv, e.rxWord, Elan3.ELAN_POLL_EVENT);
                        if (e.me == 1)
                        {
                            r.put("latency", mode, p.nowNs() - slot);
                        }
                    }
                }
            }
        });
        return new long[] {r.get("latency", 0), r.get("latency", 1)};
    }
}
