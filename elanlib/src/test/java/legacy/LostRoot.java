package legacy;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanQueue;
import org.qsnet.elan3.Elan3;

/**
 * Rank 0, the broadcast's root, waits on its queue for a message nobody sends instead of
 * broadcasting; ranks 1 and 2 wait in elan_bcast for its data.
 */
public final class LostRoot
{
    private LostRoot()
    {
    }

    /**
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        final ElanBase base = ElanBase.baseInit(0);
        final ElanQueue q = base.gallocQueue(base.allGroup());
        final long buf = base.allocMain(64, 320);
        if (base.vp() == 0)
        {
            q.queueRxInit(4, 64, 0, 0).queueRxWait(buf, Elan3.ELAN_POLL_EVENT);
        }
        base.bcast(base.allGroup(), buf, 64, 0);
    }
}
