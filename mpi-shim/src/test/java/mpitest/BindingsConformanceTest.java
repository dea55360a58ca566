package mpitest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import mpi.CartComm;
import mpi.Comm;
import mpi.Count;
import mpi.Datatype;
import mpi.DoubleComplex;
import mpi.FloatComplex;
import mpi.GraphComm;
import mpi.GRequest;
import mpi.Group;
import mpi.Info;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import mpi.Version;
import mpi.Win;

import org.junit.jupiter.api.Test;

/**
 * The public signatures of the Open MPI Java bindings (ompi/mpi/java/java/*.java, the 5.0 line)
 * that were checked against this module, looked up by exact name, parameter types and return
 * type, so a program written for the bindings keeps compiling: a signature that drifts fails
 * this test and so the build. (A parameter declared {@code Object} here where the bindings say
 * {@code Buffer} also accepts every call the bindings accept; those are listed with {@code Object}.)
 */
class BindingsConformanceTest
{
    private static final Map<String, Class<?>> TYPES = Map.ofEntries(Map.entry("int", int.class),
        Map.entry("long", long.class), Map.entry("boolean", boolean.class), Map.entry("void", void.class),
        Map.entry("int[]", int[].class), Map.entry("byte[]", byte[].class), Map.entry("boolean[]", boolean[].class), Map.entry("String", String.class),
        Map.entry("String[]", String[].class), Map.entry("String[][]", String[][].class),
        Map.entry("Object", Object.class), Map.entry("Buffer", Buffer.class), Map.entry("ByteBuffer", ByteBuffer.class),
        Map.entry("FloatBuffer", FloatBuffer.class), Map.entry("DoubleBuffer", DoubleBuffer.class),
        Map.entry("float", float.class), Map.entry("double", double.class), Map.entry("float[]", float[].class),
        Map.entry("double[]", double[].class), Map.entry("Datatype", Datatype.class),
        Map.entry("Datatype[]", Datatype[].class), Map.entry("Info", Info.class), Map.entry("Info[]", Info[].class),
        Map.entry("Comm", Comm.class), Map.entry("Intracomm", Intracomm.class), Map.entry("Intercomm", Intercomm.class),
        Map.entry("CartComm", CartComm.class), Map.entry("GraphComm", GraphComm.class), Map.entry("Group", Group.class),
        Map.entry("Op", Op.class), Map.entry("Request", Request.class), Map.entry("Request[]", Request[].class),
        Map.entry("Prequest", Prequest.class), Map.entry("Status", Status.class), Map.entry("Status[]", Status[].class),
        Map.entry("Count", Count.class), Map.entry("Version", Version.class), Map.entry("Win", Win.class),
        Map.entry("FloatComplex", FloatComplex.class), Map.entry("DoubleComplex", DoubleComplex.class),
        Map.entry("Errhandler", mpi.Errhandler.class),
        Map.entry("UserFunction", mpi.UserFunction.class), Map.entry("int[][]", int[][].class),
        Map.entry("Struct", mpi.Struct.class), Map.entry("Struct.Data", mpi.Struct.Data.class),
        Map.entry("CartParms", mpi.CartParms.class), Map.entry("ShiftParms", mpi.ShiftParms.class),
        Map.entry("GraphParms", mpi.GraphParms.class), Map.entry("DistGraphNeighbors", mpi.DistGraphNeighbors.class),
        Map.entry("Message", mpi.Message.class), Map.entry("Prequest[]", Prequest[].class),
        Map.entry("Throwable", Throwable.class), Map.entry("char", char.class), Map.entry("short", short.class),
        Map.entry("byte", byte.class), Map.entry("File", mpi.File.class), Map.entry("FileView", mpi.FileView.class));

    /**
     * "returnType name(paramTypes)"; a leading "static " for static methods; a leading "!" for the
     * methods the bindings declare without {@code throws MPIException} (the others declare it, and
     * the declaration matters to callers: catching a checked exception nothing throws, or not
     * handling one that is declared, does not compile).
     */
    private static void methods(final Class<?> owner, final String... signatures)
    {
        final List<String> wrong = new ArrayList<>();
        for (final String given : signatures)
        {
            final boolean throwsExpected = !given.startsWith("!");
            final String sig = throwsExpected ? given : given.substring(1);
            final boolean isStatic = sig.startsWith("static ");
            final String s = isStatic ? sig.substring(7) : sig;
            final String ret = s.substring(0, s.indexOf(' '));
            final String name = s.substring(s.indexOf(' ') + 1, s.indexOf('('));
            final String params = s.substring(s.indexOf('(') + 1, s.length() - 1);
            final Class<?>[] types = params.isEmpty() ? new Class<?>[0]
                : Arrays.stream(params.split(",")).map(t -> type(t.trim())).toArray(Class<?>[]::new);
            try
            {
                final Method m = owner.getMethod(name, types);
                final boolean declaresThrows = Arrays.asList(m.getExceptionTypes()).contains(MPIException.class);
                if (m.getReturnType() != type(ret) || Modifier.isStatic(m.getModifiers()) != isStatic
                    || declaresThrows != throwsExpected)
                {
                    wrong.add(owner.getSimpleName() + "." + given + " is declared " + m);
                }
            }
            catch (final NoSuchMethodException e)
            {
                wrong.add(owner.getSimpleName() + "." + sig + " is missing");
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    private static Class<?> type(final String name)
    {
        final Class<?> c = TYPES.get(name);
        if (c == null)
        {
            fail("unknown type " + name + " in the signature table");
        }
        return c;
    }

    private static void constants(final Class<?> owner, final String type, final String... names) throws Exception
    {
        for (final String n : names)
        {
            final Field f = owner.getField(n);
            assertTrue(Modifier.isStatic(f.getModifiers()) && Modifier.isFinal(f.getModifiers()), n + " is static final");
            assertEquals(type(type), f.getType(), owner.getSimpleName() + "." + n);
        }
    }

    /** Parameter lists of public constructors; a leading "!" as for {@link #methods}. */
    private static void constructors(final Class<?> owner, final String... paramLists) throws Exception
    {
        for (final String given : paramLists)
        {
            final boolean throwsExpected = !given.startsWith("!");
            final String p = throwsExpected ? given : given.substring(1);
            final Class<?>[] types = p.isEmpty() ? new Class<?>[0]
                : Arrays.stream(p.split(",")).map(t -> type(t.trim())).toArray(Class<?>[]::new);
            final var c = owner.getConstructor(types);
            assertTrue(Modifier.isPublic(c.getModifiers()), owner.getSimpleName() + "(" + p + ")");
            assertEquals(throwsExpected, Arrays.asList(c.getExceptionTypes()).contains(MPIException.class),
                owner.getSimpleName() + "(" + given + ") throws MPIException");
        }
    }

    @Test
    void mpiHasTheBindingsConstantsAndCalls() throws Exception
    {
        constants(MPI.class, "Datatype", "DATATYPE_NULL", "BYTE", "CHAR", "SHORT", "BOOLEAN", "INT", "LONG", "FLOAT",
            "DOUBLE", "PACKED", "FLOAT_COMPLEX", "DOUBLE_COMPLEX", "INT2", "SHORT_INT", "LONG_INT", "FLOAT_INT",
            "DOUBLE_INT");
        constants(MPI.class, "Op", "MAX", "MIN", "SUM", "PROD", "LAND", "BAND", "LOR", "BOR", "LXOR", "BXOR", "REPLACE",
            "NO_OP", "MINLOC", "MAXLOC");
        constants(MPI.class, "Intracomm", "COMM_WORLD", "COMM_SELF");
        constants(MPI.class, "Request", "REQUEST_NULL");
        constants(MPI.class, "Group", "GROUP_EMPTY");
        constants(MPI.class, "Info", "INFO_ENV", "INFO_NULL");
        constants(MPI.class, "Errhandler", "ERRORS_ARE_FATAL", "ERRORS_RETURN");
        constants(MPI.class, "int", "THREAD_SINGLE", "THREAD_FUNNELED", "THREAD_SERIALIZED", "THREAD_MULTIPLE", "GRAPH",
            "DIST_GRAPH", "CART", "ANY_SOURCE", "ANY_TAG", "PROC_NULL", "UNDEFINED", "IDENT", "CONGRUENT", "SIMILAR",
            "UNEQUAL", "TAG_UB", "HOST", "IO", "WTIME_IS_GLOBAL", "APPNUM", "LASTUSEDCODE", "UNIVERSE_SIZE", "WIN_BASE",
            "WIN_SIZE", "WIN_DISP_UNIT", "VERSION", "SUBVERSION", "ROOT", "KEYVAL_INVALID", "BSEND_OVERHEAD",
            "MAX_OBJECT_NAME", "MAX_PORT_NAME", "MAX_DATAREP_STRING", "MAX_INFO_KEY", "MAX_INFO_VAL", "ORDER_C",
            "ORDER_FORTRAN", "DISTRIBUTE_BLOCK", "DISTRIBUTE_CYCLIC", "DISTRIBUTE_NONE", "DISTRIBUTE_DFLT_DARG",
            "MODE_CREATE", "MODE_RDONLY", "MODE_WRONLY", "MODE_RDWR", "MODE_DELETE_ON_CLOSE", "MODE_UNIQUE_OPEN",
            "MODE_EXCL", "MODE_APPEND", "MODE_SEQUENTIAL", "DISPLACEMENT_CURRENT", "SEEK_SET", "SEEK_CUR", "SEEK_END",
            "MODE_NOCHECK", "MODE_NOPRECEDE", "MODE_NOPUT", "MODE_NOSTORE", "MODE_NOSUCCEED", "LOCK_EXCLUSIVE",
            "LOCK_SHARED", "SUCCESS", "ERR_BUFFER", "ERR_COUNT", "ERR_TYPE", "ERR_TAG", "ERR_COMM", "ERR_RANK",
            "ERR_REQUEST", "ERR_ROOT", "ERR_GROUP", "ERR_OP", "ERR_TOPOLOGY", "ERR_DIMS", "ERR_ARG", "ERR_UNKNOWN",
            "ERR_TRUNCATE", "ERR_OTHER", "ERR_INTERN", "ERR_IN_STATUS", "ERR_PENDING", "ERR_ACCESS", "ERR_AMODE",
            "ERR_ASSERT", "ERR_BAD_FILE", "ERR_BASE", "ERR_CONVERSION", "ERR_DISP", "ERR_DUP_DATAREP",
            "ERR_FILE_EXISTS", "ERR_FILE_IN_USE", "ERR_FILE", "ERR_INFO_KEY", "ERR_INFO_NOKEY", "ERR_INFO_VALUE",
            "ERR_INFO", "ERR_IO", "ERR_KEYVAL", "ERR_LOCKTYPE", "ERR_NAME", "ERR_NO_MEM", "ERR_NOT_SAME", "ERR_NO_SPACE",
            "ERR_NO_SUCH_FILE", "ERR_PORT", "ERR_QUOTA", "ERR_READ_ONLY", "ERR_RMA_CONFLICT", "ERR_RMA_SYNC",
            "ERR_SERVICE", "ERR_SIZE", "ERR_SPAWN", "ERR_UNSUPPORTED_DATAREP", "ERR_UNSUPPORTED_OPERATION", "ERR_WIN",
            "ERR_LASTCODE", "ERR_SYSRESOURCE");
        methods(MPI.class, "static String[] Init(String[])", "static int InitThread(String[],int)",
            "static int queryThread()", "static boolean isThreadMain()", "static void Finalize()", "static double wtime()",
            "static double wtick()", "!static Version getVersion()", "!static String getLibVersion()",
            "static String getProcessorName()", "static boolean isInitialized()", "static boolean isFinalized()",
            "static void attachBuffer(byte[])", "static byte[] detachBuffer()", "!static void pControl(int,Object)",
            "!static ByteBuffer newByteBuffer(int)", "!static FloatBuffer newFloatBuffer(int)",
            "!static DoubleBuffer newDoubleBuffer(int)", "!static FloatBuffer slice(FloatBuffer,int)",
            "!static DoubleBuffer slice(DoubleBuffer,int)", "!static FloatBuffer slice(float[],int)",
            "!static DoubleBuffer slice(double[],int)");
        methods(Version.class, "!int getVersion()", "!int getSubVersion()");
    }

    @Test
    void commHasTheBindingsCalls() throws Exception
    {
        constants(Comm.class, "int", "TYPE_SHARED");
        methods(Comm.class, "Comm dup()", "Comm iDup()", "Comm dupWithInfo(Info)", "!Request getRequest()", "int getSize()",
            "int getRank()", "static int compare(Comm,Comm)", "void free()", "!boolean isNull()", "void setInfo(Info)",
            "Info getInfo()", "void disconnect()", "Group getGroup()", "boolean isInter()",
            "Intercomm createIntercomm(Comm,int,int,int)", "void send(Object,int,Datatype,int,int)",
            "Status recv(Object,int,Datatype,int,int)",
            "Status sendRecv(Object,int,Datatype,int,int,Object,int,Datatype,int,int)",
            "Status sendRecvReplace(Object,int,Datatype,int,int,int,int)", "void bSend(Object,int,Datatype,int,int)",
            "void sSend(Object,int,Datatype,int,int)", "void rSend(Object,int,Datatype,int,int)",
            "Request iSend(Buffer,int,Datatype,int,int)", "Request ibSend(Buffer,int,Datatype,int,int)",
            "Request isSend(Buffer,int,Datatype,int,int)", "Request irSend(Buffer,int,Datatype,int,int)",
            "Request iRecv(Buffer,int,Datatype,int,int)", "Prequest sendInit(Object,int,Datatype,int,int)",
            "Prequest bSendInit(Object,int,Datatype,int,int)", "Prequest sSendInit(Object,int,Datatype,int,int)",
            "Prequest rSendInit(Object,int,Datatype,int,int)", "Prequest recvInit(Object,int,Datatype,int,int)",
            "int pack(Object,int,Datatype,byte[],int)", "int unpack(byte[],int,Object,int,Datatype)",
            "int packSize(int,Datatype)",
            "Status iProbe(int,int)", "Status probe(int,int)", "static int createKeyval()", "static void freeKeyval(int)",
            "void setAttr(int,Object)", "Object getAttr(int)", "void deleteAttr(int)", "int getTopology()",
            "void abort(int)", "void setErrhandler(Errhandler)", "Errhandler getErrhandler()", "void barrier()",
            "Request iBarrier()", "void bcast(Object,int,Datatype,int)", "void gather(Object,int,Datatype,Object,int,Datatype,int)",
            "void gather(Object,int,Datatype,int)", "void gatherv(Object,int,Datatype,Object,int[],int[],Datatype,int)",
            "void gatherv(Object,int[],int[],Datatype,int)", "void gatherv(Object,int,Datatype,int)",
            "void scatter(Object,int,Datatype,Object,int,Datatype,int)", "void scatter(Object,int,Datatype,int)",
            "void scatterv(Object,int[],int[],Datatype,Object,int,Datatype,int)",
            "void scatterv(Object,int[],int[],Datatype,int)", "void scatterv(Object,int,Datatype,int)",
            "void allGather(Object,int,Datatype,Object,int,Datatype)", "void allGather(Object,int,Datatype)",
            "void allGatherv(Object,int,Datatype,Object,int[],int[],Datatype)", "void allGatherv(Object,int[],int[],Datatype)",
            "void allToAll(Object,int,Datatype,Object,int,Datatype)",
            "void allToAllv(Object,int[],int[],Datatype,Object,int[],int[],Datatype)",
            "void allToAllw(Buffer,int[],int[],Datatype[],Buffer,int[],int[],Datatype[])",
            "Request iAllToAllw(Buffer,int[],int[],Datatype[],Buffer,int[],int[],Datatype[])",
            "void neighborAllGather(Object,int,Datatype,Object,int,Datatype)",
            "void neighborAllGatherv(Object,int,Datatype,Object,int[],int[],Datatype)",
            "void neighborAllToAll(Object,int,Datatype,Object,int,Datatype)",
            "void neighborAllToAllv(Object,int[],int[],Datatype,Object,int[],int[],Datatype)",
            "void reduce(Object,Object,int,Datatype,Op,int)", "void reduce(Object,int,Datatype,Op,int)",
            "void allReduce(Object,Object,int,Datatype,Op)", "void allReduce(Object,int,Datatype,Op)",
            "void reduceScatter(Object,Object,int[],Datatype,Op)", "void reduceScatter(Object,int[],Datatype,Op)",
            "void reduceScatterBlock(Object,Object,int,Datatype,Op)", "void reduceScatterBlock(Object,int,Datatype,Op)",
            "static void reduceLocal(Object,Object,int,Datatype,Op)", "void setName(String)", "String getName()");
    }

    @Test
    void intracommHasTheBindingsCalls()
    {
        methods(Intracomm.class, "Intracomm dup()", "Intracomm iDup()", "Intracomm dupWithInfo(Info)",
            "Intracomm split(int,int)", "Intracomm splitType(int,int,Info)", "Intracomm create(Group)",
            "Intracomm createGroup(Group,int)", "CartComm createCart(int[],boolean[],boolean)",
            "GraphComm createGraph(int[],int[],boolean)",
            "GraphComm createDistGraph(int[],int[],int[],int[],Info,boolean)",
            "GraphComm createDistGraph(int[],int[],int[],Info,boolean)",
            "GraphComm createDistGraphAdjacent(int[],int[],int[],int[],Info,boolean)",
            "GraphComm createDistGraphAdjacent(int[],int[],Info,boolean)", "void scan(Object,Object,int,Datatype,Op)",
            "void scan(Object,int,Datatype,Op)", "void exScan(Object,Object,int,Datatype,Op)",
            "void exScan(Object,int,Datatype,Op)", "static String openPort()", "static String openPort(Info)",
            "static void closePort(String)", "Intercomm accept(String,int)", "Intercomm accept(String,Info,int)",
            "Intercomm connect(String,int)", "Intercomm connect(String,Info,int)", "static void publishName(String,String)",
            "static void publishName(String,Info,String)", "static void unpublishName(String,String)",
            "static void unpublishName(String,Info,String)", "static String lookupName(String)",
            "static String lookupName(String,Info)", "Intercomm spawn(String,String[],int,Info,int,int[])",
            "Intercomm spawnMultiple(String[],String[][],int[],Info[],int,int[])");
    }

    @Test
    void statusCountAndComplexViewsHaveTheBindingsCalls() throws Exception
    {
        methods(Status.class, "int getCount(Datatype)", "boolean isCancelled()", "int getElements(Datatype)",
            "Count getElementsX(Datatype)", "void setElements(Datatype,int)", "void setElementsX(Datatype,Count)",
            "void setCancelled(boolean)", "!int getSource()", "!int getTag()", "!int getError()", "!int getIndex()");
        constructors(Count.class, "!long");
        methods(Count.class, "!long getCount()", "!void setCount(long)", "!boolean equals(Object)", "!int compareTo(Object)");
        methods(FloatComplex.class, "!static FloatComplex get(FloatBuffer)", "!static FloatComplex get(FloatBuffer,int)",
            "!static FloatComplex get(float[])", "!static FloatComplex get(float[],int)", "!static FloatComplex get(ByteBuffer)",
            "!static FloatComplex get(ByteBuffer,int)", "!float getReal()", "!float getImag()", "!void putReal(float)",
            "!void putImag(float)", "!FloatBuffer getBuffer()");
        methods(DoubleComplex.class, "!static DoubleComplex get(DoubleBuffer)",
            "!static DoubleComplex get(DoubleBuffer,int)", "!static DoubleComplex get(double[])",
            "!static DoubleComplex get(double[],int)", "!static DoubleComplex get(ByteBuffer)",
            "!static DoubleComplex get(ByteBuffer,int)", "!double getReal()", "!double getImag()", "!void putReal(double)",
            "!void putImag(double)", "!DoubleBuffer getBuffer()");
        methods(Request.class, "void free()", "void cancel()", "!boolean isNull()", "Status waitStatus()", "void waitFor()",
            "Status testStatus()", "boolean test()", "static Status waitAnyStatus(Request[])", "static int waitAny(Request[])",
            "static Status testAnyStatus(Request[])", "static int testAny(Request[])",
            "static Status[] waitAllStatus(Request[])", "static void waitAll(Request[])",
            "static Status[] testAllStatus(Request[])", "static boolean testAll(Request[])",
            "static Status[] waitSomeStatus(Request[])", "static int[] waitSome(Request[])",
            "static Status[] testSomeStatus(Request[])", "static int[] testSome(Request[])");
        methods(Datatype.class, "int getLb()", "int getExtent()", "int getTrueLb()", "int getTrueExtent()",
            "int getSize()", "void commit()", "void free()", "!boolean isNull()", "!Datatype clone()", "Datatype dup()",
            "static Datatype createContiguous(int,Datatype)", "static Datatype createVector(int,int,int,Datatype)",
            "static Datatype createHVector(int,int,int,Datatype)", "static Datatype createIndexed(int[],int[],Datatype)",
            "static Datatype createHIndexed(int[],int[],Datatype)", "static Datatype createStruct(int[],int[],Datatype[])",
            "static Datatype createResized(Datatype,int,int)", "void setName(String)", "String getName()",
            "static int createKeyval()", "static void freeKeyval(int)", "void setAttr(int,Object)", "Object getAttr(int)",
            "void deleteAttr(int)");
        constructors(Op.class, "!UserFunction,boolean");
        methods(Op.class, "!boolean isCommutative()", "void free()", "!boolean isNull()");
        // not in the bindings: this module's generalised requests
        methods(GRequest.class, "void complete()");
    }

    @Test
    void groupInfoMessageAndTopologiesHaveTheBindingsCalls() throws Exception
    {
        methods(mpi.Group.class, "int getSize()", "int getRank()", "void free()", "!boolean isNull()",
            "static int[] translateRanks(Group,int[],Group)", "static int compare(Group,Group)",
            "static Group union(Group,Group)", "static Group intersection(Group,Group)",
            "static Group difference(Group,Group)", "Group incl(int[])", "Group excl(int[])", "Group rangeIncl(int[][])",
            "Group rangeExcl(int[][])");
        constructors(Info.class, "");
        methods(Info.class, "void set(String,String)", "String get(String)", "void delete(String)", "int size()",
            "String getKey(int)", "!Info clone()", "Info dup()", "void free()", "!boolean isNull()");
        constructors(mpi.Message.class, "!");
        methods(mpi.Message.class, "!boolean isNull()", "!boolean isNoProc()", "Status mProbe(int,int,Comm)",
            "Status imProbe(int,int,Comm)", "Status mRecv(Object,int,Datatype)", "Request imRecv(Object,int,Datatype)");
        methods(Intercomm.class, "!Intercomm clone()", "Intercomm dup()", "Intercomm iDup()", "int getRemoteSize()",
            "Group getRemoteGroup()", "Intracomm merge(boolean)", "static Intercomm getParent()");
        methods(CartComm.class, "!CartComm clone()", "CartComm dup()", "CartComm iDup()", "CartParms getTopo()",
            "int getRank(int[])", "int[] getCoords(int)", "ShiftParms shift(int,int)", "CartComm sub(boolean[])",
            "int map(int[],boolean[])", "static void createDims(int,int[])");
        methods(GraphComm.class, "!GraphComm clone()", "GraphComm dup()", "GraphComm iDup()", "GraphParms getDims()",
            "int[] getNeighbors(int)", "DistGraphNeighbors getDistGraphNeighbors()", "int map(int[],int[])");
        methods(mpi.DistGraphNeighbors.class, "!int getInDegree()", "!int getOutDegree()", "!boolean isWeighted()",
            "!int getSource(int)", "!int getSourceWeight(int)", "!int getDestination(int)",
            "!int getDestinationWeight(int)");
        methods(Prequest.class, "void start()", "static void startAll(Prequest[])");
        methods(mpi.Struct.class, "int getExtent()", "Datatype getType()", "Struct.Data getData(ByteBuffer)",
            "Struct.Data getData(ByteBuffer,int)", "Struct.Data getData(byte[])", "Struct.Data getData(byte[],int)",
            "!Struct setOffset(int)", "!int addByte()", "!int addByte(int)", "!int addChar()", "!int addChar(int)",
            "!int addShort()", "!int addShort(int)", "!int addInt()", "!int addInt(int)", "!int addLong()",
            "!int addLong(int)", "!int addFloat()", "!int addFloat(int)", "!int addDouble()", "!int addDouble(int)",
            "int addStruct(Struct)", "int addStruct(Struct,int)", "int addData(Datatype)", "int addData(Datatype,int)");
        methods(mpi.Struct.Data.class, "!ByteBuffer getBuffer()");
        methods(mpi.UserFunction.class, "void call(Object,Object,int,Datatype)",
            "void call(ByteBuffer,ByteBuffer,int,Datatype)");
        constructors(MPIException.class, "!String", "!Throwable");
        methods(MPIException.class, "!int getErrorCode()", "!int getErrorClass()");
    }

    @Test
    void fileHasTheBindingsCalls() throws Exception
    {
        constructors(mpi.File.class, "Comm,String,int", "Comm,String,int,Info");
        methods(mpi.File.class, "void close()", "static void delete(String)", "static void delete(String,Info)",
            "void setSize(long)", "void preallocate(long)", "long getSize()", "Group getGroup()", "int getAMode()",
            "void setInfo(Info)", "Info getInfo()", "void setView(long,Datatype,Datatype,String)",
            "void setView(long,Datatype,Datatype,String,Info)", "!FileView getView()",
            "Status readAt(long,Object,int,Datatype)", "Status readAtAll(long,Object,int,Datatype)",
            "Status writeAt(long,Object,int,Datatype)", "Status writeAtAll(long,Object,int,Datatype)",
            "Request iReadAt(long,Buffer,int,Datatype)", "Request iWriteAt(long,Buffer,int,Datatype)",
            "Status read(Object,int,Datatype)", "Status readAll(Object,int,Datatype)", "Status write(Object,int,Datatype)",
            "Status writeAll(Object,int,Datatype)", "Request iRead(Buffer,int,Datatype)",
            "Request iWrite(Buffer,int,Datatype)", "void seek(long,int)", "long getPosition()", "long getByteOffset(long)",
            "Status readShared(Object,int,Datatype)", "Status writeShared(Object,int,Datatype)",
            "Request iReadShared(Buffer,int,Datatype)", "Request iWriteShared(Buffer,int,Datatype)",
            "Status readOrdered(Object,int,Datatype)", "Status writeOrdered(Object,int,Datatype)",
            "void seekShared(long,int)", "long getPositionShared()", "void readAtAllBegin(long,Object,int,Datatype)",
            "Status readAtAllEnd(Object)", "void writeAtAllBegin(long,Object,int,Datatype)", "Status writeAtAllEnd(Object)",
            "void readAllBegin(Object,int,Datatype)", "Status readAllEnd(Object)", "void writeAllBegin(Object,int,Datatype)",
            "Status writeAllEnd(Object)", "void readOrderedBegin(Object,int,Datatype)", "Status readOrderedEnd(Object)",
            "void writeOrderedBegin(Object,int,Datatype)", "Status writeOrderedEnd(Object)", "int getTypeExtent(Datatype)",
            "void setAtomicity(boolean)", "void sync()");
    }

    @Test
    void winHasTheBindingsCalls() throws Exception
    {
        constants(Win.class, "int", "WIN_NULL", "FLAVOR_PRIVATE", "FLAVOR_SHARED");
        constructors(Win.class, "Buffer,int,int,Info,Comm", "int,int,Info,Comm,Buffer,int", "Info,Comm");
        methods(Win.class, "void attach(Buffer,int)", "void detach(Buffer)", "Group getGroup()",
            "void put(Buffer,int,Datatype,int,int,int,Datatype)", "void get(Buffer,int,Datatype,int,int,int,Datatype)",
            "void accumulate(Buffer,int,Datatype,int,int,int,Datatype,Op)", "void fence(int)", "void start(Group,int)",
            "void complete()", "void post(Group,int)", "void waitFor()", "boolean test()", "void lock(int,int,int)",
            "void unlock(int)", "void setErrhandler(Errhandler)", "void callErrhandler(int)", "static int createKeyval()",
            "static void freeKeyval(int)", "void setAttr(int,Object)", "Object getAttr(int)", "void deleteAttr(int)",
            "void free()", "Info getInfo()", "void setInfo(Info)",
            "Request rPut(Buffer,int,Datatype,int,int,int,Datatype)",
            "Request rGet(Buffer,int,Datatype,int,int,int,Datatype)",
            "Request rAccumulate(Buffer,int,Datatype,int,int,int,Datatype,Op)",
            "void getAccumulate(Buffer,int,Datatype,Buffer,int,Datatype,int,int,int,Datatype,Op)",
            "Request rGetAccumulate(Buffer,int,Datatype,Buffer,int,Datatype,int,int,int,Datatype,Op)",
            "void lockAll(int)", "void unlockAll()", "void sync()", "void flush(int)", "void flushAll()",
            "void compareAndSwap(Buffer,Buffer,Buffer,Datatype,int,int)", "void fetchAndOp(Buffer,Buffer,Datatype,int,int,Op)",
            "void flushLocal(int)", "void flushLocalAll()", "String getName()", "void setName(String)");
    }
}
