package legacy;

import org.qsnet.elan.ElanBase;

/**
 * Rank 3 skips the barrier the others enter: they wait in elan_gsync for ever.
 */
public final class MissingBarrier
{
    private MissingBarrier()
    {
    }

    /**
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        final ElanBase base = ElanBase.baseInit(0);
        if (base.vp() != 3)
        {
            base.gsync(base.allGroup());
        }
    }
}
