package legacy;

import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_mainQueueInit;
import static org.qsnet.elan.Elanlib.elan_queueReq;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanQueue;

/**
 * Rank 0 opens a main queue of 2 slots and returns without ever reading it; rank 1 sends it 10
 * blocking requests ({@code elan_queueReq}): the third can never be delivered, so rank 1 waits for
 * ever. The run should stop with a report of who waits for what.
 */
public final class UndrainedQueue
{
    private UndrainedQueue()
    {
    }

    /**
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        final ElanBase base = elan_baseInit(0);
        final ElanQueue.Main mq = elan_mainQueueInit(base.state, elan_gallocQueue(base, base.allGroup), 2, 64, 0);
        elan_gsync(base.allGroup);
        if (base.state.vp == 1)
        {
            final long buf = elan_allocMain(base.state, 64, 64);
            for (int i = 0; i < 10; i++)
            {
                elan_queueReq(mq, 0, buf, 8);
            }
        }
    }
}
