package org.qsnet.tports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.elan.ElanBase;
import org.qsnet.elan3.ElanMain;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TportTest
{
    private static void run(final int procs, final ElanMain main)
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(procs, procs, false, 0, Map.of()), main).throwIfFailed();
    }

    private static void fill(final ElanBase b, final long buf, final int len, final int seed)
    {
        for (int i = 0; i < len; i++)
        {
            b.ctx().write(buf + i, new byte[] {(byte)(seed + i * 7)}, 0, 1);
        }
    }

    private static void check(final ElanBase b, final long buf, final int len, final int seed)
    {
        final byte[] got = new byte[len];
        b.ctx().read(buf, got, 0, len);
        for (int i = 0; i < len; i++)
        {
            assertEquals((byte)(seed + i * 7), got[i], "byte " + i + " of " + len);
        }
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 100, 287, 288, 1000, 100_000})
    void shouldDeliverInlineAndSynchronousMessagesIntact(final int len)
    {
        run(2, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, Math.max(64, len));
            if (base.vp() == 0)
            {
                fill(base, buf, len, 3);
                tp.txStart(0, 1, 0, 42, buf, len).txWait();
            }
            else
            {
                final Tport.RxResult r = tp.rxStart(0, -1, 0, -1, 42, buf, len).rxWait();
                assertEquals(new Tport.RxResult(0, 42, len, buf), r);
                check(base, buf, len, 3);
            }
            final Tport.TportStats s = tp.getStats();
            if (base.vp() == 0)
            {
                assertEquals(len < 288 ? 1 : 0, s.nTxSmall);
                assertEquals(len < 288 ? 0 : 1, s.nTxBig);
            }
        });
    }

    @Test
    void shouldMatchBySenderAndTagMasksAndBufferUnexpectedMessages()
    {
        final List<String> got = Collections.synchronizedList(new ArrayList<>());
        run(3, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, 64);
            final int me = base.vp();
            if (me != 0)
            {
                // tags 1, 3, 5 from VP 1; 2, 3 from VP 2; all before the receiver posts anything
                for (final int tag : me == 1 ? new int[] {1, 3, 5} : new int[] {2, 3})
                {
                    base.ctx().putInt(buf, me * 100 + tag);
                    tp.txStart(0, 0, me, tag, buf, 4).txWait();
                }
            }
            else
            {
                p.sim().advance(100_000);
                // Charm++'s pattern: tagMask 1, tagSel 1 catches the odd tags, in arrival order per sender
                final Tport.RxResult a1 = tp.rxStart(0, -1, 1, 1, 1, buf, 4).rxWait();
                got.add(a1.sender() + ":" + a1.tag() + ":" + base.ctx().getInt(buf));
                final Tport.RxResult a2 = tp.rxStart(0, -1, 2, -1, 3, buf, 4).rxWait();
                got.add(a2.sender() + ":" + a2.tag() + ":" + base.ctx().getInt(buf));
                final Tport.RxResult a3 = tp.rxStart(0, 0, 0, -1, 2, buf, 4).rxWait();
                got.add(a3.sender() + ":" + a3.tag() + ":" + base.ctx().getInt(buf));
                final Tport.RxResult probe = tp.rxStart(Tport.RX_PROBE, 0, 0, 0, 0, 0, 0).rxWait();
                got.add("probe " + probe.sender() + ":" + probe.tag() + ":" + probe.size());
                assertEquals(new Tport.RxResult(1, 3, 4, 0), tp.rxPoll(-1, 1, -1, 3));
                assertNull(tp.rxPoll(-1, 2, -1, 9));
                for (int i = 0; i < 2; i++)
                {
                    final Tport.RxResult r = tp.rxStart(Tport.RX_BUF | Tport.RX_ANY, 0, 0, 0, 0, 0, 0).rxWait();
                    got.add(r.sender() + ":" + r.tag() + ":" + base.ctx().getInt(r.data()));
                    tp.bufFree(r.data());
                }
                assertTrue(tp.getStats().bRxBytes > 0);
            }
        });
        assertEquals(List.of("1:1:101", "2:3:203", "2:2:202", "probe 1:3:4", "1:3:103", "1:5:105"), got);
    }

    @Test
    void shouldApplyTheMaskRuleToEveryMaskAndSelectorCombination()
    {
        final int[] masks = {0, -1, 1, 2, 3, 0xF0};
        final int[] values = {0, 1, 2, 3, 0x13, 0x20};
        final List<String> mismatches = Collections.synchronizedList(new ArrayList<>());
        run(3, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, 64);
            if (base.vp() != 0)
            {
                for (final int tag : values)
                {
                    tp.txStart(0, 0, base.vp(), tag, buf, 4).txWait();
                }
            }
            else
            {
                p.sim().advance(200_000);
                // every message waits unexpected; probe each rule with rxPoll and check the rule by hand
                for (final int sm : new int[] {0, -1, 1})
                {
                    for (final int ss : new int[] {1, 2})
                    {
                        for (final int tm : masks)
                        {
                            for (final int ts : values)
                            {
                                final Tport.RxResult r = tp.rxPoll(sm, ss, tm, ts);
                                boolean any = false;
                                for (final int sender : new int[] {1, 2})
                                {
                                    for (final int tag : values)
                                    {
                                        any |= (sender & sm) == (ss & sm) && (tag & tm) == (ts & tm);
                                    }
                                }
                                if ((r != null) != any || (r != null && !Tport.matches(sm, ss, tm, ts, r.sender(), r.tag())))
                                {
                                    mismatches.add(sm + "/" + ss + "/" + tm + "/" + ts + " -> " + r);
                                }
                            }
                        }
                    }
                }
            }
        });
        assertEquals(List.of(), mismatches);
    }

    @Test
    void shouldCompleteASynchronousSendOnlyOnceTheReceiverHasMatched()
    {
        final long[] t = new long[2];
        run(2, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, 64);
            if (base.vp() == 0)
            {
                final TxEvent tx = tp.txStart(Tport.TX_SYNC, 1, 0, 7, buf, 8);
                p.sim().advance(20_000);
                assertTrue(!tx.txDone(), "not matched yet");
                tx.txWait();
                t[0] = p.nowNs();
            }
            else
            {
                p.sim().advance(50_000);
                t[1] = p.nowNs();
                tp.rxStart(0, 0, 0, 0, 0, buf, 64).rxWait();
            }
        });
        assertTrue(t[0] > t[1], "the sync send completed at " + t[0] + ", the receive was posted at " + t[1]);
    }

    @Test
    void shouldKeepTheOrderOfMessagesFromOneSender()
    {
        final List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        run(2, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, 4096);
            if (base.vp() == 0)
            {
                final List<TxEvent> txs = new ArrayList<>();
                for (int i = 0; i < 40; i++)
                {
                    base.ctx().putInt(buf, i);
                    txs.add(tp.txStart(0, 1, 0, 5, buf, i % 3 == 0 ? 1000 : 16));
                    if (i % 3 == 0)
                    {
                        txs.get(txs.size() - 1).txWait();
                        txs.remove(txs.size() - 1);
                    }
                }
                txs.forEach(TxEvent::txWait);
            }
            else
            {
                for (int i = 0; i < 40; i++)
                {
                    tp.rxStart(0, 0, 0, -1, 5, buf, 4096).rxWait();
                    order.add(base.ctx().getInt(buf));
                }
            }
        });
        for (int i = 0; i < 40; i++)
        {
            assertEquals(i, order.get(i));
        }
    }

    @Test
    void shouldFailClearlyOnMisuse()
    {
        final List<String> errors = Collections.synchronizedList(new ArrayList<>());
        run(2, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, 1024);
            if (base.vp() == 0)
            {
                errors.add(assertThrows(QsnetException.class, () -> tp.txStart(0, 9, 0, 1, buf, 4)).getMessage());
                errors.add(assertThrows(QsnetException.class, () -> tp.txStart(0, 1, 1, 1, buf, 4)).getMessage());
                tp.txStart(0, 1, 0, 1, buf, 200).txWait();
            }
            else
            {
                final RxEvent rx = tp.rxStart(0, 0, 0, 0, 0, buf, 100);
                // the refused message's envelope comes with the failure, as rxWait's out-parameters would give it
                final ReceiveTruncated t = assertThrows(ReceiveTruncated.class, rx::rxWait);
                errors.add(t.getMessage());
                errors.add("envelope " + t.sender() + " " + t.tag() + " " + t.size());
                // a second wait of the consumed event is misuse, not a truncation
                final QsnetException again = assertThrows(QsnetException.class, rx::rxWait);
                errors.add(again.getMessage() + (again instanceof ReceiveTruncated ? " (as a truncation)" : ""));
            }
        });
        assertTrue(errors.contains("destVp 9 is outside the job's VPs 0..1"), errors.toString());
        assertTrue(errors.contains("myVp 1 must be this process's VP 0"), errors.toString());
        assertTrue(errors.stream().anyMatch(e -> e.equals("message of 200 bytes from VP 0 (tag 1) does not fit the posted receive of 100 bytes")),
            errors.toString());
        assertTrue(errors.contains("envelope 0 1 200"), errors.toString());
        assertTrue(errors.stream().anyMatch(e -> e.contains("already consumed") && !e.contains("as a truncation")), errors.toString());
    }
}
