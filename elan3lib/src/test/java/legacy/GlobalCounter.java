package legacy;

import org.qsnet.elan3.ElanMain;
import org.qsnet.elan3.ElanProcess;

/**
 * An {@link ElanMain} program with a global call counter: each rank counts only its own call.
 */
public final class GlobalCounter implements ElanMain
{
    static int calls;

    /**
     * Creates the program (the launcher does, once per rank).
     */
    public GlobalCounter()
    {
    }

    @Override
    public void main(final ElanProcess process, final String[] args)
    {
        calls++;
        process.sim().advance(1_000);
        if (calls != 1)
        {
            throw new IllegalStateException("rank " + process.rank() + " counts " + calls + " calls");
        }
    }
}
