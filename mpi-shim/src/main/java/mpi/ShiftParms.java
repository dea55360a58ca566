package mpi;

/**
 * The result of {@link CartComm#shift}: the ranks to receive from and send to.
 */
public final class ShiftParms
{
    private final int source;
    private final int dest;

    ShiftParms(final int source, final int dest)
    {
        this.source = source;
        this.dest = dest;
    }

    /** @return the source rank (or {@link MPI#PROC_NULL}). */
    public int getRankSource()
    {
        return source;
    }

    /** @return the destination rank (or {@link MPI#PROC_NULL}). */
    public int getRankDest()
    {
        return dest;
    }
}
