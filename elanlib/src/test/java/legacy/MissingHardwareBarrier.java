package legacy;

import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_hgsync;

import org.qsnet.elan.ElanBase;

/**
 * Rank 3 skips the hardware barrier the others enter ({@code elan_hgsync}, ELAN-API.md §2.9): they
 * wait for ever. As with {@code elan_gsync} ({@link MissingBarrier}), the run should stop with a
 * report of who waits for what.
 */
public final class MissingHardwareBarrier
{
    private MissingHardwareBarrier()
    {
    }

    /**
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        final ElanBase base = elan_baseInit(0);
        if (base.state.vp != 3)
        {
            elan_hgsync(base.allGroup);
        }
    }
}
