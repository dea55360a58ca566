package legacy;

import static org.qsnet.elan.Elanlib.ELAN_POLL_EVENT;
import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_clock;
import static org.qsnet.elan.Elanlib.elan_free;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_poll;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXANY;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXBUF;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXPROBE;
import static org.qsnet.tports.Tports.elan_tportBufFree;
import static org.qsnet.tports.Tports.elan_tportInit;
import static org.qsnet.tports.Tports.elan_tportRxDone;
import static org.qsnet.tports.Tports.elan_tportRxStart;
import static org.qsnet.tports.Tports.elan_tportRxWait;
import static org.qsnet.tports.Tports.elan_tportTxStart;
import static org.qsnet.tports.Tports.elan_tportTxWait;

import java.util.function.Supplier;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.tports.Tport;

/**
 * The second outside round for Tports, written from ELAN-API.md §2.6 only (a C program's calls,
 * its globals static fields). {@code args[0]} names the scenario; rank 0 prints {@code ok <scenario>}.
 * <ul>
 * <li>{@code unexpected}: every other rank sends rank 0 messages of 0 B to 2.5 MB (inline, big,
 * fragmented, above shm_bigmsg) before rank 0 posts anything; rank 0 computes, then posts its
 * receives in an order unrelated to the sends, matching them with tag masks (one
 * {@code tagMask 0xff00} receive per sender catches that sender's messages in send order; the
 * sender's bits are in the tag's high byte); some receives with {@code ELAN_TPORT_RXBUF} (a system
 * buffer may come back, freed with {@code elan_tportBufFree}); every byte checked.</li>
 * <li>{@code probe-any}: {@code ELAN_TPORT_RXPROBE} with wildcard masks and
 * {@code ELAN_TPORT_RXANY} report a pending big message's sender, tag and size without taking it;
 * the real receive of that size then gets it.</li>
 * <li>{@code bad-arguments}: a receive's event waited twice, a NULL buffer, a receive flag that
 * does not exist, a sender VP outside the job: each refused naming the argument and the value;
 * the port still works after.</li>
 * </ul>
 */
public final class TportRound2
{
    // C globals
    static ElanBase base;
    static Tport tp;
    static int me;
    static int nvp;

    static final int[] SIZES = {0, 3, 287, 288, 5000, 65_537, 1_100_000, 2_500_000};

    private TportRound2()
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
        switch (args[0])
        {
            case "unexpected" -> unexpected();
            case "probe-any" -> probeAny();
            case "bad-arguments" -> badArguments();
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
        return (byte)(from * 17 + k * 5 + i * 3 + (i >>> 10));
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

    // ------------------------------------------------------------------ unexpected

    static void unexpected()
    {
        if (me != 0)
        {
            final ElanEvent[] tx = new ElanEvent[SIZES.length];
            for (int k = 0; k < SIZES.length; k++)
            {
                // tag: the sender in the high byte, the message index in the low byte
                tx[k] = elan_tportTxStart(tp, 0, 0, me, (me << 8) | k, filled(k, SIZES[k]), SIZES[k]);
            }
            for (final ElanEvent e : tx)
            {
                elan_tportTxWait(e);
            }
            return;
        }
        compute(2_000_000); // every envelope has arrived, nothing posted
        // senders in reverse order; per sender, one masked receive per message, posted all at once
        for (int from = nvp - 1; from >= 1; from--)
        {
            final ElanEvent[] rx = new ElanEvent[SIZES.length];
            final long[] bufs = new long[SIZES.length];
            for (int k = 0; k < SIZES.length; k++)
            {
                bufs[k] = elan_allocMain(base.state, 64, SIZES[k] + 64);
                check(bufs[k] != 0, "elan_allocMain of " + (SIZES[k] + 64) + " B failed");
                // RXBUF on an inline, an above-bigmsg (shared memory between ranks of a node) and a 2.5 MB message
                final boolean rxbuf = k == 1 || k == 5 || k == 7;
                final int flags = rxbuf ? ELAN_TPORT_RXBUF : 0;
                // any sender (mask 0): the tag mask alone picks this sender's messages
                rx[k] = elan_tportRxStart(tp, flags, 0, 0, 0xff00, from << 8, bufs[k], SIZES[k] + 64);
            }
            for (int k = 0; k < SIZES.length; k++)
            {
                final int[] sender = new int[1];
                final int[] tag = new int[1];
                final long[] size = new long[1];
                final long data = elan_tportRxWait(rx[k], sender, tag, size);
                check(sender[0] == from && tag[0] == ((from << 8) | k) && size[0] == SIZES[k], "receive " + k + " for sender "
                    + from + " got sender " + sender[0] + " tag 0x" + Integer.toHexString(tag[0]) + " size " + size[0]
                    + " (expected tag 0x" + Integer.toHexString((from << 8) | k) + ", " + SIZES[k] + " B: posting order)");
                checkData(data, from, k, SIZES[k]);
                if (data != bufs[k])
                {
                    check(k == 1 || k == 5 || k == 7, "data returned outside the user buffer without ELAN_TPORT_RXBUF");
                    elan_tportBufFree(tp, data);
                }
                elan_free(base.state, bufs[k]);
            }
        }
    }

    // ------------------------------------------------------------------ probe with wildcards

    static void probeAny()
    {
        final int len = 300_000;
        if (me == 1)
        {
            elan_tportTxWait(elan_tportTxStart(tp, 0, 0, me, 0x4242, filled(7, len), len));
            return;
        }
        if (me != 0)
        {
            return;
        }
        final long small = elan_allocMain(base.state, 64, 64);
        final int[] sender = new int[1];
        final int[] tag = new int[1];
        final long[] size = new long[1];
        final ElanEvent p = elan_tportRxStart(tp, ELAN_TPORT_RXPROBE, 0, 0, 0, 0, small, 64);
        elan_tportRxWait(p, sender, tag, size);
        check(sender[0] == 1 && tag[0] == 0x4242 && size[0] == len, "RXPROBE with zero masks saw sender " + sender[0] + " tag 0x"
            + Integer.toHexString(tag[0]) + " size " + size[0]);
        final ElanEvent p2 = elan_tportRxStart(tp, ELAN_TPORT_RXPROBE | ELAN_TPORT_RXANY, 0, 0, 0, 0, small, 64);
        elan_tportRxWait(p2, sender, tag, size);
        check(size[0] == len, "a second probe (RXANY) sees " + size[0] + " B: the first probe consumed the message");
        final long buf = elan_allocMain(base.state, 64, len);
        final ElanEvent r = elan_tportRxStart(tp, ELAN_TPORT_RXANY, 0, 0, 0, 0, buf, size[0]);
        final long data = elan_tportRxWait(r, sender, tag, size);
        check(size[0] == len && data == buf, "the receive after the probes got " + size[0] + " B");
        checkData(data, 1, 7, len);
        // nothing left
        final ElanEvent none = elan_tportRxStart(tp, ELAN_TPORT_RXPROBE, 0, 0, 0, 0, small, 64);
        for (int i = 0; i < 100; i++)
        {
            check(!elan_tportRxDone(none), "a probe completed with nothing sent");
        }
        check(!elan_poll(none, ELAN_POLL_EVENT), "elan_poll of a probe with nothing sent");
    }

    // ------------------------------------------------------------------ bad arguments

    static void refused(final String what, final String arg, final String value, final Supplier<Object> call)
    {
        final Object r;
        try
        {
            r = call.get();
        }
        catch (final RuntimeException e)
        {
            final String m = String.valueOf(e.getMessage());
            check(e instanceof org.qsnet.fabric.QsnetException, what + ": threw " + e + ", not the project's QsnetException");
            check(m.contains(arg) && m.contains(value), what + ": the error does not name " + arg + " = " + value + ": " + m);
            if (me == 0)
            {
                System.out.println(what + ": " + m);
            }
            return;
        }
        check(false, what + ": accepted (returned " + r + ")");
    }

    static void badArguments()
    {
        final int peer = (me + 1) % nvp;
        final int from = (me + nvp - 1) % nvp;
        final long buf = elan_allocMain(base.state, 64, 4096);
        // a completed receive waited a second time
        final ElanEvent tx = elan_tportTxStart(tp, 0, peer, me, 5, buf, 16);
        final ElanEvent rx = elan_tportRxStart(tp, 0, -1, from, -1, 5, buf + 1024, 64);
        elan_tportRxWait(rx, null, null, null);
        elan_tportTxWait(tx);
        refused("elan_tportRxWait of a consumed event", "event", "", () -> elan_tportRxWait(rx, null, null, null));
        refused("elan_tportTxWait of a consumed event", "event", "", () ->
        {
            elan_tportTxWait(tx);
            return null;
        });
        refused("elan_tportRxStart into a NULL buffer", "buf", "0x0", () -> elan_tportRxStart(tp, 0, 0, 0, 0, 0, 0, 64));
        refused("elan_tportTxStart from a NULL buffer", "buf", "0x0", () -> elan_tportTxStart(tp, 0, peer, me, 1, 0, 400));
        refused("elan_tportRxStart with an unknown flag", "flags", "0x4000",
            () -> elan_tportRxStart(tp, 0x4000, 0, 0, 0, 0, buf, 64));
        refused("elan_tportTxStart naming another VP as the sender", "myVp", Integer.toString(nvp),
            () -> elan_tportTxStart(tp, 0, peer, nvp, 1, buf, 16));
        // the port still works
        elan_gsync(base.allGroup);
        base.ctx().putInt(buf, 4242 + me);
        final ElanEvent t2 = elan_tportTxStart(tp, 0, peer, me, 6, buf, 4);
        final ElanEvent r2 = elan_tportRxStart(tp, 0, -1, from, -1, 6, buf + 2048, 64);
        final long d = elan_tportRxWait(r2, null, null, null);
        elan_tportTxWait(t2);
        check(base.ctx().getInt(d) == 4242 + from, "the message after the refused calls holds " + base.ctx().getInt(d));
    }
}
