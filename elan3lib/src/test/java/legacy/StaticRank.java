package legacy;

import org.qsnet.elan3.ElanProcess;
import org.qsnet.elan3.Rms;

/**
 * A port of a C program that keeps its rank and a peer table in globals:
 *
 * <pre>
 * static int my_rank;
 * static int peers[16];
 * main() { my_rank = atoi(getenv("RMS_RANK")); peers[my_rank] = my_rank + 1; ...exchange...; check }
 * </pre>
 *
 * Every rank sets its globals, lets simulated time pass so that every other rank has set its own,
 * then checks that its globals are still its own.
 */
public final class StaticRank
{
    static int myRank = -1;
    static final int[] PEERS = new int[64];
    static int initialisations;

    static
    {
        initialisations++;
    }

    private StaticRank()
    {
    }

    /**
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        final ElanProcess p = ElanProcess.current();
        myRank = Integer.parseInt(Rms.getenv("RMS_RANK"));
        PEERS[myRank] = myRank + 1;
        // every rank runs at time 0 before any reaches 1 us: all have set their globals by then
        p.sim().advance(1_000);
        if (myRank != p.rank())
        {
            throw new IllegalStateException("rank " + p.rank() + " sees my_rank " + myRank);
        }
        for (int i = 0; i < PEERS.length; i++)
        {
            if (i != myRank && PEERS[i] != 0)
            {
                throw new IllegalStateException("rank " + p.rank() + " sees rank " + i + "'s entry in its peer table");
            }
        }
        if (initialisations != 1)
        {
            throw new IllegalStateException("rank " + p.rank() + "'s static initialiser ran " + initialisations + " times");
        }
    }
}
