package legacy;

import static org.qsnet.elan3.Elan3lib.elan3_pollevent_word;

import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanProcess;

/**
 * Rank 1 fails before it sends; rank 0 polls for its message in a loop that never ends, as a C
 * program spinning on {@code elan3_pollevent_word} for a peer that crashed would. Each poll costs
 * simulated time, so no deadlock is ever seen: only ending the job on the failure stops it.
 */
public final class ThrowThenSpin
{
    private ThrowThenSpin()
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
        while (!elan3_pollevent_word(ctx, word, 1))
        {
            // spin, as the C program did
        }
    }
}
