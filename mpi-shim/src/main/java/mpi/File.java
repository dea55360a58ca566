package mpi;

import java.nio.Buffer;

import org.qsnet.fabric.QsnetException;

/**
 * {@code MPI_File} (MPI-IO): not supported. The emulated machine models the Elan3 network and its
 * libraries, not a parallel file system, so there is nothing an MPI-IO call could be timed
 * against. The class has the bindings' signatures, so a program that uses MPI-IO compiles; opening
 * a file (every constructor) and {@link #delete} throw an {@link MPIException} of class
 * {@link MPI#ERR_UNSUPPORTED_OPERATION} that says so. No {@code File} object can therefore exist,
 * and its instance methods throw the same exception.
 */
public final class File
{
    private static MPIException unsupported(final String call)
    {
        return new MPIException(MPI.ERR_UNSUPPORTED_OPERATION, call + ": MPI-IO is not supported by this emulator "
            + "(it models the QsNet network and its libraries, not a parallel file system)");
    }

    /**
     * {@code MPI_FILE_OPEN}: refused.
     *
     * @param comm     the communicator.
     * @param filename the file.
     * @param amode    the access mode.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public File(final Comm comm, final String filename, final int amode) throws MPIException
    {
        throw unsupported("MPI_FILE_OPEN of " + filename);
    }

    /**
     * {@code MPI_FILE_OPEN}: refused.
     *
     * @param comm     the communicator.
     * @param filename the file.
     * @param amode    the access mode.
     * @param info     hints.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public File(final Comm comm, final String filename, final int amode, final Info info) throws MPIException
    {
        throw unsupported("MPI_FILE_OPEN of " + filename);
    }

    /**
     * {@code MPI_FILE_DELETE}: refused.
     *
     * @param filename the file.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public static void delete(final String filename) throws MPIException
    {
        throw unsupported("MPI_FILE_DELETE of " + filename);
    }

    /**
     * {@code MPI_FILE_DELETE}: refused.
     *
     * @param filename the file.
     * @param info     hints.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public static void delete(final String filename, final Info info) throws MPIException
    {
        throw unsupported("MPI_FILE_DELETE of " + filename);
    }

    /**
     * {@code MPI_FILE_CLOSE}: refused (no file can be opened).
     *
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void close() throws MPIException
    {
        throw unsupported("MPI_FILE_CLOSE");
    }

    /**
     * {@code MPI_FILE_SET_SIZE}: refused (no file can be opened).
     *
     * @param size size.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void setSize(final long size) throws MPIException
    {
        throw unsupported("MPI_FILE_SET_SIZE");
    }

    /**
     * {@code MPI_FILE_PREALLOCATE}: refused (no file can be opened).
     *
     * @param size size.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void preallocate(final long size) throws MPIException
    {
        throw unsupported("MPI_FILE_PREALLOCATE");
    }

    /**
     * {@code MPI_FILE_GET_SIZE}: refused (no file can be opened).
     *
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public long getSize() throws MPIException
    {
        throw unsupported("MPI_FILE_GET_SIZE");
    }

    /**
     * {@code MPI_FILE_GET_GROUP}: refused (no file can be opened).
     *
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Group getGroup() throws MPIException
    {
        throw unsupported("MPI_FILE_GET_GROUP");
    }

    /**
     * {@code MPI_FILE_GET_AMODE}: refused (no file can be opened).
     *
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public int getAMode() throws MPIException
    {
        throw unsupported("MPI_FILE_GET_AMODE");
    }

    /**
     * {@code MPI_FILE_SET_INFO}: refused (no file can be opened).
     *
     * @param info info.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void setInfo(final Info info) throws MPIException
    {
        throw unsupported("MPI_FILE_SET_INFO");
    }

    /**
     * {@code MPI_FILE_GET_INFO}: refused (no file can be opened).
     *
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Info getInfo() throws MPIException
    {
        throw unsupported("MPI_FILE_GET_INFO");
    }

    /**
     * {@code MPI_FILE_SET_VIEW}: refused (no file can be opened).
     *
     * @param disp disp.
     * @param etype etype.
     * @param filetype filetype.
     * @param datarep datarep.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void setView(final long disp, final Datatype etype, final Datatype filetype, final String datarep) throws MPIException
    {
        throw unsupported("MPI_FILE_SET_VIEW");
    }

    /**
     * {@code MPI_FILE_SET_VIEW}: refused (no file can be opened).
     *
     * @param disp disp.
     * @param etype etype.
     * @param filetype filetype.
     * @param datarep datarep.
     * @param info info.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void setView(final long disp, final Datatype etype, final Datatype filetype, final String datarep, final Info info) throws MPIException
    {
        throw unsupported("MPI_FILE_SET_VIEW");
    }

    /**
     * {@code MPI_FILE_GET_VIEW}: refused (no file can be opened, so no {@code File} exists to ask;
     * the bindings declare no checked exception here, so the refusal is unchecked).
     *
     * @return never.
     * @throws QsnetException always, carrying the {@link MPI#ERR_UNSUPPORTED_OPERATION} refusal.
     */
    public FileView getView()
    {
        final MPIException refusal = unsupported("MPI_FILE_GET_VIEW");
        throw new QsnetException(refusal.getMessage(), refusal);
    }

    /**
     * {@code MPI_FILE_READ_AT}: refused (no file can be opened).
     *
     * @param offset offset.
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status readAt(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_READ_AT");
    }

    /**
     * {@code MPI_FILE_READ_AT_ALL}: refused (no file can be opened).
     *
     * @param offset offset.
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status readAtAll(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_READ_AT_ALL");
    }

    /**
     * {@code MPI_FILE_WRITE_AT}: refused (no file can be opened).
     *
     * @param offset offset.
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status writeAt(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE_AT");
    }

    /**
     * {@code MPI_FILE_WRITE_AT_ALL}: refused (no file can be opened).
     *
     * @param offset offset.
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status writeAtAll(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE_AT_ALL");
    }

    /**
     * {@code MPI_FILE_IREAD_AT}: refused (no file can be opened).
     *
     * @param offset offset.
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Request iReadAt(final long offset, final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_IREAD_AT");
    }

    /**
     * {@code MPI_FILE_IWRITE_AT}: refused (no file can be opened).
     *
     * @param offset offset.
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Request iWriteAt(final long offset, final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_IWRITE_AT");
    }

    /**
     * {@code MPI_FILE_READ}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status read(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_READ");
    }

    /**
     * {@code MPI_FILE_READ_ALL}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status readAll(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_READ_ALL");
    }

    /**
     * {@code MPI_FILE_WRITE}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status write(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE");
    }

    /**
     * {@code MPI_FILE_WRITE_ALL}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status writeAll(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE_ALL");
    }

    /**
     * {@code MPI_FILE_IREAD}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Request iRead(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_IREAD");
    }

    /**
     * {@code MPI_FILE_IWRITE}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Request iWrite(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_IWRITE");
    }

    /**
     * {@code MPI_FILE_SEEK}: refused (no file can be opened).
     *
     * @param offset offset.
     * @param whence whence.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void seek(final long offset, final int whence) throws MPIException
    {
        throw unsupported("MPI_FILE_SEEK");
    }

    /**
     * {@code MPI_FILE_GET_POSITION}: refused (no file can be opened).
     *
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public long getPosition() throws MPIException
    {
        throw unsupported("MPI_FILE_GET_POSITION");
    }

    /**
     * {@code MPI_FILE_GET_BYTE_OFFSET}: refused (no file can be opened).
     *
     * @param offset offset.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public long getByteOffset(final long offset) throws MPIException
    {
        throw unsupported("MPI_FILE_GET_BYTE_OFFSET");
    }

    /**
     * {@code MPI_FILE_READ_SHARED}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status readShared(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_READ_SHARED");
    }

    /**
     * {@code MPI_FILE_WRITE_SHARED}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status writeShared(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE_SHARED");
    }

    /**
     * {@code MPI_FILE_IREAD_SHARED}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Request iReadShared(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_IREAD_SHARED");
    }

    /**
     * {@code MPI_FILE_IWRITE_SHARED}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Request iWriteShared(final Buffer buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_IWRITE_SHARED");
    }

    /**
     * {@code MPI_FILE_READ_ORDERED}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status readOrdered(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_READ_ORDERED");
    }

    /**
     * {@code MPI_FILE_WRITE_ORDERED}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status writeOrdered(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE_ORDERED");
    }

    /**
     * {@code MPI_FILE_SEEK_SHARED}: refused (no file can be opened).
     *
     * @param offset offset.
     * @param whence whence.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void seekShared(final long offset, final int whence) throws MPIException
    {
        throw unsupported("MPI_FILE_SEEK_SHARED");
    }

    /**
     * {@code MPI_FILE_GET_POSITION_SHARED}: refused (no file can be opened).
     *
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public long getPositionShared() throws MPIException
    {
        throw unsupported("MPI_FILE_GET_POSITION_SHARED");
    }

    /**
     * {@code MPI_FILE_READ_AT_ALL_BEGIN}: refused (no file can be opened).
     *
     * @param offset offset.
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void readAtAllBegin(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_READ_AT_ALL_BEGIN");
    }

    /**
     * {@code MPI_FILE_READ_AT_ALL_END}: refused (no file can be opened).
     *
     * @param buf buf.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status readAtAllEnd(final Object buf) throws MPIException
    {
        throw unsupported("MPI_FILE_READ_AT_ALL_END");
    }

    /**
     * {@code MPI_FILE_WRITE_AT_ALL_BEGIN}: refused (no file can be opened).
     *
     * @param offset offset.
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void writeAtAllBegin(final long offset, final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE_AT_ALL_BEGIN");
    }

    /**
     * {@code MPI_FILE_WRITE_AT_ALL_END}: refused (no file can be opened).
     *
     * @param buf buf.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status writeAtAllEnd(final Object buf) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE_AT_ALL_END");
    }

    /**
     * {@code MPI_FILE_READ_ALL_BEGIN}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void readAllBegin(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_READ_ALL_BEGIN");
    }

    /**
     * {@code MPI_FILE_READ_ALL_END}: refused (no file can be opened).
     *
     * @param buf buf.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status readAllEnd(final Object buf) throws MPIException
    {
        throw unsupported("MPI_FILE_READ_ALL_END");
    }

    /**
     * {@code MPI_FILE_WRITE_ALL_BEGIN}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void writeAllBegin(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE_ALL_BEGIN");
    }

    /**
     * {@code MPI_FILE_WRITE_ALL_END}: refused (no file can be opened).
     *
     * @param buf buf.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status writeAllEnd(final Object buf) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE_ALL_END");
    }

    /**
     * {@code MPI_FILE_READ_ORDERED_BEGIN}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void readOrderedBegin(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_READ_ORDERED_BEGIN");
    }

    /**
     * {@code MPI_FILE_READ_ORDERED_END}: refused (no file can be opened).
     *
     * @param buf buf.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status readOrderedEnd(final Object buf) throws MPIException
    {
        throw unsupported("MPI_FILE_READ_ORDERED_END");
    }

    /**
     * {@code MPI_FILE_WRITE_ORDERED_BEGIN}: refused (no file can be opened).
     *
     * @param buf buf.
     * @param count count.
     * @param type type.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void writeOrderedBegin(final Object buf, final int count, final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE_ORDERED_BEGIN");
    }

    /**
     * {@code MPI_FILE_WRITE_ORDERED_END}: refused (no file can be opened).
     *
     * @param buf buf.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Status writeOrderedEnd(final Object buf) throws MPIException
    {
        throw unsupported("MPI_FILE_WRITE_ORDERED_END");
    }

    /**
     * {@code MPI_FILE_GET_TYPE_EXTENT}: refused (no file can be opened).
     *
     * @param type type.
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public int getTypeExtent(final Datatype type) throws MPIException
    {
        throw unsupported("MPI_FILE_GET_TYPE_EXTENT");
    }

    /**
     * {@code MPI_FILE_SET_ATOMICITY}: refused (no file can be opened).
     *
     * @param atomicity atomicity.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void setAtomicity(final boolean atomicity) throws MPIException
    {
        throw unsupported("MPI_FILE_SET_ATOMICITY");
    }

    /**
     * {@code MPI_FILE_SYNC}: refused (no file can be opened).
     *
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void sync() throws MPIException
    {
        throw unsupported("MPI_FILE_SYNC");
    }

    /**
     * {@code MPI_FILE_SET_ERRHANDLER}: refused (no file can be opened).
     *
     * @param errhandler the handler.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void setErrhandler(final Errhandler errhandler) throws MPIException
    {
        throw unsupported("MPI_FILE_SET_ERRHANDLER");
    }

    /**
     * {@code MPI_FILE_GET_ERRHANDLER}: refused (no file can be opened).
     *
     * @return never.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Errhandler getErrhandler() throws MPIException
    {
        throw unsupported("MPI_FILE_GET_ERRHANDLER");
    }

    /**
     * {@code MPI_FILE_CALL_ERRHANDLER}: refused (no file can be opened).
     *
     * @param errorCode an error class.
     * @throws MPIException always, {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void callErrhandler(final int errorCode) throws MPIException
    {
        throw unsupported("MPI_FILE_CALL_ERRHANDLER");
    }
}
