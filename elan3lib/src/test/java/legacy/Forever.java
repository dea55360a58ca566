package legacy;

import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanProcess;

/**
 * A job that never finishes: rank 0 waits for an event nobody sets, the others compute for ever
 * (charging 1 us at a time).
 */
public final class Forever
{
    private Forever()
    {
    }

    /**
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        final ElanProcess p = ElanProcess.current();
        if (p.rank() == 0)
        {
            final Elan3Context ctx = Elan3Context.open();
            final long ev = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            final long word = ctx.allocMain(8, 8);
            ctx.initeventWord(ev, word);
            ctx.primeevent(ev, 1);
            ctx.waitEventWord(ev, word, Elan3.ELAN_WAIT_EVENT);
        }
        while (true)
        {
            p.sim().compute(1_000);
        }
    }
}
