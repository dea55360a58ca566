package mpi;

/**
 * The exception an MPI call throws under {@link MPI#ERRORS_RETURN} (and for misuse of the
 * environment): carries the MPI error code and its class ({@code MPI_ERROR_CLASS}).
 */
public final class MPIException extends Exception
{
    private static final long serialVersionUID = 1L;
    private final int errorCode;
    private final int errorClass;

    /**
     * An exception of error class {@link MPI#ERR_OTHER}.
     *
     * @param message what went wrong.
     */
    public MPIException(final String message)
    {
        this(MPI.ERR_OTHER, message);
    }

    /**
     * An exception wrapping another, of error class {@link MPI#ERR_OTHER}.
     *
     * @param cause the cause.
     */
    public MPIException(final Throwable cause)
    {
        super(cause);
        this.errorCode = MPI.ERR_OTHER;
        this.errorClass = MPI.ERR_OTHER;
    }

    MPIException(final int errorClass, final String message)
    {
        super(message);
        this.errorCode = errorClass;
        this.errorClass = errorClass;
    }

    /**
     * @return the MPI error code (here equal to its class).
     */
    public int getErrorCode()
    {
        return errorCode;
    }

    /**
     * {@code MPI_ERROR_CLASS}.
     *
     * @return the error class, one of {@code MPI.ERR_*}.
     */
    public int getErrorClass()
    {
        return errorClass;
    }
}
