package mpi;

/**
 * An error handler ({@code MPI_Errhandler}): {@link MPI#ERRORS_ARE_FATAL} ends the rank (its job
 * fails with the error), {@link MPI#ERRORS_RETURN} makes the call throw an {@link MPIException}
 * with the error class.
 */
public final class Errhandler implements Freeable
{
    final boolean fatal;

    Errhandler(final boolean fatal)
    {
        this.fatal = fatal;
    }

    /**
     * {@code MPI_ERRHANDLER_FREE}: predefined handlers stay valid.
     */
    @Override
    public void free()
    {
        // predefined handlers only
    }

    /**
     * @return whether this is a null handle (never, for the predefined handlers).
     */
    public boolean isNull()
    {
        return false;
    }

    @Override
    public String toString()
    {
        return fatal ? "MPI_ERRORS_ARE_FATAL" : "MPI_ERRORS_RETURN";
    }
}
