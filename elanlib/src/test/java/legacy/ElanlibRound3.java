package legacy;

import static org.qsnet.elan.Elanlib.ELAN_RAIL_ALL;
import static org.qsnet.elan.Elanlib.ELAN_RESULT_ALL;
import static org.qsnet.elan.Elanlib.ELAN_WAIT_EVENT;
import static org.qsnet.elan.Elanlib.LIBELAN_QUEUEREUSEBUF;
import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_clock;
import static org.qsnet.elan.Elanlib.elan_doget;
import static org.qsnet.elan.Elanlib.elan_done;
import static org.qsnet.elan.Elanlib.elan_doput;
import static org.qsnet.elan.Elanlib.elan_gallocMain;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_get;
import static org.qsnet.elan.Elanlib.elan_getWaitAll;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_mainQueueInit;
import static org.qsnet.elan.Elanlib.elan_put;
import static org.qsnet.elan.Elanlib.elan_putWaitAll;
import static org.qsnet.elan.Elanlib.elan_putgetInit;
import static org.qsnet.elan.Elanlib.elan_queueHaveReq;
import static org.qsnet.elan.Elanlib.elan_queueReq;
import static org.qsnet.elan.Elanlib.elan_queueRxInit;
import static org.qsnet.elan.Elanlib.elan_queueRxWait;
import static org.qsnet.elan.Elanlib.elan_queueTx;
import static org.qsnet.elan.Elanlib.elan_queueTxInit;
import static org.qsnet.elan.Elanlib.elan_queueWait;
import static org.qsnet.elan.Elanlib.elan_reduce;
import static org.qsnet.elan.Elanlib.elan_wait;

import java.util.function.Supplier;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;

/**
 * The third outside round for Elanlib, written from ELAN-API.md §2.5, §2.7–§2.9 only (a C
 * program's calls, its globals static fields). {@code args[0]} names the scenario; rank 0 prints
 * {@code ok <scenario>}.
 * <ul>
 * <li>{@code mainqueue}: the older main-queue API ({@code elan_mainQueueInit} with 2 slots,
 * {@code elan_queueReq}, {@code elan_queueHaveReq}, {@code elan_queueWait}): every other member
 * sends 25 blocking requests to a busy member 0; none lost, reordered or corrupted.</li>
 * <li>{@code reusebuf}: {@code elan_queueTx} on a queue opened with {@code LIBELAN_QUEUEREUSEBUF}
 * ("the library copies the message on entry, so the caller's buffer is reusable at once"): the
 * buffer is overwritten right after the call, before any wait; the receiver sees what was sent.</li>
 * <li>{@code reduce}: {@code elan_reduce} without {@code ELAN_REDUCE_COMMUTE} of 2x2 integer
 * matrices (16-byte elements, 6000 of them: more than one staging buffer) at root 2 and with
 * {@code ELAN_RESULT_ALL}: the product in group order.</li>
 * <li>{@code putget}: puts and gets of 1 B to 1.5 MB between every pair ({@code elan_put}/
 * {@code elan_get} then {@code elan_putWaitAll}/{@code elan_getWaitAll}, and {@code elan_doput}/
 * {@code elan_doget} through a throttled {@code elan_putgetInit} handle); every byte checked; run
 * with link CRC errors.</li>
 * <li>{@code events}: an event the program holds stays its own until it waits for it (§2.4: "block
 * until complete, then release the event"): small puts tested with {@code elan_done}, more puts
 * issued, then the events waited in order, then more small puts, whose data must arrive intact;
 * {@code elan_doget}/{@code elan_doput} through a handle with a throttle of 2 return events the
 * program can still wait for after the throttle made a later call wait for them.</li>
 * <li>{@code bad-arguments}: calls rounds 1 and 2 did not give bad arguments to (the main-queue
 * API, {@code elan_putgetInit}, {@code elan_hbcast}, {@code elan_link}, {@code elan_gallocElan},
 * {@code elan_queueRxInit}'s slot size): each refused naming the argument and the value; the
 * library still works after.</li>
 * </ul>
 */
public final class ElanlibRound3
{
    // C globals
    static ElanBase base;
    static int me;
    static int nvp;

    private ElanlibRound3()
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
        switch (args[0])
        {
            case "mainqueue" -> mainqueue();
            case "reusebuf" -> reusebuf();
            case "reduce" -> reduce();
            case "putget" -> putget();
            case "events" -> events();
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

    static void compute(final long ns)
    {
        final long end = elan_clock(base.state) + ns;
        while (elan_clock(base.state) < end)
        {
            // busy
        }
    }

    static byte pattern(final int from, final int k, final int i)
    {
        return (byte)(from * 29 + k * 11 + i * 7 + (i >>> 8));
    }

    static void fill(final long buf, final int from, final int k, final int len)
    {
        final byte[] b = new byte[len];
        for (int i = 0; i < len; i++)
        {
            b[i] = pattern(from, k, i);
        }
        base.ctx().write(buf, b, 0, len);
    }

    static void checkData(final long at, final int from, final int k, final int len, final String what)
    {
        final byte[] got = new byte[len];
        base.ctx().read(at, got, 0, len);
        for (int i = 0; i < len; i++)
        {
            check(got[i] == pattern(from, k, i), what + ": byte " + i + " of " + len + " is " + got[i] + ", expected "
                + pattern(from, k, i));
        }
    }

    // ------------------------------------------------------------------ main queue

    static void mainqueue()
    {
        final int slot = 128;
        final ElanQueue.Main mq = elan_mainQueueInit(base.state, elan_gallocQueue(base, base.allGroup), 2, slot, 0);
        final int msgs = 25;
        elan_gsync(base.allGroup);
        if (me != 0)
        {
            final long buf = elan_allocMain(base.state, 64, slot);
            for (int i = 0; i < msgs; i++)
            {
                final int len = 8 + (i * 13 + me) % (slot - 8);
                fill(buf, me, i, len);
                base.ctx().putInt(buf, me);
                base.ctx().putInt(buf + 4, i);
                elan_queueReq(mq, 0, buf, len);
            }
            return;
        }
        compute(200_000); // both slots fill; the senders must wait
        final int[] next = new int[nvp];
        final long in = elan_allocMain(base.state, 64, slot);
        for (int k = 0; k < msgs * (nvp - 1); k++)
        {
            while (!elan_queueHaveReq(mq))
            {
                // poll, as a C progress loop does
            }
            elan_queueWait(mq, in, ELAN_WAIT_EVENT);
            final int from = base.ctx().getInt(in);
            final int seq = base.ctx().getInt(in + 4);
            check(from >= 1 && from < nvp && seq == next[from], "message " + k + ": from " + from + " seq " + seq
                + ", expected seq " + (from >= 1 && from < nvp ? next[from] : -1) + " (lost or reordered)");
            final int len = 8 + (seq * 13 + from) % (slot - 8);
            final byte[] got = new byte[len];
            base.ctx().read(in, got, 0, len);
            for (int i = 8; i < len; i++)
            {
                check(got[i] == pattern(from, seq, i), "from " + from + " message " + seq + ": byte " + i);
            }
            next[from]++;
        }
        check(!elan_queueHaveReq(mq), "a message too many");
    }

    // ------------------------------------------------------------------ LIBELAN_QUEUEREUSEBUF

    static void reusebuf()
    {
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        final ElanQueue.Rx rx = elan_queueRxInit(base.state, q, 8, 320, ELAN_RAIL_ALL, 0);
        final ElanQueue.Tx tx = elan_queueTxInit(base.state, q, ELAN_RAIL_ALL, LIBELAN_QUEUEREUSEBUF);
        final int msgs = 6;
        elan_gsync(base.allGroup);
        if (me != 0)
        {
            final long buf = elan_allocMain(base.state, 64, 320);
            final ElanEvent[] ev = new ElanEvent[msgs];
            for (int i = 0; i < msgs; i++)
            {
                fill(buf, me, i, 300);
                base.ctx().putInt(buf, me);
                base.ctx().putInt(buf + 4, i);
                ev[i] = elan_queueTx(tx, 0, buf, 300, ELAN_RAIL_ALL);
                // reusable at once: scribble over it before any wait
                fill(buf, 99, 99, 300);
                base.ctx().putInt(buf, -1);
                base.ctx().putInt(buf + 4, -1);
            }
            for (final ElanEvent e : ev)
            {
                elan_wait(e, ELAN_WAIT_EVENT);
            }
            return;
        }
        final long in = elan_allocMain(base.state, 64, 320);
        final int[] next = new int[nvp];
        for (int k = 0; k < msgs * (nvp - 1); k++)
        {
            elan_queueRxWait(rx, in, ELAN_WAIT_EVENT);
            final int from = base.ctx().getInt(in);
            final int seq = base.ctx().getInt(in + 4);
            check(from >= 1 && from < nvp && seq == next[from], "message " + k + ": from " + from + " seq " + seq
                + " (the sender's later writes leaked into a LIBELAN_QUEUEREUSEBUF message?)");
            final byte[] got = new byte[300];
            base.ctx().read(in, got, 0, 300);
            for (int i = 8; i < 300; i++)
            {
                check(got[i] == pattern(from, seq, i), "from " + from + " message " + seq + ": byte " + i + " is " + got[i]
                    + " (overwritten after elan_queueTx returned)");
            }
            next[from]++;
        }
    }

    // ------------------------------------------------------------------ non-commutative reduce

    static void reduce()
    {
        final int n = 6000;
        final long src = elan_allocMain(base.state, 64, 16L * n);
        final long dst = elan_allocMain(base.state, 64, 16L * n);
        // element e of member m: [[1, m + e], [0, 1]] for even e, [[1, 0], [m + 1, 1]] for odd e
        for (int e = 0; e < n; e++)
        {
            final int[] v = e % 2 == 0 ? new int[] {1, me + e, 0, 1} : new int[] {1, 0, me + 1, 1};
            for (int j = 0; j < 4; j++)
            {
                base.ctx().putInt(src + 16L * e + 4L * j, v[j]);
            }
        }
        final int root = Math.min(2, nvp - 1);
        for (final int flags : new int[] {0, ELAN_RESULT_ALL})
        {
            for (int i = 0; i < 4 * n; i++)
            {
                base.ctx().putInt(dst + 4L * i, -7);
            }
            elan_reduce(base.allGroup, src, dst, 16, n, (in, inout, count, handle) ->
            {
                // inout = in x inout (in: the earlier operand)
                for (int k = 0; k < count[0]; k++)
                {
                    final long a = in + 16L * k;
                    final long b = inout + 16L * k;
                    final int a0 = base.ctx().getInt(a);
                    final int a1 = base.ctx().getInt(a + 4);
                    final int a2 = base.ctx().getInt(a + 8);
                    final int a3 = base.ctx().getInt(a + 12);
                    final int b0 = base.ctx().getInt(b);
                    final int b1 = base.ctx().getInt(b + 4);
                    final int b2 = base.ctx().getInt(b + 8);
                    final int b3 = base.ctx().getInt(b + 12);
                    base.ctx().putInt(b, a0 * b0 + a1 * b2);
                    base.ctx().putInt(b + 4, a0 * b1 + a1 * b3);
                    base.ctx().putInt(b + 8, a2 * b0 + a3 * b2);
                    base.ctx().putInt(b + 12, a2 * b1 + a3 * b3);
                }
            }, null, 0, 0, flags, root);
            if (flags == ELAN_RESULT_ALL || me == root)
            {
                for (int e = 0; e < n; e += 7)
                {
                    // products in group order: [[1, sum(m + e)], [0, 1]] and [[1, 0], [sum(m + 1), 1]]
                    final int[] want = e % 2 == 0 ? new int[] {1, nvp * (nvp - 1) / 2 + nvp * e, 0, 1}
                        : new int[] {1, 0, nvp * (nvp + 1) / 2, 1};
                    for (int j = 0; j < 4; j++)
                    {
                        final int got = base.ctx().getInt(dst + 16L * e + 4L * j);
                        check(got == want[j], "elan_reduce (flags " + flags + ", root " + root + ") element " + e + "[" + j + "] = "
                            + got + ", expected " + want[j]);
                    }
                }
            }
            elan_gsync(base.allGroup);
        }
        // a genuinely order-dependent product: member m contributes A for even m, B for odd m
        final long s1 = elan_allocMain(base.state, 64, 16);
        final long d1 = elan_allocMain(base.state, 64, 16);
        final int[] mine = me % 2 == 0 ? new int[] {1, 1, 0, 1} : new int[] {1, 0, 1, 1};
        for (int j = 0; j < 4; j++)
        {
            base.ctx().putInt(s1 + 4L * j, mine[j]);
        }
        elan_reduce(base.allGroup, s1, d1, 16, 1, (in, inout, count, handle) ->
        {
            final int a0 = base.ctx().getInt(in);
            final int a1 = base.ctx().getInt(in + 4);
            final int a2 = base.ctx().getInt(in + 8);
            final int a3 = base.ctx().getInt(in + 12);
            final int b0 = base.ctx().getInt(inout);
            final int b1 = base.ctx().getInt(inout + 4);
            final int b2 = base.ctx().getInt(inout + 8);
            final int b3 = base.ctx().getInt(inout + 12);
            base.ctx().putInt(inout, a0 * b0 + a1 * b2);
            base.ctx().putInt(inout + 4, a0 * b1 + a1 * b3);
            base.ctx().putInt(inout + 8, a2 * b0 + a3 * b2);
            base.ctx().putInt(inout + 12, a2 * b1 + a3 * b3);
        }, null, 0, 0, ELAN_RESULT_ALL, 0);
        int[] want = {1, 1, 0, 1};
        for (int m = 1; m < nvp; m++)
        {
            final int[] b = m % 2 == 0 ? new int[] {1, 1, 0, 1} : new int[] {1, 0, 1, 1};
            want = new int[] {want[0] * b[0] + want[1] * b[2], want[0] * b[1] + want[1] * b[3], want[2] * b[0] + want[3] * b[2],
                want[2] * b[1] + want[3] * b[3]};
        }
        for (int j = 0; j < 4; j++)
        {
            check(base.ctx().getInt(d1 + 4L * j) == want[j], "order-dependent elan_reduce [" + j + "] = "
                + base.ctx().getInt(d1 + 4L * j) + ", expected " + want[j]);
        }
    }

    // ------------------------------------------------------------------ puts and gets

    static final int[] LENS = {1, 63, 64, 65, 4097, 70_000, 1_500_000};

    static void putget()
    {
        long total = 0;
        for (final int l : LENS)
        {
            total += l;
        }
        // a symmetric area: one slot per (source, length) for puts
        final long area = elan_gallocMain(base, base.allGroup, 64, total * nvp);
        final long mine = elan_allocMain(base.state, 64, total);
        check(area != 0 && mine != 0, "allocation failed");
        long off = 0;
        for (int k = 0; k < LENS.length; k++)
        {
            fill(mine + off, me, k, LENS[k]);
            off += LENS[k];
        }
        // the exposed copy others get from: the same data at my slot of the area
        base.ctx().write(area + total * me, read(mine, (int)total), 0, (int)total);
        elan_gsync(base.allGroup);
        // puts into my slot at every other member
        for (int d = 0; d < nvp; d++)
        {
            if (d == me)
            {
                continue;
            }
            long o = 0;
            for (int k = 0; k < LENS.length; k++)
            {
                elan_put(base.state, mine + o, area + total * me + o, LENS[k], d);
                o += LENS[k];
            }
        }
        elan_putWaitAll(base.state, ELAN_WAIT_EVENT);
        elan_gsync(base.allGroup);
        for (int s = 0; s < nvp; s++)
        {
            long o = 0;
            for (int k = 0; k < LENS.length; k++)
            {
                checkData(area + total * s + o, s, k, LENS[k], "elan_put from " + s + " length " + LENS[k]);
                o += LENS[k];
            }
        }
        // gets of every other member's slot, with elan_get and through a throttled handle
        final ElanBase.PutGet pg = elan_putgetInit(base.state, elan_allocMain(base.state, 64, 64), 64, 0, 0, 2, 0);
        final long into = elan_allocMain(base.state, 64, total * 2);
        for (int s = 0; s < nvp; s++)
        {
            if (s == me)
            {
                continue;
            }
            long o = 0;
            final ElanEvent[] ev = new ElanEvent[LENS.length];
            for (int k = 0; k < LENS.length; k++)
            {
                elan_get(base.state, area + total * s + o, into + o, LENS[k], s);
                ev[k] = elan_doget(pg, area + total * s + o, into + total + o, LENS[k], s, ELAN_RAIL_ALL);
                o += LENS[k];
            }
            elan_getWaitAll(base.state, ELAN_WAIT_EVENT);
            for (final ElanEvent e : ev)
            {
                elan_wait(e, ELAN_WAIT_EVENT);
            }
            o = 0;
            for (int k = 0; k < LENS.length; k++)
            {
                checkData(into + o, s, k, LENS[k], "elan_get from " + s);
                checkData(into + total + o, s, k, LENS[k], "elan_doget from " + s);
                o += LENS[k];
            }
        }
        elan_gsync(base.allGroup);
        // throttled puts back into the (same-valued) slots: the data must stay intact
        final long src = elan_allocMain(base.state, 64, total);
        base.ctx().write(src, read(mine, (int)total), 0, (int)total);
        final int to = (me + 1) % nvp;
        final ElanEvent[] ev = new ElanEvent[LENS.length];
        long o = 0;
        for (int k = 0; k < LENS.length; k++)
        {
            ev[k] = elan_doput(pg, src + o, area + total * me + o, 0, LENS[k], to, ELAN_RAIL_ALL);
            o += LENS[k];
        }
        for (final ElanEvent e : ev)
        {
            elan_wait(e, ELAN_WAIT_EVENT);
        }
        elan_gsync(base.allGroup);
        final int from = (me + nvp - 1) % nvp;
        o = 0;
        for (int k = 0; k < LENS.length; k++)
        {
            checkData(area + total * from + o, from, k, LENS[k], "elan_doput from " + from);
            o += LENS[k];
        }
    }

    // ------------------------------------------------------------------ events held by the program

    static void events()
    {
        final long area = elan_gallocMain(base, base.allGroup, 64, 4096);
        final long src = elan_allocMain(base.state, 64, 4096);
        elan_gsync(base.allGroup);
        if (me == 0)
        {
            // two small puts; the first tested until done (not waited), the second issued, then both waited
            base.ctx().putLong(src, 0x1111L);
            final ElanEvent a = elan_put(base.state, src, area, 8, 1);
            while (!elan_done(a, 0))
            {
                // spin, as GASNet does before it releases a put's event
            }
            base.ctx().putLong(src + 8, 0x2222L);
            final ElanEvent b = elan_put(base.state, src + 8, area + 8, 8, 1);
            elan_wait(a, ELAN_WAIT_EVENT);
            elan_wait(b, ELAN_WAIT_EVENT);
            // then several small puts in flight at once, each from its own source
            final ElanEvent[] ev = new ElanEvent[8];
            for (int i = 0; i < ev.length; i++)
            {
                base.ctx().putLong(src + 64 + 8L * i, 0x5000L + i);
                ev[i] = elan_put(base.state, src + 64 + 8L * i, area + 64 + 8L * i, 8, 1);
            }
            for (final ElanEvent e : ev)
            {
                elan_wait(e, ELAN_WAIT_EVENT);
            }
        }
        elan_gsync(base.allGroup);
        if (me == 1)
        {
            check(base.ctx().getLong(area) == 0x1111L && base.ctx().getLong(area + 8) == 0x2222L, "first puts: "
                + Long.toHexString(base.ctx().getLong(area)) + ", " + Long.toHexString(base.ctx().getLong(area + 8)));
            for (int i = 0; i < 8; i++)
            {
                final long v = base.ctx().getLong(area + 64 + 8L * i);
                check(v == 0x5000L + i, "small put " + i + " landed 0x" + Long.toHexString(v) + ", expected 0x"
                    + Long.toHexString(0x5000L + i) + " (two puts shared one bounce buffer?)");
            }
        }
        // a throttle of 2: the third call waits for the first, but the program still holds and waits every event
        for (int i = 0; i < 512; i++)
        {
            base.ctx().raw().write(area + 1024 + i, new byte[] {(byte)(me * 3 + i)}, 0, 1);
        }
        elan_gsync(base.allGroup);
        final ElanBase.PutGet pg = elan_putgetInit(base.state, elan_allocMain(base.state, 64, 64), 64, 0, 0, 2, 0);
        final int peer = (me + 1) % nvp;
        final ElanEvent[] g = new ElanEvent[4];
        for (int k = 0; k < g.length; k++)
        {
            g[k] = elan_doget(pg, area + 1024 + 128L * k, src + 2048 + 128L * k, 128, peer, ELAN_RAIL_ALL);
        }
        for (int k = 0; k < g.length; k++)
        {
            elan_wait(g[k], ELAN_WAIT_EVENT);
        }
        final byte[] got = read(src + 2048, 512);
        for (int i = 0; i < 512; i++)
        {
            check(got[i] == (byte)(peer * 3 + i), "elan_doget byte " + i);
        }
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
        final long buf = elan_allocMain(base.state, 64, 4096);
        final int peer = (me + 1) % nvp;
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        refused("elan_mainQueueInit with 0 slots", "nSlots", "0", () -> elan_mainQueueInit(base.state, q, 0, 64, 0));
        refused("elan_mainQueueInit with 400-byte slots", "slotSize", "400", () -> elan_mainQueueInit(base.state, q, 4, 400, 0));
        refused("elan_queueRxInit with 400-byte slots", "slotSize", "400",
            () -> elan_queueRxInit(base.state, q, 4, 400, ELAN_RAIL_ALL, 0));
        final ElanQueue q2 = elan_gallocQueue(base, base.allGroup);
        final ElanQueue.Main mq = elan_mainQueueInit(base.state, q2, 4, 64, 0);
        refused("elan_queueReq to VP nvp", "destVp", Integer.toString(nvp), () ->
        {
            elan_queueReq(mq, nvp, buf, 8);
            return null;
        });
        refused("elan_queueReq of 65 bytes into 64-byte slots", "len", "65", () ->
        {
            elan_queueReq(mq, peer, buf, 65);
            return null;
        });
        refused("elan_putgetInit with smallPut 65", "smallPut", "65",
            () -> elan_putgetInit(base.state, buf, 65, 0, 0, 0, 0));
        refused("elan_putgetInit with throttle -1", "throttle", "-1",
            () -> elan_putgetInit(base.state, buf, 64, 0, 0, -1, 0));
        refused("elan_hbcast from root nvp", "root", Integer.toString(nvp), () ->
        {
            org.qsnet.elan.Elanlib.elan_hbcast(base.allGroup, buf, 8, nvp, 0);
            return null;
        });
        refused("elan_link of a NULL event", "a", "null", () -> org.qsnet.elan.Elanlib.elan_link(null,
            elan_put(base.state, buf, buf, 0, me)));
        refused("elan_gallocElan of -8 bytes", "size", "-8",
            () -> org.qsnet.elan.Elanlib.elan_gallocElan(base, base.allGroup, 64, -8));
        // still works: a main-queue request to the next member
        elan_gsync(base.allGroup);
        base.ctx().putInt(buf, 7000 + me);
        elan_queueReq(mq, peer, buf, 8);
        final long in = elan_allocMain(base.state, 64, 64);
        elan_queueWait(mq, in, ELAN_WAIT_EVENT);
        check(base.ctx().getInt(in) == 7000 + (me + nvp - 1) % nvp, "main queue after the refusals: " + base.ctx().getInt(in));
    }

    static byte[] read(final long at, final int len)
    {
        final byte[] b = new byte[len];
        base.ctx().read(at, b, 0, len);
        return b;
    }
}
