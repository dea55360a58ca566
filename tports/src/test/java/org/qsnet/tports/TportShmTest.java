package org.qsnet.tports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan.ElanBase;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TportShmTest
{
    @Test
    void shouldPullBigMessagesInFragmentsOfFragsize()
    {
        final Tport.TportStats[] stats = new Tport.TportStats[2];
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, 2, false, 0, Map.of("LIBELAN_TPORT_FRAGSIZE", "4096")),
            (p, a) ->
            {
                final ElanBase base = ElanBase.baseInit(0);
                final Tport tp = Tport.init(base);
                final long buf = base.allocMain(64, 20_000);
                if (base.vp() == 0)
                {
                    for (int w = 0; w < 5000; w++)
                    {
                        base.ctx().putInt(buf + 4L * w, w ^ 0x5a5a);
                    }
                    tp.txStart(0, 1, 0, 3, buf, 20_000).txWait();
                }
                else
                {
                    assertEquals(20_000, tp.rxStart(0, 0, 0, 0, 0, buf, 20_000).rxWait().size());
                    for (int w = 0; w < 5000; w++)
                    {
                        assertEquals(w ^ 0x5a5a, base.ctx().getInt(buf + 4L * w));
                    }
                }
                stats[base.vp()] = tp.getStats();
            }).throwIfFailed();
        assertEquals(5, stats[0].nFragTx);
        assertEquals(5, stats[1].nFragRx);
    }

    @Test
    void shouldExchangeThroughSharedMemoryOnOneNodeFasterThanThroughTheNic()
    {
        final long[] latency = new long[2];
        final Tport.TportStats[] stats = new Tport.TportStats[2];
        for (final int nodes : new int[] {1, 2})
        {
            Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, nodes, false, 0,
                Map.of("LIBELAN_SHM_FRAGSIZE", "1024", "LIBELAN_SHM_FIFODEPTH", "4")), (p, a) ->
            {
                final ElanBase base = ElanBase.baseInit(0);
                final Tport tp = Tport.init(base);
                final long buf = base.allocMain(64, 10_000);
                for (int i = 0; i < 3; i++)
                {
                    final long slot = 100_000L * (i + 1);
                    if (base.vp() == 1)
                    {
                        final RxEvent rx = tp.rxStart(0, 0, 0, -1, i, buf, 10_000);
                        p.sim().advance(slot - p.nowNs());
                        final Tport.RxResult r = rx.rxWait();
                        latency[nodes - 1] = p.nowNs() - slot;
                        assertEquals(i == 2 ? 5000 : 8, r.size());
                        if (i == 2)
                        {
                            for (int w = 0; w < 1250; w++)
                            {
                                assertEquals(w * 3, base.ctx().getInt(buf + 4L * w));
                            }
                        }
                    }
                    else
                    {
                        final int len = i == 2 ? 5000 : 8;
                        if (i == 2)
                        {
                            // the fill is host work before the timed send (each store charges its cost)
                            for (int w = 0; w < 1250; w++)
                            {
                                base.ctx().putInt(buf + 4L * w, w * 3);
                            }
                        }
                        p.sim().advance(slot - p.nowNs());
                        tp.txStart(i == 1 ? Tport.TX_SYNC : 0, 1, 0, i, buf, len).txWait();
                        stats[nodes - 1] = tp.getStats();
                    }
                }
            }).throwIfFailed();
        }
        assertEquals(3, stats[0].nShmTx, "one node: every message through shared memory");
        assertEquals(5, stats[0].nFragTx, "5000 bytes in 1024-byte fragments");
        assertEquals(0, stats[1].nShmTx, "two nodes: through the NIC");
        final long shm8 = latency[0];
        assertTrue(latency[0] > 0 && latency[1] > 0);
        assertTrue(shm8 < 4_000, "shared-memory 5000 B latency " + shm8);
    }
}
