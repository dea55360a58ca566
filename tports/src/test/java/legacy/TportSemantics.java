package legacy;

import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXPROBE;
import static org.qsnet.tports.Tports.ELAN_TPORT_TXSYNC;
import static org.qsnet.tports.Tports.elan_tportInit;
import static org.qsnet.tports.Tports.elan_tportRxDone;
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
 * Tports semantics a porting user relies on, written from ELAN-API.md §2.6 only (a C program's
 * call sequence with its globals as static fields): mask/selector matching of tag and sender
 * (§2.6.4, Charm++'s {@code tagMask = 1}), ordering between a pair and posting order (§2.6.6),
 * {@code ELAN_TPORT_TXSYNC} completing only once matched (§2.6.5), {@code ELAN_TPORT_RXPROBE} and
 * {@code elan_tportRxPoll} not consuming (§2.6.3, §2.6.5), and a too-small receive buffer never being
 * overrun. {@code args[0]} names the scenario; every rank checks what it sees and throws when it
 * differs (which fails the job); rank 0 prints {@code ok <scenario>} at the end.
 */
public final class TportSemantics
{
    // C globals
    static ElanBase base;
    static Tport tp;
    static int me;
    static int nvp;

    private TportSemantics()
    {
    }

    /**
     * @param args the scenario: mask, order, sync, probe or small-buffer.
     */
    public static void main(final String[] args)
    {
        base = elan_baseInit(0);
        me = base.state.vp;
        nvp = base.state.nvp;
        tp = elan_tportInit(base.state, elan_gallocQueue(base, base.allGroup), base.tport_nslots, base.tport_smallmsg,
            base.tport_bigmsg, base.tport_stripemsg, base.waitType, base.retryCount, base.shm_key, base.shm_fifodepth,
            base.shm_fragsize, base.tport_flags);
        check(tp != null, "elan_tportInit returned NULL");
        switch (args[0])
        {
            case "mask" -> mask();
            case "order" -> order();
            case "sync" -> sync();
            case "probe" -> probe();
            case "small-buffer" -> smallBuffer();
            case "flood" -> flood();
            case "mixed-path" -> mixedPath();
            case "sync-probe" -> syncProbe();
            default -> throw new IllegalArgumentException(args[0]);
        }
        elan_gsync(base.allGroup);
        if (me == 0)
        {
            System.out.println("ok " + args[0]);
        }
    }

    /** Byte i of message {@code seq} from {@code from} to {@code to}. */
    static byte[] pattern(final int from, final int to, final int seq, final int len)
    {
        final byte[] b = new byte[len];
        int x = from * 0x9E3779B1 ^ to * 0x85EBCA77 ^ seq * 0xC2B2AE3D;
        for (int i = 0; i < len; i++)
        {
            x = x * 1_103_515_245 + 12_345;
            b[i] = (byte)(x >>> 16);
        }
        return b;
    }

    static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException("rank " + me + ": " + what);
        }
    }

    /** Sends {@code len} bytes whose first int is {@code mark} (when len >= 4) and the rest a pattern; returns the event. */
    static ElanEvent send(final int flags, final int to, final int tag, final int len, final int mark)
    {
        final long buf = elan_allocMain(base.state, 64, Math.max(4, len));
        final byte[] b = pattern(me, to, mark, len);
        base.ctx().write(buf, b, 0, len);
        if (len >= 4)
        {
            base.ctx().putInt(buf, mark);
        }
        return elan_tportTxStart(tp, flags, to, me, tag, buf, len);
    }

    /** Checks a received message's bytes against what {@link #send} made. */
    static void checkData(final long data, final int from, final int len, final int mark)
    {
        final byte[] want = pattern(from, me, mark, len);
        if (len >= 4)
        {
            check(base.ctx().getInt(data) == mark, "first word " + base.ctx().getInt(data) + ", expected mark " + mark);
        }
        final byte[] got = new byte[len];
        base.ctx().read(data, got, 0, len);
        for (int i = 4; i < len; i++)
        {
            check(got[i] == want[i], "byte " + i + " of the " + len + "-byte message " + mark + " from " + from + " is "
                + got[i] + ", expected " + want[i]);
        }
    }

    // ------------------------------------------------------------------ mask: §2.6.4

    /** 4 ranks. */
    static void mask()
    {
        check(nvp == 4, "needs 4 ranks");
        final int[] sender = new int[1];
        final int[] tag = new int[1];
        final long[] size = new long[1];
        // (a) Charm++: tagMask 1, tagSel 1 catches the odd tags, tagMask 1, tagSel 0 the even ones; posted first
        if (me == 0)
        {
            final ElanEvent[] odd = new ElanEvent[3];
            final ElanEvent[] even = new ElanEvent[3];
            final long[] oddBuf = new long[3];
            final long[] evenBuf = new long[3];
            for (int i = 0; i < 3; i++)
            {
                oddBuf[i] = elan_allocMain(base.state, 64, 16);
                odd[i] = elan_tportRxStart(tp, 0, 0, 0, 1, 1, oddBuf[i], 16);
                evenBuf[i] = elan_allocMain(base.state, 64, 16);
                even[i] = elan_tportRxStart(tp, 0, 0, 0, 1, 0, evenBuf[i], 16);
            }
            elan_gsync(base.allGroup);
            for (int i = 0; i < 3; i++)
            {
                final long d = elan_tportRxWait(odd[i], sender, tag, size);
                check(tag[0] == 2 * i + 1 && sender[0] == 1 && size[0] == 16, "odd receive " + i + " (tagMask 1, tagSel 1) got tag "
                    + tag[0] + " from " + sender[0] + ", " + size[0] + " B; expected tag " + (2 * i + 1) + " from 1, 16 B");
                checkData(d, 1, 16, tag[0]);
                final long e = elan_tportRxWait(even[i], sender, tag, size);
                check(tag[0] == 2 * i + 2 && sender[0] == 1, "even receive " + i + " (tagMask 1, tagSel 0) got tag " + tag[0]
                    + ", expected " + (2 * i + 2));
                checkData(e, 1, 16, tag[0]);
            }
        }
        else
        {
            elan_gsync(base.allGroup);
            if (me == 1)
            {
                for (final int t : new int[] {2, 1, 4, 3, 6, 5})
                {
                    elan_tportTxWait(send(0, 0, t, 16, t));
                }
            }
        }
        elan_gsync(base.allGroup);

        // (b) sender mask ~1 with selector 2 takes senders 2 and 3, not 1; unexpected messages (sent before the receives)
        if (me != 0)
        {
            final ElanEvent ev = send(0, 0, 9, 40, 1000 + me);
            elan_gsync(base.allGroup);
            elan_tportTxWait(ev);
        }
        else
        {
            elan_gsync(base.allGroup);
            check(!elan_tportRxPoll(tp, -1, 0, -1, 9, sender, tag, size), "elan_tportRxPoll found a message from VP 0 to itself");
            boolean two = false;
            boolean three = false;
            for (int i = 0; i < 2; i++)
            {
                final long buf = elan_allocMain(base.state, 64, 40);
                final long d = elan_tportRxWait(elan_tportRxStart(tp, 0, ~1, 2, -1, 9, buf, 40), sender, tag, size);
                check(sender[0] == 2 || sender[0] == 3, "receive " + i + " with senderMask ~1, senderSel 2 matched sender "
                    + sender[0]);
                checkData(d, sender[0], 40, 1000 + sender[0]);
                two |= sender[0] == 2;
                three |= sender[0] == 3;
            }
            check(two && three, "senders 2 and 3 each once");
            final long buf = elan_allocMain(base.state, 64, 40);
            final long d = elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 9, buf, 40), sender, tag, size);
            check(sender[0] == 1 && tag[0] == 9, "exact sender 1 got " + sender[0]);
            checkData(d, 1, 40, 1001);
        }
        elan_gsync(base.allGroup);

        // (c) high tag bits: mask 0xff00, selector 0x0300 takes 0x0342, not the earlier 0x0442
        if (me == 2)
        {
            elan_tportTxWait(send(0, 0, 0x0442, 24, 0x0442));
            elan_tportTxWait(send(0, 0, 0x0342, 24, 0x0342));
        }
        if (me == 0)
        {
            final long buf = elan_allocMain(base.state, 64, 24);
            final long d = elan_tportRxWait(elan_tportRxStart(tp, 0, 0, 0, 0xff00, 0x0300, buf, 24), sender, tag, size);
            check(tag[0] == 0x0342 && sender[0] == 2, "tagMask 0xff00 tagSel 0x0300 got tag 0x" + Integer.toHexString(tag[0]));
            checkData(d, 2, 24, 0x0342);
            final long buf2 = elan_allocMain(base.state, 64, 24);
            final long d2 = elan_tportRxWait(elan_tportRxStart(tp, 0, 0, 0, -1, 0x0442, buf2, 24), sender, tag, size);
            check(tag[0] == 0x0442, "exact 0x0442 got 0x" + Integer.toHexString(tag[0]));
            checkData(d2, 2, 24, 0x0442);
        }
    }

    // ------------------------------------------------------------------ order: §2.6.6

    static final int[] ORDER_SIZES = {70_000, 8, 3000, 0, 150_000, 16, 400, 100_000, 4};

    /** 2 ranks: one sender, one tag, sizes mixing inline, buffered and pulled messages; posted first, then unexpected. */
    static void order()
    {
        check(nvp == 2, "needs 2 ranks");
        final int max = 150_000;
        final int[] sender = new int[1];
        final int[] tag = new int[1];
        final long[] size = new long[1];
        for (final boolean postedFirst : new boolean[] {true, false})
        {
            final int base0 = postedFirst ? 0 : 100;
            if (me == 1)
            {
                if (postedFirst)
                {
                    elan_gsync(base.allGroup);
                }
                final ElanEvent[] ev = new ElanEvent[ORDER_SIZES.length];
                for (int i = 0; i < ev.length; i++)
                {
                    ev[i] = send(0, 0, 5, ORDER_SIZES[i], base0 + i);
                }
                if (!postedFirst)
                {
                    elan_gsync(base.allGroup);
                }
                for (final ElanEvent e : ev)
                {
                    elan_tportTxWait(e);
                }
            }
            else
            {
                final ElanEvent[] ev = new ElanEvent[ORDER_SIZES.length];
                final long[] buf = new long[ev.length];
                if (!postedFirst)
                {
                    elan_gsync(base.allGroup);
                }
                for (int i = 0; i < ev.length; i++)
                {
                    buf[i] = elan_allocMain(base.state, 64, max);
                    // every receive the same criteria: they complete in posting order with the messages in sending order
                    ev[i] = elan_tportRxStart(tp, 0, -1, 1, -1, 5, buf[i], max);
                }
                if (postedFirst)
                {
                    elan_gsync(base.allGroup);
                }
                for (int i = 0; i < ev.length; i++)
                {
                    final long d = elan_tportRxWait(ev[i], sender, tag, size);
                    check(size[0] == ORDER_SIZES[i], (postedFirst ? "posted" : "unexpected") + " receive " + i + " got "
                        + size[0] + " B, expected message " + i + " of " + ORDER_SIZES[i] + " B (overtaken?)");
                    check(d == buf[i], "receive " + i + " returned 0x" + Long.toHexString(d) + ", not its buffer 0x"
                        + Long.toHexString(buf[i]) + " (no RXBUF)");
                    checkData(d, 1, ORDER_SIZES[i], base0 + i);
                }
            }
            elan_gsync(base.allGroup);
        }
    }

    // ------------------------------------------------------------------ sync: §2.6.5

    /** 2 ranks. */
    static void sync()
    {
        check(nvp == 2, "needs 2 ranks");
        final int[] tag = new int[1];
        if (me == 1)
        {
            // a small ordinary send completes without a matching receive (buffered at the receiver)
            final ElanEvent plain = send(0, 0, 3, 32, 3);
            long spins = 0;
            while (!elan_tportTxDone(plain))
            {
                check(++spins < 10_000_000, "an ordinary 32-byte send did not complete before its receive was posted");
            }
            elan_tportTxWait(plain);
            // a synchronous one does not, however long we poll: rank 0 posts its receive only after tag 2
            final ElanEvent sync = send(ELAN_TPORT_TXSYNC, 0, 1, 32, 1);
            for (int i = 0; i < 2000; i++)
            {
                check(!elan_tportTxDone(sync), "TXSYNC send done after " + i + " polls, before the receiver posted a receive");
            }
            elan_tportTxWait(send(0, 0, 2, 8, 2));
            elan_tportTxWait(sync);
            // the same for a big synchronous send
            final ElanEvent bigSync = send(ELAN_TPORT_TXSYNC, 0, 4, 50_000, 4);
            for (int i = 0; i < 2000; i++)
            {
                check(!elan_tportTxDone(bigSync), "big TXSYNC send done before the receiver posted a receive");
            }
            elan_tportTxWait(send(0, 0, 2, 8, 22));
            elan_tportTxWait(bigSync);
        }
        else
        {
            final long b2 = elan_allocMain(base.state, 64, 8);
            elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 2, b2, 8), null, tag, null);
            check(tag[0] == 2, "tag " + tag[0]);
            final long b1 = elan_allocMain(base.state, 64, 32);
            checkData(elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 1, b1, 32), null, null, null), 1, 32, 1);
            final long b3 = elan_allocMain(base.state, 64, 32);
            checkData(elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 3, b3, 32), null, null, null), 1, 32, 3);
            elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 2, b2, 8), null, null, null);
            final long b4 = elan_allocMain(base.state, 64, 50_000);
            checkData(elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 4, b4, 50_000), null, null, null), 1, 50_000, 4);
        }
    }

    // ------------------------------------------------------------------ probe: §2.6.3, §2.6.5

    /** 2 ranks. */
    static void probe()
    {
        check(nvp == 2, "needs 2 ranks");
        final int[] sender = new int[1];
        final int[] tag = new int[1];
        final long[] size = {-1};
        if (me == 1)
        {
            final ElanEvent a = send(0, 0, 7, 1234, 7);
            final ElanEvent b = send(0, 0, 8, 10, 8);
            final ElanEvent c = send(0, 0, 11, 90_000, 11);
            elan_tportTxWait(a);
            elan_tportTxWait(b);
            elan_tportTxWait(c);
            return;
        }
        check(!elan_tportRxPoll(tp, -1, 1, -1, 99, sender, tag, size), "elan_tportRxPoll found a tag 99 nobody sent");
        check(size[0] == -1, "elan_tportRxPoll wrote size " + size[0] + " though it returned false");
        // a probe: sender, tag and size, no data, the message stays
        final ElanEvent p = elan_tportRxStart(tp, ELAN_TPORT_RXPROBE, -1, 1, -1, 7, 0, 0);
        final long pd = elan_tportRxWait(p, sender, tag, size);
        check(sender[0] == 1 && tag[0] == 7 && size[0] == 1234, "RXPROBE got sender " + sender[0] + " tag " + tag[0] + " size "
            + size[0] + "; expected 1, 7, 1234");
        check(pd == 0, "RXPROBE returned data 0x" + Long.toHexString(pd));
        // poll: still there; a wildcard tag finds the first one sent (tag 7), not tag 8
        check(elan_tportRxPoll(tp, -1, 1, -1, 7, sender, tag, size) && size[0] == 1234, "after RXPROBE the message is gone");
        check(elan_tportRxPoll(tp, 0, 0, 0, 0, sender, tag, size) && tag[0] == 7, "wildcard poll found tag " + tag[0]
            + ", not the first sent (7)");
        // a probe of the big one (not yet pulled) reports its full size
        long spins = 0;
        while (!elan_tportRxPoll(tp, -1, 1, -1, 11, sender, tag, size))
        {
            check(++spins < 10_000_000, "the 90000-byte message never showed in elan_tportRxPoll");
        }
        check(size[0] == 90_000, "poll of the big message: size " + size[0]);
        // now receive all three at their probed sizes, out of sending order (different tags)
        final long b11 = elan_allocMain(base.state, 64, 90_000);
        checkData(elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 11, b11, 90_000), null, null, size), 1, 90_000, 11);
        final long b7 = elan_allocMain(base.state, 64, 1234);
        checkData(elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 7, b7, 1234), null, null, null), 1, 1234, 7);
        check(!elan_tportRxPoll(tp, -1, 1, -1, 7, sender, tag, size), "tag 7 still there after it was received");
        final ElanEvent p8 = elan_tportRxStart(tp, ELAN_TPORT_RXPROBE, 0, 0, 0, 0, 0, 0);
        spins = 0;
        while (!elan_tportRxDone(p8))
        {
            check(++spins < 10_000_000, "probe of tag 8 never done");
        }
        elan_tportRxWait(p8, sender, tag, size);
        check(tag[0] == 8 && size[0] == 10, "the wildcard probe got tag " + tag[0] + " size " + size[0]);
        final long b8 = elan_allocMain(base.state, 64, 10);
        checkData(elan_tportRxWait(elan_tportRxStart(tp, 0, 0, 0, 0, 0, b8, 10), null, null, null), 1, 10, 8);
        check(!elan_tportRxPoll(tp, 0, 0, 0, 0, sender, tag, size), "a message left over");
    }

    // ------------------------------------------------------------------ flood

    /**
     * 2 ranks: the sender sends 40 small messages (each waited for: an eager send needs no receive)
     * before the receiver posts any (it is in a barrier, a library call), as a runtime pushing
     * notifications does.
     */
    static void flood()
    {
        check(nvp == 2, "needs 2 ranks");
        final int n = 40;
        if (me == 1)
        {
            for (int i = 0; i < n; i++)
            {
                elan_tportTxWait(send(0, 0, 12, 64, i));
            }
            elan_gsync(base.allGroup);
            return;
        }
        elan_gsync(base.allGroup);
        final long buf = elan_allocMain(base.state, 64, 64);
        final long[] size = new long[1];
        for (int i = 0; i < n; i++)
        {
            final long d = elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 12, buf, 64), null, null, size);
            check(size[0] == 64, "size " + size[0]);
            checkData(d, 1, 64, i);
        }
    }

    // ------------------------------------------------------------------ mixed-path

    /**
     * 2 ranks (on one node: a message above shm_bigmsg takes the NIC, a small one shared memory):
     * a big message, then small ones, same tag; the receives, posted first or not, take them in
     * sending order.
     */
    static void mixedPath()
    {
        check(nvp == 2, "needs 2 ranks");
        final int big = Math.max(base.shm_bigmsg, base.tport_bigmsg) + 4096;
        final int[] sizes = {big, 8, 100, big, 0};
        final long[] size = new long[1];
        for (final boolean postedFirst : new boolean[] {true, false})
        {
            if (me == 1)
            {
                if (postedFirst)
                {
                    elan_gsync(base.allGroup);
                }
                final ElanEvent[] ev = new ElanEvent[sizes.length];
                for (int i = 0; i < sizes.length; i++)
                {
                    ev[i] = send(0, 0, 21, sizes[i], 500 + i);
                }
                if (!postedFirst)
                {
                    elan_gsync(base.allGroup);
                }
                for (final ElanEvent e : ev)
                {
                    elan_tportTxWait(e);
                }
            }
            else
            {
                if (!postedFirst)
                {
                    elan_gsync(base.allGroup);
                }
                final ElanEvent[] ev = new ElanEvent[sizes.length];
                final long[] buf = new long[sizes.length];
                for (int i = 0; i < sizes.length; i++)
                {
                    buf[i] = elan_allocMain(base.state, 64, big);
                    ev[i] = elan_tportRxStart(tp, 0, -1, 1, -1, 21, buf[i], big);
                }
                if (postedFirst)
                {
                    elan_gsync(base.allGroup);
                }
                for (int i = 0; i < sizes.length; i++)
                {
                    final long d = elan_tportRxWait(ev[i], null, null, size);
                    check(size[0] == sizes[i], (postedFirst ? "posted" : "unexpected") + " receive " + i + " got " + size[0]
                        + " B, expected message " + i + " (" + sizes[i] + " B): overtaken");
                    checkData(d, 1, sizes[i], 500 + i);
                }
            }
            elan_gsync(base.allGroup);
        }
    }

    // ------------------------------------------------------------------ sync-probe

    /** 2 ranks: a probe that sees a TXSYNC message does not complete the send; the receive does. */
    static void syncProbe()
    {
        check(nvp == 2, "needs 2 ranks");
        final int[] tag = new int[1];
        final long[] size = new long[1];
        for (final int len : new int[] {16, 40_000})
        {
            if (me == 1)
            {
                final ElanEvent sync = send(ELAN_TPORT_TXSYNC, 0, 30, len, 30);
                // rank 0 probes, then tells us (tag 31), then receives only after our answer (tag 32)
                final long b = elan_allocMain(base.state, 64, 8);
                elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 0, -1, 31, b, 8), null, null, null);
                for (int i = 0; i < 1000; i++)
                {
                    check(!elan_tportTxDone(sync), "a TXSYNC send of " + len + " B completed when the receiver only probed it");
                }
                elan_tportTxWait(send(0, 0, 32, 8, 32));
                elan_tportTxWait(sync);
            }
            else
            {
                elan_tportRxWait(elan_tportRxStart(tp, ELAN_TPORT_RXPROBE, -1, 1, -1, 30, 0, 0), null, tag, size);
                check(tag[0] == 30 && size[0] == len, "probe: tag " + tag[0] + " size " + size[0]);
                elan_tportTxWait(send(0, 1, 31, 8, 31));
                final long b = elan_allocMain(base.state, 64, 8);
                elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 32, b, 8), null, null, null);
                final long d = elan_allocMain(base.state, 64, len);
                checkData(elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 30, d, len), null, null, null), 1, len, 30);
            }
            elan_gsync(base.allGroup);
        }
    }

    // ------------------------------------------------------------------ small-buffer

    /** 2 ranks: 100 bytes into a 50-byte receive; the bytes after the buffer stay as they were. */
    static void smallBuffer()
    {
        check(nvp == 2, "needs 2 ranks");
        if (me == 1)
        {
            elan_tportTxWait(send(0, 0, 6, 100, 6));
            return;
        }
        final long buf = elan_allocMain(base.state, 64, 128);
        for (int i = 0; i < 128; i += 4)
        {
            base.ctx().putInt(buf + i, 0x5a5a5a5a);
        }
        final long[] size = new long[1];
        RuntimeException failure = null;
        try
        {
            elan_tportRxWait(elan_tportRxStart(tp, 0, -1, 1, -1, 6, buf, 50), null, null, size);
        }
        catch (final RuntimeException e)
        {
            failure = e;
        }
        for (int i = 52; i < 128; i += 4)
        {
            check(base.ctx().getInt(buf + i) == 0x5a5a5a5a, "a 100-byte message overran the 50-byte receive buffer at offset " + i);
        }
        if (failure != null)
        {
            final String m = String.valueOf(failure.getMessage());
            check(m.contains("100") && m.contains("50"), "the truncation error does not give both sizes: " + m);
            System.out.println("truncation reported: " + m);
        }
        else
        {
            check(size[0] <= 50, "receive of 50 B reports size " + size[0]);
            System.out.println("truncated to " + size[0]);
        }
    }
}
