package org.qsnet.bench.elan3;

import java.util.Map;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Prun;
import org.qsnet.elan3.RankResults;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.tports.Tport;

/**
 * Experiments at the Elanlib and Tports level, written as ordinary Elanlib programs under prun.
 */
public final class ElanlibExperiment
{
    private static final long START = 100_000;

    private ElanlibExperiment()
    {
    }

    /**
     * One-way Tports latency: the receive is posted first; latency = post of
     * {@code elan_tportTxStart} to {@code elan_tportRxWait} returning at the receiver. Last of 5.
     *
     * @param profile the platform.
     * @param size    bytes.
     * @return ns.
     */
    public static long tportLatencyNs(final PlatformProfile profile, final int size)
    {
        final RankResults r = new RankResults();
        Prun.run(profile, new Prun.Options(2, 2, false, 0, Map.of()), r, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, Math.max(64, size));
            for (int i = 0; i < 5; i++)
            {
                final long slot = START + (START + 20L * size) * i;
                if (base.vp() == 1)
                {
                    final var rx = tp.rxStart(0, 0, 0, -1, i, buf, Math.max(64, size));
                    p.sim().advance(slot - p.nowNs());
                    rx.rxWait();
                    r.put("latency", 0, p.nowNs() - slot);
                }
                else
                {
                    p.sim().advance(slot - p.nowNs());
                    tp.txStart(0, 1, 0, i, buf, size).txWait();
                }
            }
        }).throwIfFailed();
        return r.get("latency", 0);
    }

    /**
     * One-way {@code elan_put} latency, detected by the receiver polling the last word of its buffer.
     *
     * @param profile the platform.
     * @param size    bytes, at least 4.
     * @return ns.
     */
    public static long putLatencyNs(final PlatformProfile profile, final int size)
    {
        final RankResults r = new RankResults();
        Prun.run(profile, new Prun.Options(2, 2, false, 0, Map.of()), r, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final long buf = base.allocMain(64, Math.max(64, size));
            for (int i = 0; i < 5; i++)
            {
                final long slot = START + (START + 20L * size) * i;
                final int pattern = i + 1;
                if (base.vp() == 0)
                {
                    // the arrival mark is written before the timed put
                    base.ctx().putInt(buf + size - 4, pattern);
                }
                p.sim().advance(slot - p.nowNs());
                if (base.vp() == 0)
                {
                    base.put(buf, buf, size, 1).waitEvent(Elan3.ELAN_POLL_EVENT);
                }
                else
                {
                    base.ctx().waitFor(() -> base.ctx().raw().getInt(buf + size - 4) == pattern,
                        base.ctx().main2elan(buf + size - 4), Elan3.ELAN_POLL_EVENT);
                    r.put("latency", 0, p.nowNs() - slot);
                }
            }
        }).throwIfFailed();
        return r.get("latency", 0);
    }

    /**
     * {@code elan_put} bandwidth with a window of {@code window} outstanding puts.
     *
     * @param profile the platform.
     * @param size    bytes per put.
     * @param window  puts outstanding.
     * @param loops   windows.
     * @return MB/s.
     */
    public static double putBandwidthMBs(final PlatformProfile profile, final int size, final int window, final int loops)
    {
        final RankResults r = new RankResults();
        Prun.run(profile, new Prun.Options(2, 2, false, 0, Map.of()), r, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final long buf = base.allocMain(64, Math.max(64, size));
            p.sim().advance(START - p.nowNs());
            if (base.vp() == 0)
            {
                final ElanEvent[] evs = new ElanEvent[window];
                for (int l = 0; l < loops; l++)
                {
                    for (int i = 0; i < window; i++)
                    {
                        evs[i] = base.put(buf, buf, size, 1);
                    }
                    for (final ElanEvent e : evs)
                    {
                        e.waitEvent(Elan3.ELAN_POLL_EVENT);
                    }
                }
                r.putDouble("bandwidth", 0, (double)size * window * loops * 1e3 / (p.nowNs() - START));
            }
        }).throwIfFailed();
        return r.getDouble("bandwidth", 0);
    }

    /**
     * {@code elan_get} latency: from the call to the data having landed (the event), last of 5.
     *
     * @param profile the platform.
     * @param size    bytes.
     * @return ns.
     */
    public static long getLatencyNs(final PlatformProfile profile, final int size)
    {
        final RankResults r = new RankResults();
        Prun.run(profile, new Prun.Options(2, 2, false, 0, Map.of()), r, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final long buf = base.allocMain(64, Math.max(64, size));
            final long into = base.allocMain(64, Math.max(64, size));
            for (int i = 0; i < 5; i++)
            {
                final long slot = START + (START + 20L * size) * i;
                p.sim().advance(slot - p.nowNs());
                if (base.vp() == 0)
                {
                    base.get(buf, into, size, 1).waitEvent(Elan3.ELAN_POLL_EVENT);
                    r.put("latency", 0, p.nowNs() - slot);
                }
            }
        }).throwIfFailed();
        return r.get("latency", 0);
    }

    /**
     * Tports streaming bandwidth: {@code count} sends of {@code size} bytes, the receives posted first.
     *
     * @param profile the platform.
     * @param size    bytes per message.
     * @param count   messages.
     * @return MB/s.
     */
    public static double tportBandwidthMBs(final PlatformProfile profile, final int size, final int count)
    {
        final RankResults r = new RankResults();
        Prun.run(profile, new Prun.Options(2, 2, false, 0, Map.of()), r, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, Math.max(64, size));
            p.sim().advance(START - p.nowNs());
            // an untimed round first, as a benchmark's loop has run before its steady state: the NIC's
            // first touch of each host page (the buffers, the library's inline slots) has the driver
            // load its entry; then the receiver posts the timed receives and a barrier lets the sender go
            for (int round = 0; round < 2; round++)
            {
                if (base.vp() == 1)
                {
                    final var rxs = new java.util.ArrayList<org.qsnet.tports.RxEvent>();
                    for (int i = 0; i < count; i++)
                    {
                        rxs.add(tp.rxStart(0, 0, 0, 0, 0, buf, size));
                    }
                    base.gsync(base.allGroup());
                    for (final var rx : rxs)
                    {
                        rx.rxWait();
                    }
                    if (round == 1)
                    {
                        // the simulated clock is global: the sender's first post (its record) is the start
                        r.put("end", 1, p.nowNs());
                    }
                }
                else
                {
                    base.gsync(base.allGroup());
                    r.put("start", 0, p.nowNs());
                    final var txs = new java.util.ArrayList<org.qsnet.tports.TxEvent>();
                    for (int i = 0; i < count; i++)
                    {
                        txs.add(tp.txStart(0, 1, 0, i, buf, size));
                    }
                    txs.forEach(org.qsnet.tports.TxEvent::txWait);
                }
            }
        }).throwIfFailed();
        return (double)size * count * 1e3 / (r.get("end", 1) - r.get("start", 0));
    }

    /**
     * Barrier latency: the time from the last process entering to the last one leaving, averaged.
     *
     * @param profile  the platform (its tree must hold {@code procs} nodes).
     * @param procs    processes, one per node.
     * @param hardware hgsync (true) or gsync.
     * @return ns per barrier.
     */
    public static double barrierNs(final PlatformProfile profile, final int procs, final boolean hardware)
    {
        final RankResults end = new RankResults();
        final int rounds = 10;
        Prun.run(profile, new Prun.Options(procs, procs, false, 0, Map.of()), end, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            p.sim().advance(START - p.nowNs());
            for (int i = 0; i < rounds; i++)
            {
                if (hardware)
                {
                    base.hgsync(base.allGroup());
                }
                else
                {
                    base.gsync(base.allGroup());
                }
            }
            end.put("end", base.vp(), p.nowNs());
        }).throwIfFailed();
        return (double)(end.max("end") - START) / rounds;
    }

    /**
     * Broadcast time: from the root's call to the last member having the data, averaged.
     *
     * @param profile the platform.
     * @param procs   processes.
     * @param size    bytes.
     * @return ns per broadcast.
     */
    public static double bcastNs(final PlatformProfile profile, final int procs, final int size)
    {
        final RankResults end = new RankResults();
        final int rounds = 5;
        Prun.run(profile, new Prun.Options(procs, procs, false, 0, Map.of()), end, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final long buf = base.gallocMain(base.allGroup(), 64, Math.max(64, size));
            p.sim().advance(START - p.nowNs());
            for (int i = 0; i < rounds; i++)
            {
                base.bcast(base.allGroup(), buf, size, 0);
            }
            end.put("end", base.vp(), p.nowNs());
        }).throwIfFailed();
        return (double)(end.max("end") - START) / rounds;
    }
}
