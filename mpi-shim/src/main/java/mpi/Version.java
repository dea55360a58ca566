package mpi;

/**
 * The MPI standard's version and subversion ({@code MPI_GET_VERSION}), as {@link MPI#getVersion()}
 * returns them.
 */
public final class Version
{
    private final int version;
    private final int subVersion;

    Version(final int version, final int subVersion)
    {
        this.version = version;
        this.subVersion = subVersion;
    }

    /**
     * The standard's major version.
     *
     * @return the version ({@link MPI#VERSION}).
     */
    public int getVersion()
    {
        return version;
    }

    /**
     * The standard's minor version.
     *
     * @return the subversion ({@link MPI#SUBVERSION}).
     */
    public int getSubVersion()
    {
        return subVersion;
    }

    @Override
    public String toString()
    {
        return version + "." + subVersion;
    }
}
