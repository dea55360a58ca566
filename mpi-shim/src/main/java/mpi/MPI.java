package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

import org.qsnet.elan3.ElanProcess;

/**
 * The MPI environment: initialisation, the predefined communicators, datatypes, operators and
 * constants, simulated time, buffer factories. The constants are the same for every rank;
 * {@link #COMM_WORLD} and {@link #COMM_SELF} act on the calling rank's own communicators.
 */
public final class MPI
{
    /** {@code MPI_COMM_WORLD}: every process of the job. */
    public static final Intracomm COMM_WORLD = new Intracomm(Comm.WORLD);
    /** {@code MPI_COMM_SELF}: the caller alone. */
    public static final Intracomm COMM_SELF = new Intracomm(Comm.SELF);

    /** Thread levels: ranks are single simulated processes; any level is granted as asked. */
    public static final int THREAD_SINGLE = 0;
    /** {@code MPI_THREAD_FUNNELED}. */
    public static final int THREAD_FUNNELED = 1;
    /** {@code MPI_THREAD_SERIALIZED}. */
    public static final int THREAD_SERIALIZED = 2;
    /** {@code MPI_THREAD_MULTIPLE}. */
    public static final int THREAD_MULTIPLE = 3;

    /** Topology kinds. */
    public static final int GRAPH = 1;
    /** {@code MPI_DIST_GRAPH}. */
    public static final int DIST_GRAPH = 3;
    /** {@code MPI_CART}. */
    public static final int CART = 2;

    /** {@code MPI_ANY_SOURCE}. */
    public static final int ANY_SOURCE = -1;
    /** {@code MPI_ANY_TAG}. */
    public static final int ANY_TAG = -1;
    /** {@code MPI_PROC_NULL}: a send or receive to it does nothing. */
    public static final int PROC_NULL = -2;
    /** {@code MPI_UNDEFINED}. */
    public static final int UNDEFINED = -32766;
    /** {@code MPI_ROOT}. */
    public static final int ROOT = -4;

    /** Comparison results. */
    public static final int IDENT = 0;
    /** {@code MPI_CONGRUENT}. */
    public static final int CONGRUENT = 1;
    /** {@code MPI_SIMILAR}. */
    public static final int SIMILAR = 2;
    /** {@code MPI_UNEQUAL}. */
    public static final int UNEQUAL = 3;

    /** The largest tag: 20 bits of the Tport tag (the other 12 hold the context). */
    public static final int TAG_UB = CommState.TAG_MASK;
    /** Attribute keys (not used here). */
    public static final int HOST = 1;
    /** {@code MPI_IO}. */
    public static final int IO = 2;
    /** {@code MPI_WTIME_IS_GLOBAL}. */
    public static final int WTIME_IS_GLOBAL = 3;
    /** {@code MPI_BSEND_OVERHEAD}: bytes of the attached buffer each buffered message takes beyond its data. */
    public static final int BSEND_OVERHEAD = 32;
    /** {@code MPI_MAX_INFO_KEY}. */
    public static final int MAX_INFO_KEY = 255;
    /** {@code MPI_MAX_INFO_VAL}. */
    public static final int MAX_INFO_VAL = 1024;
    /** {@code MPI_MAX_OBJECT_NAME}. */
    public static final int MAX_OBJECT_NAME = 64;
    /** {@code MPI_APPNUM} attribute key. */
    public static final int APPNUM = 4;
    /** {@code MPI_LASTUSEDCODE} attribute key. */
    public static final int LASTUSEDCODE = 5;
    /** {@code MPI_UNIVERSE_SIZE} attribute key. */
    public static final int UNIVERSE_SIZE = 6;
    /** {@code MPI_WIN_BASE} attribute key. */
    public static final int WIN_BASE = 7;
    /** {@code MPI_WIN_SIZE} attribute key (bytes). */
    public static final int WIN_SIZE = 8;
    /** {@code MPI_WIN_DISP_UNIT} attribute key (bytes). */
    public static final int WIN_DISP_UNIT = 9;
    /** {@code MPI_KEYVAL_INVALID}. */
    public static final int KEYVAL_INVALID = -1;
    /** {@code MPI_MAX_PORT_NAME}. */
    public static final int MAX_PORT_NAME = 1024;
    /** {@code MPI_MAX_DATAREP_STRING}. */
    public static final int MAX_DATAREP_STRING = 128;
    /** {@code MPI_ORDER_C}. */
    public static final int ORDER_C = 0;
    /** {@code MPI_ORDER_FORTRAN}. */
    public static final int ORDER_FORTRAN = 1;
    /** {@code MPI_DISTRIBUTE_BLOCK}. */
    public static final int DISTRIBUTE_BLOCK = 0;
    /** {@code MPI_DISTRIBUTE_CYCLIC}. */
    public static final int DISTRIBUTE_CYCLIC = 1;
    /** {@code MPI_DISTRIBUTE_NONE}. */
    public static final int DISTRIBUTE_NONE = 2;
    /** {@code MPI_DISTRIBUTE_DFLT_DARG}. */
    public static final int DISTRIBUTE_DFLT_DARG = -1;
    /** {@code MPI_MODE_CREATE} (MPI-IO: see {@link File}). */
    public static final int MODE_CREATE = 1;
    /** {@code MPI_MODE_RDONLY}. */
    public static final int MODE_RDONLY = 2;
    /** {@code MPI_MODE_WRONLY}. */
    public static final int MODE_WRONLY = 4;
    /** {@code MPI_MODE_RDWR}. */
    public static final int MODE_RDWR = 8;
    /** {@code MPI_MODE_DELETE_ON_CLOSE}. */
    public static final int MODE_DELETE_ON_CLOSE = 16;
    /** {@code MPI_MODE_UNIQUE_OPEN}. */
    public static final int MODE_UNIQUE_OPEN = 32;
    /** {@code MPI_MODE_EXCL}. */
    public static final int MODE_EXCL = 64;
    /** {@code MPI_MODE_APPEND}. */
    public static final int MODE_APPEND = 128;
    /** {@code MPI_MODE_SEQUENTIAL}. */
    public static final int MODE_SEQUENTIAL = 256;
    /** {@code MPI_DISPLACEMENT_CURRENT}. */
    public static final int DISPLACEMENT_CURRENT = -54278278;
    /** {@code MPI_SEEK_SET}. */
    public static final int SEEK_SET = 600;
    /** {@code MPI_SEEK_CUR}. */
    public static final int SEEK_CUR = 602;
    /** {@code MPI_SEEK_END}. */
    public static final int SEEK_END = 604;
    /** {@code MPI_MODE_NOCHECK} (RMA assertion). */
    public static final int MODE_NOCHECK = 1;
    /** {@code MPI_MODE_NOPRECEDE}. */
    public static final int MODE_NOPRECEDE = 2;
    /** {@code MPI_MODE_NOPUT}. */
    public static final int MODE_NOPUT = 4;
    /** {@code MPI_MODE_NOSTORE}. */
    public static final int MODE_NOSTORE = 8;
    /** {@code MPI_MODE_NOSUCCEED}. */
    public static final int MODE_NOSUCCEED = 16;
    /** {@code MPI_LOCK_EXCLUSIVE}. */
    public static final int LOCK_EXCLUSIVE = 1;
    /** {@code MPI_LOCK_SHARED}. */
    public static final int LOCK_SHARED = 2;
    /** {@code MPI_VERSION}. */
    public static final int VERSION = 3;
    /** {@code MPI_SUBVERSION}. */
    public static final int SUBVERSION = 1;

    /** Error classes (the MPI standard's values). */
    public static final int SUCCESS = 0;
    /** Invalid buffer. */
    public static final int ERR_BUFFER = 1;
    /** Invalid count. */
    public static final int ERR_COUNT = 2;
    /** Invalid datatype. */
    public static final int ERR_TYPE = 3;
    /** Invalid tag. */
    public static final int ERR_TAG = 4;
    /** Invalid communicator. */
    public static final int ERR_COMM = 5;
    /** Invalid rank. */
    public static final int ERR_RANK = 6;
    /** Invalid request. */
    public static final int ERR_REQUEST = 7;
    /** Invalid root. */
    public static final int ERR_ROOT = 8;
    /** Invalid group. */
    public static final int ERR_GROUP = 9;
    /** Invalid operator. */
    public static final int ERR_OP = 10;
    /** Invalid topology. */
    public static final int ERR_TOPOLOGY = 11;
    /** Invalid dimensions. */
    public static final int ERR_DIMS = 12;
    /** Invalid argument. */
    public static final int ERR_ARG = 13;
    /** Unknown error. */
    public static final int ERR_UNKNOWN = 14;
    /** Message truncated on receive. */
    public static final int ERR_TRUNCATE = 15;
    /** Other error. */
    public static final int ERR_OTHER = 16;
    /** Internal error. */
    public static final int ERR_INTERN = 17;
    /** Error code in status. */
    public static final int ERR_IN_STATUS = 18;
    /** Pending request. */
    public static final int ERR_PENDING = 19;
    /** Permission denied (MPI-IO). */
    public static final int ERR_ACCESS = 20;
    /** Invalid file access mode. */
    public static final int ERR_AMODE = 21;
    /** Invalid assertion. */
    public static final int ERR_ASSERT = 22;
    /** Invalid file name. */
    public static final int ERR_BAD_FILE = 23;
    /** Invalid base address. */
    public static final int ERR_BASE = 24;
    /** Data conversion failed. */
    public static final int ERR_CONVERSION = 25;
    /** Invalid displacement. */
    public static final int ERR_DISP = 26;
    /** Data representation already defined. */
    public static final int ERR_DUP_DATAREP = 27;
    /** File exists. */
    public static final int ERR_FILE_EXISTS = 28;
    /** File in use. */
    public static final int ERR_FILE_IN_USE = 29;
    /** Invalid file handle. */
    public static final int ERR_FILE = 30;
    /** Info key too long or empty. */
    public static final int ERR_INFO_KEY = 31;
    /** Info key not set. */
    public static final int ERR_INFO_NOKEY = 32;
    /** Info value too long. */
    public static final int ERR_INFO_VALUE = 33;
    /** Invalid info object. */
    public static final int ERR_INFO = 34;
    /** I/O error. */
    public static final int ERR_IO = 35;
    /** Invalid attribute key. */
    public static final int ERR_KEYVAL = 36;
    /** Invalid lock type. */
    public static final int ERR_LOCKTYPE = 37;
    /** Service name not published. */
    public static final int ERR_NAME = 38;
    /** Out of memory. */
    public static final int ERR_NO_MEM = 39;
    /** Collective arguments differ between processes. */
    public static final int ERR_NOT_SAME = 40;
    /** No space left. */
    public static final int ERR_NO_SPACE = 41;
    /** No such file. */
    public static final int ERR_NO_SUCH_FILE = 42;
    /** Invalid port name. */
    public static final int ERR_PORT = 43;
    /** Quota exceeded. */
    public static final int ERR_QUOTA = 44;
    /** Read-only file. */
    public static final int ERR_READ_ONLY = 45;
    /** Conflicting accesses to a window. */
    public static final int ERR_RMA_CONFLICT = 46;
    /** Wrong synchronisation of RMA calls. */
    public static final int ERR_RMA_SYNC = 47;
    /** Invalid service name. */
    public static final int ERR_SERVICE = 48;
    /** Invalid size. */
    public static final int ERR_SIZE = 49;
    /** Process spawning failed (or is not supported). */
    public static final int ERR_SPAWN = 50;
    /** Unsupported data representation. */
    public static final int ERR_UNSUPPORTED_DATAREP = 51;
    /** Operation not supported. */
    public static final int ERR_UNSUPPORTED_OPERATION = 52;
    /** Invalid window. */
    public static final int ERR_WIN = 53;
    /** System resources exhausted. */
    public static final int ERR_SYSRESOURCE = -2;
    /** Last error class. */
    public static final int ERR_LASTCODE = 92;

    /** {@code MPI_DATATYPE_NULL}. */
    public static final Datatype DATATYPE_NULL = Datatype.basic(Datatype.K_NULL);
    /** {@code MPI_BYTE}. */
    public static final Datatype BYTE = Datatype.basic(Datatype.K_BYTE);
    /** Java {@code char} (2 bytes). */
    public static final Datatype CHAR = Datatype.basic(Datatype.K_CHAR);
    /** Java {@code short}. */
    public static final Datatype SHORT = Datatype.basic(Datatype.K_SHORT);
    /** Java {@code boolean} (1 byte). */
    public static final Datatype BOOLEAN = Datatype.basic(Datatype.K_BOOLEAN);
    /** Java {@code int}. */
    public static final Datatype INT = Datatype.basic(Datatype.K_INT);
    /** Java {@code long}. */
    public static final Datatype LONG = Datatype.basic(Datatype.K_LONG);
    /** Java {@code float}. */
    public static final Datatype FLOAT = Datatype.basic(Datatype.K_FLOAT);
    /** Java {@code double}. */
    public static final Datatype DOUBLE = Datatype.basic(Datatype.K_DOUBLE);
    /**
     * {@code MPI_C_FLOAT_COMPLEX}: a complex number of two Java {@code float}s (real, imaginary),
     * described by {@code float[]} or {@code FloatBuffer} buffers (see {@link FloatComplex}); its size
     * and extent are 2 (floats).
     */
    public static final Datatype FLOAT_COMPLEX = Datatype.complex(Datatype.K_FLOAT, "MPI_C_FLOAT_COMPLEX");
    /**
     * {@code MPI_C_DOUBLE_COMPLEX}: a complex number of two Java {@code double}s (see
     * {@link DoubleComplex}).
     */
    public static final Datatype DOUBLE_COMPLEX = Datatype.complex(Datatype.K_DOUBLE, "MPI_C_DOUBLE_COMPLEX");
    /** {@code MPI_PACKED}. */
    public static final Datatype PACKED = Datatype.basic(Datatype.K_PACKED);
    /** Two ints (value, index) for MAXLOC/MINLOC, in a ByteBuffer ({@link #int2}). */
    public static final Datatype INT2 = Datatype.pair(Datatype.K_INT, 4, 8, "MPI_2INT");
    /** A short and an int ({@link #shortInt}). */
    public static final Datatype SHORT_INT = Datatype.pair(Datatype.K_SHORT, 4, 8, "MPI_SHORT_INT");
    /** A long and an int ({@link #longInt}). */
    public static final Datatype LONG_INT = Datatype.pair(Datatype.K_LONG, 8, 16, "MPI_LONG_INT");
    /** A float and an int ({@link #floatInt}). */
    public static final Datatype FLOAT_INT = Datatype.pair(Datatype.K_FLOAT, 4, 8, "MPI_FLOAT_INT");
    /** A double and an int ({@link #doubleInt}). */
    public static final Datatype DOUBLE_INT = Datatype.pair(Datatype.K_DOUBLE, 8, 16, "MPI_DOUBLE_INT");

    /** The struct of {@link #INT2}. */
    public static final Int2 int2 = new Int2();
    /** The struct of {@link #SHORT_INT}. */
    public static final ShortInt shortInt = new ShortInt();
    /** The struct of {@link #LONG_INT}. */
    public static final LongInt longInt = new LongInt();
    /** The struct of {@link #FLOAT_INT}. */
    public static final FloatInt floatInt = new FloatInt();
    /** The struct of {@link #DOUBLE_INT}. */
    public static final DoubleInt doubleInt = new DoubleInt();

    /** {@code MPI_MAX}. */
    public static final Op MAX = new Op(Op.MAX);
    /** {@code MPI_MIN}. */
    public static final Op MIN = new Op(Op.MIN);
    /** {@code MPI_SUM}. */
    public static final Op SUM = new Op(Op.SUM);
    /** {@code MPI_PROD}. */
    public static final Op PROD = new Op(Op.PROD);
    /** {@code MPI_LAND}. */
    public static final Op LAND = new Op(Op.LAND);
    /** {@code MPI_BAND}. */
    public static final Op BAND = new Op(Op.BAND);
    /** {@code MPI_LOR}. */
    public static final Op LOR = new Op(Op.LOR);
    /** {@code MPI_BOR}. */
    public static final Op BOR = new Op(Op.BOR);
    /** {@code MPI_LXOR}. */
    public static final Op LXOR = new Op(Op.LXOR);
    /** {@code MPI_BXOR}. */
    public static final Op BXOR = new Op(Op.BXOR);
    /** {@code MPI_REPLACE}: the origin's value replaces the target's (one-sided accumulate). */
    public static final Op REPLACE = new Op(Op.REPLACE);
    /** {@code MPI_NO_OP}: the target's value is kept (one-sided get-accumulate as an atomic read). */
    public static final Op NO_OP = new Op(Op.NO_OP);
    /** {@code MPI_MINLOC}: the minimum value and the lowest index holding it (pair types). */
    public static final Op MINLOC = new Op(Op.MINLOC);
    /** {@code MPI_MAXLOC}: the maximum value and the lowest index holding it (pair types). */
    public static final Op MAXLOC = new Op(Op.MAXLOC);

    /** {@code MPI_ERRORS_ARE_FATAL}: an error ends the rank (the default). */
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(true);
    /** {@code MPI_ERRORS_RETURN}: an error throws {@link MPIException}. */
    public static final Errhandler ERRORS_RETURN = new Errhandler(false);

    /** {@code MPI_REQUEST_NULL}. */
    public static final Request REQUEST_NULL = new Request(null);
    /** {@code MPI_GROUP_EMPTY}. */
    public static final Group GROUP_EMPTY = new Group(new int[0], -1);
    /** {@code MPI_INFO_NULL}. */
    public static final Info INFO_NULL = new Info(true);
    /** {@code MPI_INFO_ENV}. */
    public static final Info INFO_ENV = new Info(false);

    private MPI()
    {
    }

    /**
     * {@code MPI_INIT}: attaches the calling rank to the network (Elanlib base, Tport, the
     * collective buffer); a collective over every process of the job.
     *
     * @param args the program's arguments.
     * @return the arguments (MPI takes none of its own).
     * @throws MPIException when already initialized or not in an emulated process.
     */
    public static String[] Init(final String[] args) throws MPIException
    {
        Rank.init(THREAD_SINGLE);
        return args;
    }

    /**
     * {@code MPI_INIT_THREAD}.
     *
     * @param args     the program's arguments.
     * @param required the level wanted.
     * @return the level provided (the one asked for: a rank is one simulated process).
     * @throws MPIException when already initialized.
     */
    public static int InitThread(final String[] args, final int required) throws MPIException
    {
        Rank.init(required);
        return required;
    }

    /**
     * {@code MPI_QUERY_THREAD}.
     *
     * @return the thread level.
     * @throws MPIException when not initialized.
     */
    public static int queryThread() throws MPIException
    {
        return Rank.current().threadLevel;
    }

    /**
     * {@code MPI_IS_THREAD_MAIN}.
     *
     * @return true (a rank's code runs on its process's thread).
     * @throws MPIException when not initialized.
     */
    public static boolean isThreadMain() throws MPIException
    {
        Rank.current();
        return true;
    }

    /**
     * {@code MPI_FINALIZE}: completes buffered sends, synchronises with every rank and detaches.
     *
     * @throws MPIException when not initialized or already finalized.
     */
    public static void Finalize() throws MPIException
    {
        final Rank r = Rank.current();
        for (final Request b : r.bufferedSends)
        {
            b.block();
        }
        r.bufferedSends.clear();
        Collectives.barrier(r.world);
        r.finalized = true;
    }

    /**
     * {@code MPI_INITIALIZED}.
     *
     * @return whether the calling rank has called {@link #Init}.
     * @throws MPIException never here (the bindings declare it).
     */
    public static boolean isInitialized() throws MPIException
    {
        return Rank.peek() != null;
    }

    /**
     * {@code MPI_FINALIZED}.
     *
     * @return whether the calling rank has called {@link #Finalize}.
     * @throws MPIException never here (the bindings declare it).
     */
    public static boolean isFinalized() throws MPIException
    {
        final Rank r = Rank.peek();
        return r != null && r.finalized;
    }

    /**
     * {@code MPI_GET_VERSION}: the version of the MPI standard this implementation follows.
     *
     * @return {@link #VERSION}.{@link #SUBVERSION}.
     */
    public static Version getVersion()
    {
        return new Version(VERSION, SUBVERSION);
    }

    /**
     * {@code MPI_GET_LIBRARY_VERSION}: names this implementation.
     *
     * @return a one-line description.
     */
    public static String getLibVersion()
    {
        return "QsNet mpi-shim: the Open MPI 5.0 Java bindings API over Tports and Elanlib (MPI " + VERSION + "."
            + SUBVERSION + ")";
    }

    /**
     * {@code MPI_WTIME}: the rank's simulated clock.
     *
     * @return simulated seconds since the job started.
     * @throws MPIException when not initialized.
     */
    public static double wtime() throws MPIException
    {
        return Rank.current().process.nowNs() / 1e9;
    }

    /**
     * {@code MPI_WTICK}.
     *
     * @return the clock's resolution: 1 ns.
     * @throws MPIException when not initialized.
     */
    public static double wtick() throws MPIException
    {
        Rank.current();
        return 1e-9;
    }

    /**
     * {@code MPI_GET_PROCESSOR_NAME}.
     *
     * @return the node the rank runs on, e.g. {@code pentium3-he-node3}.
     * @throws MPIException when not initialized.
     */
    public static String getProcessorName() throws MPIException
    {
        final ElanProcess p = Rank.current().process;
        return p.machine().profile().name() + "-node" + p.node();
    }

    /**
     * {@code MPI_BUFFER_ATTACH}.
     *
     * @param buffer the buffer buffered sends use.
     * @throws MPIException when not initialized.
     */
    public static void attachBuffer(final byte[] buffer) throws MPIException
    {
        final Rank r = Rank.current();
        r.attached = buffer;
        r.attachedInUse = 0;
    }

    /**
     * {@code MPI_BUFFER_DETACH}: waits for the buffered sends, then detaches.
     *
     * @return the buffer.
     * @throws MPIException when not initialized.
     */
    public static byte[] detachBuffer() throws MPIException
    {
        final Rank r = Rank.current();
        for (final Request b : r.bufferedSends)
        {
            b.block();
        }
        r.bufferedSends.clear();
        final byte[] b = r.attached;
        r.attached = null;
        r.attachedInUse = 0;
        return b;
    }

    /**
     * {@code MPI_PCONTROL}: does nothing.
     *
     * @param level profiling level.
     * @param obj   profiling information.
     */
    public static void pControl(final int level, final Object obj)
    {
        // no profiling layer
    }

    /** @param capacity bytes @return a direct byte buffer in native order. */
    public static ByteBuffer newByteBuffer(final int capacity)
    {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    /** @param capacity chars @return a direct char buffer. */
    public static CharBuffer newCharBuffer(final int capacity)
    {
        return newByteBuffer(capacity * 2).asCharBuffer();
    }

    /** @param capacity shorts @return a direct short buffer. */
    public static ShortBuffer newShortBuffer(final int capacity)
    {
        return newByteBuffer(capacity * 2).asShortBuffer();
    }

    /** @param capacity ints @return a direct int buffer. */
    public static IntBuffer newIntBuffer(final int capacity)
    {
        return newByteBuffer(capacity * 4).asIntBuffer();
    }

    /** @param capacity longs @return a direct long buffer. */
    public static LongBuffer newLongBuffer(final int capacity)
    {
        return newByteBuffer(capacity * 8).asLongBuffer();
    }

    /** @param capacity floats @return a direct float buffer. */
    public static FloatBuffer newFloatBuffer(final int capacity)
    {
        return newByteBuffer(capacity * 4).asFloatBuffer();
    }

    /** @param capacity doubles @return a direct double buffer. */
    public static DoubleBuffer newDoubleBuffer(final int capacity)
    {
        return newByteBuffer(capacity * 8).asDoubleBuffer();
    }

    /** @param buf a buffer @param offset elements @return the buffer from {@code offset} on, sharing its content. */
    public static ByteBuffer slice(final ByteBuffer buf, final int offset)
    {
        return buf.duplicate().position(offset).slice().order(buf.order());
    }

    /** @param buf a buffer @param offset elements @return the buffer from {@code offset} on. */
    public static CharBuffer slice(final CharBuffer buf, final int offset)
    {
        return buf.duplicate().position(offset).slice();
    }

    /** @param buf a buffer @param offset elements @return the buffer from {@code offset} on. */
    public static ShortBuffer slice(final ShortBuffer buf, final int offset)
    {
        return buf.duplicate().position(offset).slice();
    }

    /** @param buf a buffer @param offset elements @return the buffer from {@code offset} on. */
    public static IntBuffer slice(final IntBuffer buf, final int offset)
    {
        return buf.duplicate().position(offset).slice();
    }

    /** @param buf a buffer @param offset elements @return the buffer from {@code offset} on. */
    public static LongBuffer slice(final LongBuffer buf, final int offset)
    {
        return buf.duplicate().position(offset).slice();
    }

    /** @param buf a buffer @param offset elements @return the buffer from {@code offset} on. */
    public static FloatBuffer slice(final FloatBuffer buf, final int offset)
    {
        return buf.duplicate().position(offset).slice();
    }

    /** @param buf a buffer @param offset elements @return the buffer from {@code offset} on. */
    public static DoubleBuffer slice(final DoubleBuffer buf, final int offset)
    {
        return buf.duplicate().position(offset).slice();
    }

    /** @param buf an array @param offset elements @return a buffer over the array from {@code offset} on. */
    public static ByteBuffer slice(final byte[] buf, final int offset)
    {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    /** @param buf an array @param offset elements @return a buffer over the array from {@code offset} on. */
    public static CharBuffer slice(final char[] buf, final int offset)
    {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @param buf an array @param offset elements @return a buffer over the array from {@code offset} on. */
    public static ShortBuffer slice(final short[] buf, final int offset)
    {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @param buf an array @param offset elements @return a buffer over the array from {@code offset} on. */
    public static IntBuffer slice(final int[] buf, final int offset)
    {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @param buf an array @param offset elements @return a buffer over the array from {@code offset} on. */
    public static LongBuffer slice(final long[] buf, final int offset)
    {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @param buf an array @param offset elements @return a buffer over the array from {@code offset} on. */
    public static FloatBuffer slice(final float[] buf, final int offset)
    {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @param buf an array @param offset elements @return a buffer over the array from {@code offset} on. */
    public static DoubleBuffer slice(final double[] buf, final int offset)
    {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }
}
