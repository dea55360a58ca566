package mpi;

/**
 * An MPI object that can be freed ({@code MPI_*_FREE}).
 */
public interface Freeable
{
    /**
     * Frees the object.
     *
     * @throws MPIException when MPI fails.
     */
    void free() throws MPIException;
}
