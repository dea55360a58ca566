package legacy;

import static org.qsnet.elan.Elanlib.ELAN_POLL_EVENT;
import static org.qsnet.elan.Elanlib.ELAN_RAIL_ALL;
import static org.qsnet.elan.Elanlib.ELAN_WAIT_EVENT;
import static org.qsnet.elan.Elanlib.elan_allocElan;
import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_bcast;
import static org.qsnet.elan.Elanlib.elan_gallocMain;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_get;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_put;
import static org.qsnet.elan.Elanlib.elan_queueMaxSlotSize;
import static org.qsnet.elan.Elanlib.elan_queueRxInit;
import static org.qsnet.elan.Elanlib.elan_queueRxPoll;
import static org.qsnet.elan.Elanlib.elan_queueRxWait;
import static org.qsnet.elan.Elanlib.elan_queueTx;
import static org.qsnet.elan.Elanlib.elan_queueTxInit;
import static org.qsnet.elan.Elanlib.elan_reduce;
import static org.qsnet.elan.Elanlib.elan_wait;

import java.util.function.Supplier;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;

/**
 * The second outside round for Elanlib, written from ELAN-API.md §2.5, §2.7–§2.9 only (a C
 * program's calls, its globals static fields). {@code args[0]} names the scenario; rank 0 prints
 * {@code ok <scenario>}.
 * <ul>
 * <li>{@code galloc}: the collective allocations ({@code elan_gallocQueue}, {@code elan_gallocMain})
 * give the same address on every member although the members did different private work first
 * (private {@code elan_allocElan}/{@code elan_allocMain} of rank-dependent sizes, a different
 * number of puts); every other member then sends rank 0 a queue message and writes its slot of a
 * galloc'd table at rank 0. Run on layouts where one node has fewer processes than the others.</li>
 * <li>{@code get}: remote reads ({@code elan_get}, §2.8) of 1 B to 300 KB from every other member,
 * several in flight, the bytes checked; run with link CRC errors too.</li>
 * <li>{@code bad-arguments}: every call given a bad argument fails with an error that names the
 * argument and the value (or returns the documented sentinel); the library still works after.</li>
 * </ul>
 */
public final class ElanlibRound2
{
    // C globals
    static ElanBase base;
    static int me;
    static int nvp;

    private ElanlibRound2()
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
            case "galloc" -> galloc();
            case "get" -> get();
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

    static byte pattern(final int from, final int i)
    {
        return (byte)(from * 31 + i * 7 + (i >>> 8));
    }

    // ------------------------------------------------------------------ galloc: §2.5, §2.7

    static void galloc()
    {
        // private work that differs by rank: allocations of rank-dependent sizes, a rank-dependent number of puts
        for (int i = 0; i <= me; i++)
        {
            check(elan_allocElan(base.state, 64, 64L * (me + 1)) != 0, "elan_allocElan failed");
            check(elan_allocMain(base.state, 64, 100L * (me + 1)) != 0, "elan_allocMain failed");
        }
        final long pad = elan_gallocMain(base, base.allGroup, 64, 64);
        final long src = elan_allocMain(base.state, 64, 64);
        for (int k = 0; k < me % 3; k++)
        {
            elan_wait(elan_put(base.state, src, pad, 8, (me + 1) % nvp), ELAN_WAIT_EVENT);
        }
        elan_gsync(base.allGroup);

        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        final long table = elan_gallocMain(base, base.allGroup, 64, 8L * nvp);
        final int slot = elan_queueMaxSlotSize(base.state);
        final ElanQueue.Rx rx = elan_queueRxInit(base.state, q, nvp + 1, slot, ELAN_RAIL_ALL, 0);
        final ElanQueue.Tx tx = elan_queueTxInit(base.state, q, ELAN_RAIL_ALL, 0);
        base.ctx().putLong(table + 8L * me, -1);
        elan_gsync(base.allGroup);
        if (me != 0)
        {
            final long buf = elan_allocMain(base.state, 64, 64);
            base.ctx().putInt(buf, me);
            base.ctx().putInt(buf + 4, 1000 + me);
            elan_wait(elan_queueTx(tx, 0, buf, 8, ELAN_RAIL_ALL), ELAN_WAIT_EVENT);
            base.ctx().putLong(buf + 8, 7000L + me);
            elan_wait(elan_put(base.state, buf + 8, table + 8L * me, 8, 0), ELAN_WAIT_EVENT);
        }
        else
        {
            final boolean[] seen = new boolean[nvp];
            final long in = elan_allocMain(base.state, 64, slot);
            for (int k = 1; k < nvp; k++)
            {
                final long p = elan_queueRxWait(rx, in, ELAN_WAIT_EVENT);
                final int from = base.ctx().getInt(p);
                check(from >= 1 && from < nvp && !seen[from], "queue message " + k + " names sender " + from);
                check(base.ctx().getInt(p + 4) == 1000 + from, "queue message from " + from + " holds "
                    + base.ctx().getInt(p + 4));
                seen[from] = true;
            }
            check(!elan_queueRxPoll(rx, ELAN_POLL_EVENT), "a message too many in the queue");
        }
        elan_gsync(base.allGroup);
        if (me == 0)
        {
            for (int v = 1; v < nvp; v++)
            {
                check(base.ctx().getLong(table + 8L * v) == 7000L + v, "galloc'd table slot " + v + " holds "
                    + base.ctx().getLong(table + 8L * v) + " (the put went elsewhere: addresses differ between members)");
            }
        }
    }

    // ------------------------------------------------------------------ get: §2.8

    static final int[] SIZES = {1, 63, 64, 65, 320, 4096, 70_000, 300_000};

    static void get()
    {
        long total = 0;
        for (final int s : SIZES)
        {
            total += s;
        }
        // every member exposes the same pattern-filled region at the same (galloc'd) address
        final long exposed = elan_gallocMain(base, base.allGroup, 64, total);
        long off = 0;
        for (final int s : SIZES)
        {
            final byte[] b = new byte[s];
            for (int i = 0; i < s; i++)
            {
                b[i] = pattern(me, (int)off + i);
            }
            base.ctx().write(exposed + off, b, 0, s);
            off += s;
        }
        elan_gsync(base.allGroup);
        final long into = elan_allocMain(base.state, 64, total * (nvp - 1));
        final ElanEvent[] evs = new ElanEvent[SIZES.length * (nvp - 1)];
        int e = 0;
        long at = 0;
        for (int d = 1; d < nvp; d++)
        {
            final int from = (me + d) % nvp;
            off = 0;
            for (final int s : SIZES)
            {
                evs[e] = elan_get(base.state, exposed + off, into + at, s, from);
                check(evs[e] != null, "elan_get returned NULL");
                e++;
                off += s;
                at += s;
            }
        }
        for (final ElanEvent ev : evs)
        {
            elan_wait(ev, ELAN_WAIT_EVENT);
        }
        at = 0;
        for (int d = 1; d < nvp; d++)
        {
            final int from = (me + d) % nvp;
            final byte[] got = new byte[(int)total];
            base.ctx().read(into + at, got, 0, (int)total);
            for (int i = 0; i < total; i++)
            {
                check(got[i] == pattern(from, i), "elan_get from " + from + ": byte " + i + " is " + got[i] + ", expected "
                    + pattern(from, i));
            }
            at += total;
        }
    }

    // ------------------------------------------------------------------ bad arguments

    /** A call that must fail: its error names {@code arg} and {@code value}; or it returns the given sentinel. */
    static void refused(final String what, final String arg, final String value, final Object sentinel,
        final Supplier<Object> call)
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
        check(sentinel != null && sentinel.equals(r), what + ": accepted (returned " + r + ")");
        if (me == 0)
        {
            System.out.println(what + ": returned the sentinel " + r);
        }
    }

    static void badArguments()
    {
        final long buf = elan_allocMain(base.state, 64, 4096);
        final long sym = elan_gallocMain(base, base.allGroup, 64, 4096);
        final int peer = (me + 1) % nvp;
        refused("elan_put of -1 bytes", "len", "-1", null, () -> elan_put(base.state, buf, sym, -1, peer));
        refused("elan_put to VP nvp", "destVp", Integer.toString(nvp), null, () -> elan_put(base.state, buf, sym, 8, nvp));
        refused("elan_get from VP -1", "srcVp", "-1", null, () -> elan_get(base.state, sym, buf, 8, -1));
        refused("elan_get of -8 bytes", "len", "-8", null, () -> elan_get(base.state, sym, buf, -8, peer));
        refused("elan_allocMain of -64 bytes", "size", "-64", 0L, () -> elan_allocMain(base.state, 64, -64));
        refused("elan_allocElan of -64 bytes", "size", "-64", 0L, () -> elan_allocElan(base.state, 64, -64));
        refused("elan_allocMain aligned to 3", "align", "3", 0L, () -> elan_allocMain(base.state, 3, 64));
        refused("elan_gallocMain of -1 bytes", "size", "-1", 0L, () -> elan_gallocMain(base, base.allGroup, 64, -1));
        refused("elan_bcast from root nvp", "root", Integer.toString(nvp), null, () ->
        {
            elan_bcast(base.allGroup, sym, 8, nvp, 0);
            return null;
        });
        refused("elan_bcast of -4 bytes", "len", "-4", null, () ->
        {
            elan_bcast(base.allGroup, sym, -4, 0, 0);
            return null;
        });
        refused("elan_reduce at root -1", "root", "-1", null, () ->
        {
            elan_reduce(base.allGroup, buf, sym, 4, 1, (in, inout, count, h) -> { }, null, 0, 0, 0, -1);
            return null;
        });
        refused("elan_reduce of -2 elements", "nElem", "-2", null, () ->
        {
            elan_reduce(base.allGroup, buf, sym, 4, -2, (in, inout, count, h) -> { }, null, 0, 0, 0, 0);
            return null;
        });
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        refused("elan_queueRxInit with 0 slots", "nSlots", "0", null,
            () -> elan_queueRxInit(base.state, q, 0, 64, ELAN_RAIL_ALL, 0));
        refused("elan_queueRxInit with -64-byte slots", "slotSize", "-64", null,
            () -> elan_queueRxInit(base.state, q, 4, -64, ELAN_RAIL_ALL, 0));
        final ElanQueue.Tx tx = elan_queueTxInit(base.state, q, ELAN_RAIL_ALL, 0);
        elan_queueRxInit(base.state, q, 4, 64, ELAN_RAIL_ALL, 0);
        refused("elan_queueTx of -1 bytes", "len", "-1", null, () -> elan_queueTx(tx, peer, buf, -1, ELAN_RAIL_ALL));
        refused("elan_queueTx of 321 bytes", "len", "321", null, () -> elan_queueTx(tx, peer, buf, 321, ELAN_RAIL_ALL));
        // the rule a user can act on: a queue slot's 320 bytes, not the range of an int
        refused("elan_queueTx of -1 bytes, the slot limit", "0..320", "-1", null,
            () -> elan_queueTx(tx, peer, buf, -1, ELAN_RAIL_ALL));
        // nothing above was corrupted: a bcast and puts still work
        elan_gsync(base.allGroup);
        if (me == 0)
        {
            base.ctx().putLong(sym, 0x5eedL);
        }
        elan_bcast(base.allGroup, sym, 8, 0, 0);
        check(base.ctx().getLong(sym) == 0x5eedL, "bcast after the refused calls: " + base.ctx().getLong(sym));
    }
}
