package mpi;

/**
 * A file view ({@code MPI_FILE_GET_VIEW}'s result): displacement, elementary type, file type and
 * data representation. MPI-IO itself is not supported (see {@link File}); the class exists so that
 * programs using it compile.
 */
public final class FileView
{
    private final long disp;
    private final Datatype etype;
    private final Datatype filetype;
    private final String datarep;

    /**
     * A file view.
     *
     * @param disp     displacement.
     * @param etype    elementary datatype.
     * @param filetype file type.
     * @param datarep  data representation.
     */
    public FileView(final long disp, final Datatype etype, final Datatype filetype, final String datarep)
    {
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
    }

    /**
     * @return the displacement.
     */
    public long getDisp()
    {
        return disp;
    }

    /**
     * @return the elementary datatype.
     */
    public Datatype getEType()
    {
        return etype;
    }

    /**
     * @return the file type.
     */
    public Datatype getFileType()
    {
        return filetype;
    }

    /**
     * @return the data representation.
     */
    public String getDataRep()
    {
        return datarep;
    }
}
