package legacy;

import static org.qsnet.elan.Elanlib.ELAN_RAIL_ALL;
import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_queueMaxSlotSize;
import static org.qsnet.elan.Elanlib.elan_queueRxInit;
import static org.qsnet.elan.Elanlib.elan_queueTx;
import static org.qsnet.elan.Elanlib.elan_queueTxInit;
import static org.qsnet.tports.Tports.elan_tportInit;
import static org.qsnet.tports.Tports.elan_tportRxStart;
import static org.qsnet.tports.Tports.elan_tportTxStart;

import java.util.function.Supplier;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanQueue;
import org.qsnet.tports.Tport;

/**
 * Porting mistakes a user makes with Tports and queues: each must fail at once, either as the
 * catalog's failure return (NULL) or with an error naming the argument, its value and the rule,
 * and must not take the job down with it (the program goes on and ends normally). Rank 0 prints
 * one line per mistake and {@code ok bad-arguments}.
 */
public final class TportBadArguments
{
    static ElanBase base;

    private TportBadArguments()
    {
    }

    /** Runs a call that must fail; checks the failure names {@code arg} and {@code value}. */
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
            if (!m.contains(arg) || !m.contains(value))
            {
                throw new IllegalStateException(what + ": the error does not name " + arg + " = " + value + ": " + m, e);
            }
            if (base.state.vp == 0)
            {
                System.out.println(what + ": " + m);
            }
            return;
        }
        if (r != null)
        {
            throw new IllegalStateException(what + ": accepted (returned " + r + ")");
        }
        if (base.state.vp == 0)
        {
            System.out.println(what + ": NULL");
        }
    }

    /**
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        base = elan_baseInit(0);
        final int nvp = base.state.nvp;
        final int me = base.state.vp;
        final Tport tp = elan_tportInit(base.state, elan_gallocQueue(base, base.allGroup), base.tport_nslots,
            base.tport_smallmsg, base.tport_bigmsg, base.tport_stripemsg, base.waitType, base.retryCount, base.shm_key,
            base.shm_fifodepth, base.shm_fragsize, base.tport_flags);
        final long buf = elan_allocMain(base.state, 64, 1024);
        refused("tportTxStart to VP nvp", "destVp", Integer.toString(nvp),
            () -> elan_tportTxStart(tp, 0, nvp, me, 1, buf, 16));
        refused("tportTxStart to VP -1", "destVp", "-1", () -> elan_tportTxStart(tp, 0, -1, me, 1, buf, 16));
        refused("tportTxStart of -5 bytes", "len", "-5", () -> elan_tportTxStart(tp, 0, (me + 1) % nvp, me, 1, buf, -5));
        refused("tportRxStart of -5 bytes", "len", "-5", () -> elan_tportRxStart(tp, 0, 0, 0, 0, 0, buf, -5));
        refused("tportTxStart with an unknown flag", "flags", "0x4000",
            () -> elan_tportTxStart(tp, 0x4000, (me + 1) % nvp, me, 1, buf, 16));

        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        final int slot = elan_queueMaxSlotSize(base.state);
        final ElanQueue.Tx tx = elan_queueTxInit(base.state, q, ELAN_RAIL_ALL, 0);
        elan_queueRxInit(base.state, q, 8, slot, ELAN_RAIL_ALL, 0);
        final long big = elan_allocMain(base.state, 64, 4096);
        refused("queueTx of more than a slot", "len", Integer.toString(slot + 1),
            () -> elan_queueTx(tx, (me + 1) % nvp, big, slot + 1, ELAN_RAIL_ALL));
        refused("queueTx to VP nvp", "destVp", Integer.toString(nvp), () -> elan_queueTx(tx, nvp, big, 8, ELAN_RAIL_ALL));
        refused("queueRxInit with a slot above the maximum", "slotSize", Integer.toString(slot + 64),
            () -> elan_queueRxInit(base.state, elan_gallocQueue(base, base.allGroup), 8, slot + 64, ELAN_RAIL_ALL, 0));
        elan_gsync(base.allGroup);
        if (me == 0)
        {
            System.out.println("ok bad-arguments");
        }
    }
}
