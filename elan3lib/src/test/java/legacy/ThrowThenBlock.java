package legacy;

import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanProcess;

/**
 * Rank 1 fails before it sends; rank 0 then waits for its message for ever, as a C program whose
 * peer crashed would.
 */
public final class ThrowThenBlock
{
    private ThrowThenBlock()
    {
    }

    /**
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        final Elan3Context ctx = Elan3Context.open();
        final long ev = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long word = ctx.allocMain(8, 8);
        ctx.initeventWord(ev, word);
        ctx.primeevent(ev, 1);
        if (ElanProcess.current().rank() == 1)
        {
            ElanProcess.current().sim().advance(500);
            throw new IllegalStateException("boom: rank 1 cannot open its input file");
        }
        ctx.waitEventWord(ev, word, Elan3.ELAN_WAIT_EVENT);
    }
}
