package org.qsnet.tports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.qsnet.elan.Elanlib.*;
import static org.qsnet.tports.Tports.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.FacadeSignatures;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TportsFacadeTest
{
    /** ELAN-API.md §2.6.1 (the 1.4.8 form), §2.6.2 and §2.6.3, copied as written there. */
    static final String[] CATALOG = {
        "elan_tportInit(state, q, nslots, smallmsg, bigmsg, stripemsg, waitType, retryCount, &shm_key, shm_fifodepth, "
            + "shm_fragsize, flags) -> ELAN_TPORT*",
        "elan_tportTxStart(ELAN_TPORT*, int flags, int destVp, int myVp, int tag, void *buf, size_t len) -> ELAN_EVENT*",
        "elan_tportTxDone(ELAN_EVENT*) -> bool",
        "elan_tportTxWait(ELAN_EVENT*)",
        "elan_tportRxStart(ELAN_TPORT*, int flags, int senderMask, int senderSel, int tagMask, int tagSel, void *buf, "
            + "size_t len) -> ELAN_EVENT*",
        "elan_tportRxDone(ELAN_EVENT*) -> bool",
        "elan_tportRxWait(ELAN_EVENT*, int *sender, int *tag, ELAN_SIZE_T *size) -> void*",
        "elan_tportRxPoll(ELAN_TPORT*, senderMask, senderSel, tagMask, tagSel, int *sender, int *tag, size *size) -> bool",
        "elan_tportBufFree(ELAN_TPORT*, void *buf)",
        "elan_tportGetStats(ELAN_TPORT*, ELAN_TPORTSTATS*)",
    };

    @Test
    void shouldFollowTheCatalogSignatureForSignature()
    {
        FacadeSignatures.assertMatchesCatalog(Tports.class, FacadeSignatures.parse(CATALOG), Map.of(), Set.of());
    }

    private static Tport init(final ElanBase base)
    {
        // GASNet's call: a galloc'd queue and the base's tunables
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        return elan_tportInit(base.state, q, base.tport_nslots, base.tport_smallmsg, base.tport_bigmsg,
            base.tport_stripemsg, base.waitType, base.retryCount, base.shm_key, base.shm_fifodepth, base.shm_fragsize,
            base.tport_flags);
    }

    @Test
    void shouldKeepEventsOfEveryOriginInOneList()
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, 2, false, 0, Map.of()), (p, a) ->
        {
            final ElanBase base = elan_baseInit(0);
            final Tport tp = init(base);
            final ElanQueue q = elan_gallocQueue(base, base.allGroup);
            final ElanQueue.Rx qrx = elan_queueRxInit(base, q, 8, 64, 0, 0);
            final ElanQueue.Tx qtx = elan_queueTxInit(base, q, 0, 0);
            final long word = elan_gallocMain(base, base.allGroup, 64, 64);
            final long small = elan_allocMain(base, 64, 64);
            final long big = elan_allocMain(base, 64, 4096);
            final int me = base.state.vp;
            final int peer = 1 - me;
            base.ctx().putInt(small, 1000 + me);
            for (int i = 0; i < 1024; i++)
            {
                base.ctx().putInt(big + 4L * i, me * 100_000 + i);
            }
            final long inSmall = elan_allocMain(base, 64, 64);
            final long inBig = elan_allocMain(base, 64, 4096);
            // a receive, two sends of different protocols, a put and a queue send: one list, one wait
            final List<ElanEvent> events = new ArrayList<>();
            events.add(elan_tportRxStart(tp, 0, -1, peer, -1, 5, inSmall, 64));
            events.add(elan_tportRxStart(tp, 0, -1, peer, -1, 6, inBig, 4096));
            events.add(elan_tportTxStart(tp, 0, peer, me, 5, small, 4));
            events.add(elan_tportTxStart(tp, ELAN_TPORT_TXSYNC, peer, me, 6, big, 4096));
            events.add(elan_put(base, small, word + 4L * me, 4, peer));
            events.add(elan_queueTx(qtx, peer, small, 4, 0));
            for (final ElanEvent e : events)
            {
                elan_wait(e, base.waitType);
            }
            assertEquals(1000 + peer, base.ctx().getInt(inSmall));
            for (int i = 0; i < 1024; i++)
            {
                assertEquals(peer * 100_000 + i, base.ctx().getInt(inBig + 4L * i), "word " + i);
            }
            final long slot = elan_allocMain(base, 64, 64);
            elan_queueRxWait(qrx, slot, base.waitType);
            assertEquals(1000 + peer, base.ctx().getInt(slot));
            elan_gsync(base.allGroup);
            assertEquals(1000 + peer, base.ctx().getInt(word + 4L * peer), "the peer's put");
            for (final ElanEvent e : events)
            {
                assertTrue(e.isConsumed(), e + " consumed by elan_wait");
            }
        }).throwIfFailed();
    }

    @Test
    void shouldPortAReceiveLoopWithOutParameters()
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, 2, false, 0, Map.of()), (p, a) ->
        {
            final ElanBase base = elan_baseInit(0);
            final Tport tp = init(base);
            final int me = base.state.vp;
            final long buf = elan_allocMain(base, 64, 512);
            if (me == 0)
            {
                base.ctx().putInt(buf, 42);
                final ElanEvent tx = elan_tportTxStart(tp, 0, 1, me, 9, buf, 300);
                while (!elan_tportTxDone(tx))
                {
                    p.sim().advance(100);
                }
                elan_tportTxWait(tx);
                final QsnetException wrong = assertThrows(QsnetException.class, () -> elan_tportRxWait(tx, null, null, null));
                assertTrue(wrong.getMessage().contains("is not a Tports receive"), wrong.getMessage());
            }
            else
            {
                final int[] sender = new int[1];
                final int[] tag = new int[1];
                final long[] size = new long[1];
                while (!elan_tportRxPoll(tp, 0, 0, -1, 9, sender, tag, size))
                {
                    p.sim().advance(100);
                }
                assertEquals(0, sender[0]);
                assertEquals(9, tag[0]);
                assertEquals(300, size[0]);
                final ElanEvent rx = elan_tportRxStart(tp, ELAN_TPORT_RXBUF, 0, 0, -1, 9, 0, 0);
                sender[0] = -1;
                final long data = elan_tportRxWait(rx, sender, null, size);
                assertEquals(0, sender[0]);
                assertEquals(300, size[0]);
                assertEquals(42, base.ctx().getInt(data));
                elan_tportBufFree(tp, data);
                final Tport.TportStats stats = new Tport.TportStats();
                elan_tportGetStats(tp, stats);
                assertEquals(300, stats.dRxBytes + stats.bRxBytes, "the message's bytes are counted");
                assertEquals(tp.getStats().nTxBig + tp.getStats().nBuf + tp.getStats().bufBytes,
                    stats.nTxBig + stats.nBuf + stats.bufBytes, "the caller's struct holds the port's counters");
            }
        }).throwIfFailed();
    }

    @Test
    void shouldHonourShmEnable()
    {
        final long[] shmTx = new long[2];
        for (final int enable : new int[] {0, 1})
        {
            // two processes on one node
            Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, 1, false, 0,
                Map.of("LIBELAN_SHM_ENABLE", Integer.toString(enable))), (p, a) ->
            {
                final ElanBase base = elan_baseInit(0);
                final Tport tp = init(base);
                final long buf = elan_allocMain(base, 64, 64);
                if (base.state.vp == 0)
                {
                    elan_tportTxWait(elan_tportTxStart(tp, 0, 1, 0, 1, buf, 8));
                    final Tport.TportStats s = new Tport.TportStats();
                    elan_tportGetStats(tp, s);
                    shmTx[enable] = s.nShmTx;
                }
                else
                {
                    elan_tportRxWait(elan_tportRxStart(tp, 0, 0, 0, 0, 0, buf, 64), null, null, null);
                }
            }).throwIfFailed();
        }
        assertEquals(0, shmTx[0], "LIBELAN_SHM_ENABLE=0: through the NIC");
        assertEquals(1, shmTx[1], "default: through shared memory");
    }

    @Test
    void shouldRefuseAQueueAlreadyInUse()
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(1, 1, false, 0, Map.of()), (p, a) ->
        {
            final ElanBase base = elan_baseInit(0);
            final ElanQueue q = elan_gallocQueue(base, base.allGroup);
            elan_queueRxInit(base, q, 4, 64, 0, 0);
            final QsnetException e = assertThrows(QsnetException.class, () -> elan_tportInit(base, q, 64, 288, 65536, 0,
                Elan3.ELAN_POLL_EVENT, 63, 0, 0, 0, 0));
            assertTrue(e.getMessage().endsWith("is already used by elan_queueRxInit (one queue per Tport or receiver)"),
                e.getMessage());
            assertFalse(e.getMessage().isEmpty());
        }).throwIfFailed();
    }
}
