package legacy;

import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_done;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan3.Elan3lib.EVENT_WORD_READY;
import static org.qsnet.elan3.Elan3lib.elan3_addvp;
import static org.qsnet.elan3.Elan3lib.elan3_allocElan;
import static org.qsnet.elan3.Elan3lib.elan3_allocMain;
import static org.qsnet.elan3.Elan3lib.elan3_attach;
import static org.qsnet.elan3.Elan3lib.elan3_block_inputter;
import static org.qsnet.elan3.Elan3lib.elan3_init;
import static org.qsnet.elan3.Elan3lib.elan3_initevent_word;
import static org.qsnet.elan3.Elan3lib.elan3_primeevent;
import static org.qsnet.elan3.Elan3lib.elan3_set_required_mappings;
import static org.qsnet.elan3.Elan3lib.rms_getcap;
import static org.qsnet.elan3.Elan3lib.rms_mycap;
import static org.qsnet.tports.Tports.elan_tportInit;
import static org.qsnet.tports.Tports.elan_tportRxStart;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanCapability;
import org.qsnet.tports.Tport;

/**
 * Loops that can never finish, as a porting mistake makes them: {@code word} spins
 * {@code while (!EVENT_WORD_READY(word))} on an event no DMA sets; {@code done} spins
 * {@code while (!elan_done(ev, 0))} on a Tports receive nobody sends. A spinning rank never blocks,
 * so no deadlock is detected; {@code prun --max-sim-us} must end the job and say where each rank is.
 */
public final class SpinForever
{
    private SpinForever()
    {
    }

    /**
     * @param args {@code word} or {@code done}.
     */
    public static void main(final String[] args)
    {
        if (args.length > 0 && args[0].equals("done"))
        {
            spinOnDone();
        }
        else
        {
            spinOnWord();
        }
    }

    private static void spinOnWord()
    {
        final ElanCapability cap = new ElanCapability();
        final int[] capIndex = new int[1];
        rms_mycap(capIndex);
        rms_getcap(capIndex[0], cap);
        final Elan3Context ctx = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
        elan3_set_required_mappings(ctx);
        elan3_block_inputter(ctx, 1);
        elan3_attach(ctx, cap);
        elan3_addvp(ctx, 0, cap);
        final long ev = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long word = elan3_allocMain(ctx, 8, 8);
        elan3_initevent_word(ctx, ev, word);
        elan3_primeevent(ctx, ev, 1);
        elan3_block_inputter(ctx, 0);
        while (!EVENT_WORD_READY(word)) // SPIN-WORD
        {
            // nobody sends
        }
    }

    private static void spinOnDone()
    {
        final ElanBase base = elan_baseInit(0);
        final Tport tp = elan_tportInit(base.state, elan_gallocQueue(base, base.allGroup), base.tport_nslots, base.tport_smallmsg, base.tport_bigmsg,
            base.tport_stripemsg, base.waitType, base.retryCount, base.shm_key, base.shm_fifodepth, base.shm_fragsize,
            base.tport_flags);
        final long buf = elan_allocMain(base.state, 64, 64);
        final ElanEvent ev = elan_tportRxStart(tp, 0, 0, 0, -1, 42, buf, 64);
        while (!elan_done(ev, 0)) // SPIN-DONE
        {
            // nobody sends tag 42
        }
    }
}
