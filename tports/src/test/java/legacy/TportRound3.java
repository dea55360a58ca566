package legacy;

import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_clock;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXPROBE;
import static org.qsnet.tports.Tports.ELAN_TPORT_TXSYNC;
import static org.qsnet.tports.Tports.elan_tportGetStats;
import static org.qsnet.tports.Tports.elan_tportInit;
import static org.qsnet.tports.Tports.elan_tportRxPoll;
import static org.qsnet.tports.Tports.elan_tportRxStart;
import static org.qsnet.tports.Tports.elan_tportRxWait;
import static org.qsnet.tports.Tports.elan_tportTxDone;
import static org.qsnet.tports.Tports.elan_tportTxStart;
import static org.qsnet.tports.Tports.elan_tportTxWait;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.tports.Tport;

/**
 * The third outside round for Tports, written from ELAN-API.md §2.6 only (a C program's calls, its
 * globals static fields). {@code args[0]} names the scenario; rank 0 prints {@code ok <scenario>}.
 * <ul>
 * <li>{@code refused}: a receive posted too small for the message that matches it fails (the
 * receiver's {@code elan_tportRxWait} names both sizes), and the message's sender still completes
 * — inline, {@code ELAN_TPORT_TXSYNC} and big (2.5 MB, several fragments) — as a sender does once
 * a receive has matched; the pair keeps working after.</li>
 * <li>{@code masks}: §2.6.4's mask rule with partial masks: Charm++'s {@code tagMask 1, tagSel 1}
 * catches tags 1, 3, 5 and not 2, 4; a sender mask of 1 picks the odd VPs; posted before and after
 * the messages arrive; {@code elan_tportRxPoll} with masks reports without taking.</li>
 * <li>{@code sync}: a {@code TXSYNC} send (0 B, inline, big) is not done before the receiver has
 * matched it, and done after; {@code elan_tportGetStats} counts the sends by protocol.</li>
 * <li>{@code sizes}: every size around the inline limit and the 320-byte slot (0..330 and a few
 * bigger), alternately synchronous, all with one tag, received in posting order with every byte
 * checked; run with link CRC errors.</li>
 * <li>{@code posting-order}: a message goes to the first posted receive it matches, whatever the
 * criteria of the receives posted after (a wildcard receive posted first takes the message an exact
 * receive posted second also matches), small and big, posted before and after arrival.</li>
 * <li>{@code probe-sync}: an {@code ELAN_TPORT_RXPROBE} that sees a {@code TXSYNC} message is not a
 * match: the sender is not done until the real receive.</li>
 * </ul>
 */
public final class TportRound3
{
    // C globals
    static ElanBase base;
    static Tport tp;
    static int me;
    static int nvp;

    private TportRound3()
    {
    }

    /**
     * @param args the scenario.
     */
    public static void main(final String[] args)
    {
        base = elan_baseInit(0);
        me = base.state.vp;
        nvp = base.state.nvp;
        tp = elan_tportInit(base.state, elan_gallocQueue(base, base.allGroup), base.tport_nslots, base.tport_smallmsg,
            base.tport_bigmsg, base.tport_stripemsg, base.waitType, base.retryCount, base.shm_key, base.shm_fifodepth,
            base.shm_fragsize, base.tport_flags);
        elan_gsync(base.allGroup);
        switch (args[0])
        {
            case "refused" -> refused();
            case "masks" -> masks();
            case "sync" -> sync();
            case "sizes" -> sizes();
            case "posting-order" -> postingOrder();
            case "probe-sync" -> probeSync();
            default -> throw new IllegalArgumentException(args[0]);
        }
        elan_gsync(base.allGroup);
        if (me == 0)
        {
            System.out.println("ok " + args[0]);
        }
    }

    static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException("rank " + me + ": " + what);
        }
    }

    static byte pattern(final int from, final int k, final int i)
    {
        return (byte)(from * 31 + k * 7 + i * 13 + (i >>> 9));
    }

    static long filled(final int k, final int len)
    {
        final long buf = elan_allocMain(base.state, 64, Math.max(8, len));
        check(buf != 0, "elan_allocMain of " + len + " B failed");
        final byte[] b = new byte[len];
        for (int i = 0; i < len; i++)
        {
            b[i] = pattern(me, k, i);
        }
        base.ctx().write(buf, b, 0, len);
        return buf;
    }

    static void checkData(final long data, final int from, final int k, final int len)
    {
        final byte[] got = new byte[len];
        base.ctx().read(data, got, 0, len);
        for (int i = 0; i < len; i++)
        {
            check(got[i] == pattern(from, k, i), "message " + k + " (" + len + " B) from " + from + ": byte " + i + " is "
                + got[i] + ", expected " + pattern(from, k, i));
        }
    }

    static void compute(final long ns)
    {
        final long end = elan_clock(base.state) + ns;
        while (elan_clock(base.state) < end)
        {
            // busy
        }
    }

    // ------------------------------------------------------------------ refused matches

    static final int[] REFUSED = {100, 100, 2_500_000};
    static final int[] REFUSED_FLAGS = {0, ELAN_TPORT_TXSYNC, 0};

    /** 2 ranks: rank 1 sends, rank 0 posts 16-byte receives. */
    static void refused()
    {
        if (me == 1)
        {
            for (int k = 0; k < REFUSED.length; k++)
            {
                final ElanEvent tx = elan_tportTxStart(tp, REFUSED_FLAGS[k], 0, me, 40 + k, filled(k, REFUSED[k]), REFUSED[k]);
                // the send completes although the receive refused the message
                elan_tportTxWait(tx);
            }
            final long last = filled(9, 64);
            elan_tportTxWait(elan_tportTxStart(tp, 0, 0, me, 49, last, 64));
            return;
        }
        if (me != 0)
        {
            return;
        }
        final long small = elan_allocMain(base.state, 64, 16);
        for (int k = 0; k < REFUSED.length; k++)
        {
            final ElanEvent rx = elan_tportRxStart(tp, 0, -1, 1, -1, 40 + k, small, 16);
            try
            {
                elan_tportRxWait(rx, null, null, null);
                check(false, "a " + REFUSED[k] + "-byte message was received into 16 bytes");
            }
            catch (final RuntimeException e)
            {
                final String m = String.valueOf(e.getMessage());
                check(m.contains(Integer.toString(REFUSED[k])) && m.contains("16"), "the refusal does not name both sizes: " + m);
            }
        }
        final long buf = elan_allocMain(base.state, 64, 64);
        final int[] sender = new int[1];
        final long[] size = new long[1];
        final long d = elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 49, buf, 64), sender, null, size);
        check(sender[0] == 1 && size[0] == 64, "the message after the refusals: sender " + sender[0] + " size " + size[0]);
        checkData(d, 1, 9, 64);
    }

    // ------------------------------------------------------------------ mask matching

    /** 4 ranks: ranks 1..3 send rank 0 tags 1..5. */
    static void masks()
    {
        if (me != 0)
        {
            final ElanEvent[] tx = new ElanEvent[5];
            for (int t = 1; t <= 5; t++)
            {
                tx[t - 1] = elan_tportTxStart(tp, 0, 0, me, t, filled(t, 8), 8);
            }
            for (final ElanEvent e : tx)
            {
                elan_tportTxWait(e);
            }
            return;
        }
        // posted before anything arrives: odd tags from any sender (Charm++'s TAG_SMALL)
        final long[] bufs = new long[15];
        final ElanEvent[] odd = new ElanEvent[9];
        for (int i = 0; i < 9; i++)
        {
            bufs[i] = elan_allocMain(base.state, 64, 8);
            odd[i] = elan_tportRxStart(tp, 0, 0, 0, 1, 1, bufs[i], 8);
        }
        final int[] perSenderOdd = new int[nvp];
        for (int i = 0; i < 9; i++)
        {
            final int[] sender = new int[1];
            final int[] tag = new int[1];
            final long d = elan_tportRxWait(odd[i], sender, tag, null);
            check((tag[0] & 1) == 1, "tagMask 1, tagSel 1 caught tag " + tag[0]);
            // per sender, in send order: 1, 3, 5
            check(tag[0] == 1 + 2 * perSenderOdd[sender[0]]++, "odd tags from " + sender[0] + " out of order: " + tag[0]);
            checkData(d, sender[0], tag[0], 8);
        }
        compute(200_000); // the even tags have all arrived, unexpected
        // a probe with a sender mask: odd VPs (1, 3) only, tag exactly 4
        final int[] sender = new int[1];
        final int[] tag = new int[1];
        final long[] size = new long[1];
        check(elan_tportRxPoll(tp, 1, 1, -1, 4, sender, tag, size) && (sender[0] & 1) == 1 && tag[0] == 4 && size[0] == 8,
            "elan_tportRxPoll(senderMask 1, senderSel 1, tag 4): sender " + sender[0] + " tag " + tag[0]);
        check(!elan_tportRxPoll(tp, 0, 0, 1, 1, sender, tag, size), "elan_tportRxPoll saw an odd tag: " + tag[0]);
        // the even tags from the odd VPs, by sender mask
        for (int i = 0; i < 4; i++)
        {
            bufs[9 + i] = elan_allocMain(base.state, 64, 8);
            final long d = elan_tportRxWait(elan_tportRxStart(tp, 0, 1, 1, 0, 0, bufs[9 + i], 8), sender, tag, size);
            check((sender[0] & 1) == 1 && (tag[0] == 2 || tag[0] == 4), "senderMask 1 sel 1 got sender " + sender[0] + " tag "
                + tag[0]);
            checkData(d, sender[0], tag[0], 8);
        }
        // what is left: rank 2's tags 2 and 4, in order, through tagMask 0x6 tagSel 0x2 then 0x4
        for (final int t : new int[] {2, 4})
        {
            bufs[11 + t / 2] = elan_allocMain(base.state, 64, 8);
            final long d = elan_tportRxWait(elan_tportRxStart(tp, 0, 0, 0, 0x6, t, bufs[11 + t / 2], 8), sender, tag, size);
            check(sender[0] == 2 && tag[0] == t, "tagMask 6 tagSel " + t + " got sender " + sender[0] + " tag " + tag[0]);
            checkData(d, 2, t, 8);
        }
        check(!elan_tportRxPoll(tp, 0, 0, 0, 0, sender, tag, size), "a message is left: sender " + sender[0] + " tag " + tag[0]);
    }

    // ------------------------------------------------------------------ synchronous sends

    static final int[] SYNC_SIZES = {0, 200, 500_000};

    /** 2 ranks. */
    static void sync()
    {
        if (me == 1)
        {
            final Tport.TportStats before = new Tport.TportStats();
            elan_tportGetStats(tp, before);
            for (int k = 0; k < SYNC_SIZES.length; k++)
            {
                final ElanEvent tx = elan_tportTxStart(tp, ELAN_TPORT_TXSYNC, 0, me, 60 + k, filled(k, SYNC_SIZES[k]),
                    SYNC_SIZES[k]);
                final long t0 = elan_clock(base.state);
                while (elan_clock(base.state) - t0 < 300_000)
                {
                    check(!elan_tportTxDone(tx), "TXSYNC of " + SYNC_SIZES[k] + " B done before the receive was posted");
                }
                elan_tportTxWait(tx);
            }
            // and plain sends: one inline, one big
            elan_tportTxWait(elan_tportTxStart(tp, 0, 0, me, 70, filled(5, 10), 10));
            elan_tportTxWait(elan_tportTxStart(tp, 0, 0, me, 71, filled(6, 4000), 4000));
            final Tport.TportStats after = new Tport.TportStats();
            elan_tportGetStats(tp, after);
            // through the NIC 3 inline and 2 big; between the processes of a node all 5 through shared memory
            check(after.nTxSmall - before.nTxSmall == 3 && after.nTxBig - before.nTxBig == 2
                || after.nShmTx - before.nShmTx == 5, "stats: nTxSmall +" + (after.nTxSmall - before.nTxSmall) + " nTxBig +"
                    + (after.nTxBig - before.nTxBig) + " nShmTx +" + (after.nShmTx - before.nShmTx)
                    + ", expected 3 inline (0, 200, 10 B) and 2 big (500000, 4000 B), or 5 through shared memory");
            check(after.nTxBigSync - before.nTxBigSync == 3 || after.nShmTx - before.nShmTx == 5, "stats: nTxBigSync +"
                + (after.nTxBigSync - before.nTxBigSync) + ", expected 3");
            return;
        }
        if (me != 0)
        {
            return;
        }
        for (int k = 0; k < SYNC_SIZES.length; k++)
        {
            compute(600_000); // well after the sender's 300 us of checks
            final long buf = elan_allocMain(base.state, 64, Math.max(8, SYNC_SIZES[k]));
            final long[] size = new long[1];
            final long d = elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 60 + k, buf, SYNC_SIZES[k]), null, null, size);
            check(size[0] == SYNC_SIZES[k], "sync message " + k + ": " + size[0] + " B");
            checkData(d, 1, k, SYNC_SIZES[k]);
        }
        final long b = elan_allocMain(base.state, 64, 4000);
        elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 70, b, 4000), null, null, null);
        elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 71, b, 4000), null, null, null);
        checkData(b, 1, 6, 4000);
    }

    // ------------------------------------------------------------------ sizes around the protocol boundaries

    static int[] sizesList()
    {
        final int[] s = new int[40];
        for (int i = 0; i < 30; i++)
        {
            s[i] = 280 + i * 2 - (i == 0 ? 280 : 0); // 0, 282, 284, ... 338
        }
        final int[] more = {1, 63, 64, 65, 319, 320, 321, 8191, 8192, 70_001};
        System.arraycopy(more, 0, s, 30, more.length);
        return s;
    }

    /** 2+ ranks: every rank sends the next, receives from the previous, one tag, posting order. */
    static void sizes()
    {
        final int[] sz = sizesList();
        final int to = (me + 1) % nvp;
        final int from = (me + nvp - 1) % nvp;
        final ElanEvent[] rx = new ElanEvent[sz.length];
        final long[] bufs = new long[sz.length];
        // half the receives posted before the sends, half after
        for (int k = 0; k < sz.length / 2; k++)
        {
            bufs[k] = elan_allocMain(base.state, 64, sz[k] + 8);
            rx[k] = elan_tportRxStart(tp, 0, -1, from, -1, 77, bufs[k], sz[k] + 8);
        }
        final ElanEvent[] tx = new ElanEvent[sz.length];
        for (int k = 0; k < sz.length; k++)
        {
            tx[k] = elan_tportTxStart(tp, k % 3 == 1 ? ELAN_TPORT_TXSYNC : 0, to, me, 77, filled(k, sz[k]), sz[k]);
        }
        for (int k = sz.length / 2; k < sz.length; k++)
        {
            bufs[k] = elan_allocMain(base.state, 64, sz[k] + 8);
            rx[k] = elan_tportRxStart(tp, 0, -1, from, -1, 77, bufs[k], sz[k] + 8);
        }
        for (int k = 0; k < sz.length; k++)
        {
            final int[] sender = new int[1];
            final long[] size = new long[1];
            final long d = elan_tportRxWait(rx[k], sender, null, size);
            check(sender[0] == from && size[0] == sz[k], "receive " + k + " got " + size[0] + " B from " + sender[0] + ", expected "
                + sz[k] + " B (posting order)");
            checkData(d, from, k, sz[k]);
        }
        for (final ElanEvent e : tx)
        {
            elan_tportTxWait(e);
        }
    }

    // ------------------------------------------------------------------ first posted receive wins

    static final int[] PO_SIZES = {16, 100_000};

    /** 2 ranks: rank 1 sends two messages of tag 5 per size; rank 0 posts a wildcard then an exact receive. */
    static void postingOrder()
    {
        for (int k = 0; k < PO_SIZES.length; k++)
        {
            final int len = PO_SIZES[k];
            for (final boolean postFirst : new boolean[] {true, false})
            {
                final int round = k * 2 + (postFirst ? 0 : 1);
                if (me == 1)
                {
                    elan_gsync(base.allGroup);
                    final ElanEvent a = elan_tportTxStart(tp, 0, 0, me, 5, filled(10 * round + 1, len), len);
                    final ElanEvent b = elan_tportTxStart(tp, 0, 0, me, 5, filled(10 * round + 2, len), len);
                    elan_tportTxWait(a);
                    elan_tportTxWait(b);
                    elan_gsync(base.allGroup);
                    continue;
                }
                if (me != 0)
                {
                    elan_gsync(base.allGroup);
                    elan_gsync(base.allGroup);
                    continue;
                }
                final long any = elan_allocMain(base.state, 64, len);
                final long exact = elan_allocMain(base.state, 64, len);
                ElanEvent rAny = null;
                ElanEvent rExact = null;
                if (postFirst)
                {
                    rAny = elan_tportRxStart(tp, 0, 0, 0, 0, 0, any, len);
                    rExact = elan_tportRxStart(tp, 0, -1, 1, -1, 5, exact, len);
                }
                elan_gsync(base.allGroup);
                if (!postFirst)
                {
                    compute(300_000); // both messages have arrived, unexpected
                    rAny = elan_tportRxStart(tp, 0, 0, 0, 0, 0, any, len);
                    rExact = elan_tportRxStart(tp, 0, -1, 1, -1, 5, exact, len);
                }
                final long dAny = elan_tportRxWait(rAny, null, null, null);
                final long dExact = elan_tportRxWait(rExact, null, null, null);
                checkData(dAny, 1, 10 * round + 1, len);
                checkData(dExact, 1, 10 * round + 2, len);
                elan_gsync(base.allGroup);
            }
        }
    }

    // ------------------------------------------------------------------ a probe is not a match

    static final int[] PS_SIZES = {200, 500_000};

    /** 2 ranks. */
    static void probeSync()
    {
        for (int k = 0; k < PS_SIZES.length; k++)
        {
            final int len = PS_SIZES[k];
            elan_gsync(base.allGroup);
            if (me == 1)
            {
                final long t0 = elan_clock(base.state);
                final ElanEvent tx = elan_tportTxStart(tp, ELAN_TPORT_TXSYNC, 0, me, 80 + k, filled(k, len), len);
                while (elan_clock(base.state) - t0 < 800_000)
                {
                    check(!elan_tportTxDone(tx), "TXSYNC of " + len + " B done at " + (elan_clock(base.state) - t0)
                        + " ns, after the receiver's RXPROBE but before its receive (posted at 1 ms)");
                }
                elan_tportTxWait(tx);
            }
            else if (me == 0)
            {
                final long t0 = elan_clock(base.state);
                final long small = elan_allocMain(base.state, 64, 64);
                final long[] size = new long[1];
                elan_tportRxWait(elan_tportRxStart(tp, ELAN_TPORT_RXPROBE, -1, 1, -1, 80 + k, small, 64), null, null, size);
                check(size[0] == len, "RXPROBE saw " + size[0] + " B");
                while (elan_clock(base.state) - t0 < 1_000_000)
                {
                    // compute
                }
                final long buf = elan_allocMain(base.state, 64, len);
                final long d = elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 80 + k, buf, len), null, null, null);
                checkData(d, 1, k, len);
            }
        }
    }
}
