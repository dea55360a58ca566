package mpi;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code MPI_Datatype}: a basic type or a derived one (contiguous, vector, indexed, struct,
 * resized). As in the Open MPI Java bindings, sizes, extents, lower bounds and the displacements
 * of vector/indexed types are counted in elements of the type's base type (the element of the
 * Java array or buffer it describes); {@code hVector}, {@code hIndexed} and {@code struct}
 * displacements are in bytes, and a struct's base type is {@link MPI#BYTE} (it describes a
 * {@code ByteBuffer}).
 *
 * <p>On the wire a message is the type map's basic elements in order, little-endian: what a C
 * MPI would send from the same bytes.
 */
public final class Datatype implements Freeable, Cloneable
{
    static final int K_NULL = 0;
    static final int K_BYTE = 1;
    static final int K_CHAR = 2;
    static final int K_SHORT = 3;
    static final int K_BOOLEAN = 4;
    static final int K_INT = 5;
    static final int K_LONG = 6;
    static final int K_FLOAT = 7;
    static final int K_DOUBLE = 8;
    static final int K_PACKED = 9;
    private static final int[] SIZE = {0, 1, 2, 2, 1, 4, 8, 4, 8, 1};
    private static final String[] NAME = {"MPI_DATATYPE_NULL", "MPI_BYTE", "MPI_CHAR", "MPI_SHORT", "MPI_BOOLEAN",
        "MPI_INT", "MPI_LONG", "MPI_FLOAT", "MPI_DOUBLE", "MPI_PACKED"};

    /** The base type: the element kind of the buffers this type describes. */
    final int baseType;
    final int baseSize;
    /** Type map: byte displacements and basic kinds. */
    final int[] disp;
    final int[] kinds;
    final long lbBytes;
    final long extentBytes;
    final long trueLbBytes;
    final long trueUbBytes;
    /** Bytes on the wire per element of this type. */
    final int wireSize;
    final boolean basic;
    /**
     * Whether the type map is a sequence of complex numbers ({@link MPI#FLOAT_COMPLEX},
     * {@link MPI#DOUBLE_COMPLEX} or types built only from them): its kinds come in (real,
     * imaginary) pairs, which {@link Op} multiplies as complex numbers and {@link Status} counts as
     * one element each.
     */
    boolean complex;
    private boolean committed;
    private boolean freed;
    private String name;
    private final java.util.Map<Integer, Object> attributes = new java.util.HashMap<>();

    private Datatype(final int baseType, final int[] disp, final int[] kinds, final long lbBytes, final long extentBytes,
        final boolean basic, final String name)
    {
        this.baseType = baseType;
        this.baseSize = SIZE[baseType];
        this.disp = disp;
        this.kinds = kinds;
        this.lbBytes = lbBytes;
        this.extentBytes = extentBytes;
        long tl = Long.MAX_VALUE;
        long tu = Long.MIN_VALUE;
        int w = 0;
        for (int i = 0; i < disp.length; i++)
        {
            tl = Math.min(tl, disp[i]);
            tu = Math.max(tu, disp[i] + SIZE[kinds[i]]);
            w += SIZE[kinds[i]];
        }
        this.trueLbBytes = disp.length == 0 ? 0 : tl;
        this.trueUbBytes = disp.length == 0 ? 0 : tu;
        this.wireSize = w;
        this.basic = basic;
        this.committed = basic;
        this.name = name;
    }

    static Datatype basic(final int kind)
    {
        return kind == K_NULL ? new Datatype(K_BYTE, new int[0], new int[0], 0, 0, true, NAME[0])
            : new Datatype(kind, new int[] {0}, new int[] {kind == K_PACKED ? K_BYTE : kind}, 0, SIZE[kind], true, NAME[kind]);
    }

    /** A predefined complex type: (real, imaginary) of {@code partKind}, described by buffers of that kind. */
    static Datatype complex(final int partKind, final String name)
    {
        final Datatype t = new Datatype(partKind, new int[] {0, SIZE[partKind]}, new int[] {partKind, partKind}, 0,
            2L * SIZE[partKind], true, name);
        t.complex = true;
        return t;
    }

    /** A pair type of MAXLOC/MINLOC: a value, then an int at {@code indexOffset}, padded to {@code extent} bytes. */
    static Datatype pair(final int valueKind, final int indexOffset, final int extent, final String name)
    {
        return new Datatype(K_BYTE, new int[] {0, indexOffset}, new int[] {valueKind, K_INT}, 0, extent, true, name);
    }

    static int sizeOf(final int kind)
    {
        return SIZE[kind];
    }

    boolean isPair()
    {
        return kinds.length == 2 && kinds[1] == K_INT && disp[0] == 0 && disp[1] > 0 && extentBytes >= disp[1] + 4;
    }

    // ------------------------------------------------------------------ constructors of derived types

    private static Datatype derived(final Datatype old, final long[] offsets, final String what) throws MPIException
    {
        return derived(old.baseType, new Datatype[] {old}, new int[offsets.length], offsets, what);
    }

    /** Places copies of {@code types[which[i]]} at byte offsets {@code offsets[i]}. */
    private static Datatype derived(final int base, final Datatype[] types, final int[] which, final long[] offsets,
        final String what) throws MPIException
    {
        final List<int[]> map = new ArrayList<>();
        boolean allComplex = offsets.length > 0;
        long lb = Long.MAX_VALUE;
        long ub = Long.MIN_VALUE;
        for (int i = 0; i < offsets.length; i++)
        {
            final Datatype t = types[which[i]];
            t.live(what);
            allComplex &= t.complex;
            for (int e = 0; e < t.disp.length; e++)
            {
                final long d = offsets[i] + t.disp[e];
                if (d > Integer.MAX_VALUE || d < Integer.MIN_VALUE)
                {
                    throw new MPIException(MPI.ERR_ARG, what + ": displacement " + d + " bytes is out of range");
                }
                map.add(new int[] {(int)d, t.kinds[e]});
            }
            lb = Math.min(lb, offsets[i] + t.lbBytes);
            ub = Math.max(ub, offsets[i] + t.lbBytes + t.extentBytes);
        }
        final int[] d = new int[map.size()];
        final int[] k = new int[map.size()];
        for (int i = 0; i < d.length; i++)
        {
            d[i] = map.get(i)[0];
            k[i] = map.get(i)[1];
        }
        if (offsets.length == 0)
        {
            lb = 0;
            ub = 0;
        }
        final Datatype result = new Datatype(base, d, k, lb, ub - lb, false, what);
        result.complex = allComplex;
        return result;
    }

    private static void nonNegative(final String what, final String arg, final int v) throws MPIException
    {
        if (v < 0)
        {
            throw new MPIException(MPI.ERR_COUNT, what + ": " + arg + " " + v + " must be at least 0");
        }
    }

    /** The largest number of old-type elements a derived type may place (a Java array's bound). */
    private static final int MAX_ELEMENTS = Integer.MAX_VALUE - 8;

    private static int elements(final String what, final String arg, final long n) throws MPIException
    {
        if (n > MAX_ELEMENTS)
        {
            throw new MPIException(MPI.ERR_COUNT, what + ": " + arg + " = " + n + " elements; a type may hold at most "
                + MAX_ELEMENTS);
        }
        return (int)n;
    }

    private static void same(final String what, final int[] a, final String an, final int[] b, final String bn)
        throws MPIException
    {
        if (a == null || b == null || a.length != b.length)
        {
            throw new MPIException(MPI.ERR_ARG, what + ": " + an + " and " + bn + " must have the same length");
        }
    }

    /**
     * {@code MPI_TYPE_CONTIGUOUS}.
     *
     * @param count   number of copies, at least 0.
     * @param oldType the old type.
     * @return the new (uncommitted) type.
     * @throws MPIException with {@link MPI#ERR_COUNT} for a negative count.
     */
    public static Datatype createContiguous(final int count, final Datatype oldType) throws MPIException
    {
        nonNegative("createContiguous", "count", count);
        final long[] o = new long[count];
        for (int i = 0; i < count; i++)
        {
            o[i] = i * oldType.extentBytes;
        }
        return derived(oldType, o, "createContiguous");
    }

    /**
     * {@code MPI_TYPE_VECTOR}: {@code count} blocks of {@code blockLength} old elements, block
     * starts {@code stride} old extents apart.
     *
     * @param count       number of blocks.
     * @param blockLength elements per block.
     * @param stride      distance between block starts, in extents of the old type.
     * @param oldType     the old type.
     * @return the new type.
     * @throws MPIException with {@link MPI#ERR_COUNT} for a negative count or block length.
     */
    public static Datatype createVector(final int count, final int blockLength, final int stride, final Datatype oldType)
        throws MPIException
    {
        return vector(count, blockLength, stride * oldType.extentBytes, oldType, "createVector");
    }

    /**
     * {@code MPI_TYPE_CREATE_HVECTOR}: as {@link #createVector} with the stride in bytes.
     *
     * @param count       number of blocks.
     * @param blockLength elements per block.
     * @param stride      distance between block starts, in bytes.
     * @param oldType     the old type.
     * @return the new type.
     * @throws MPIException with {@link MPI#ERR_COUNT} for a negative count or block length.
     */
    public static Datatype createHVector(final int count, final int blockLength, final int stride, final Datatype oldType)
        throws MPIException
    {
        return vector(count, blockLength, stride, oldType, "createHVector");
    }

    private static Datatype vector(final int count, final int blockLength, final long strideBytes, final Datatype old,
        final String what) throws MPIException
    {
        nonNegative(what, "count", count);
        nonNegative(what, "blockLength", blockLength);
        final long[] o = new long[elements(what, "count " + count + " x blockLength " + blockLength, (long)count * blockLength)];
        for (int i = 0, n = 0; i < count; i++)
        {
            for (int j = 0; j < blockLength; j++)
            {
                o[n++] = i * strideBytes + j * old.extentBytes;
            }
        }
        return derived(old, o, what);
    }

    /**
     * {@code MPI_TYPE_INDEXED}.
     *
     * @param blockLengths  elements per block.
     * @param displacements block displacements, in extents of the old type.
     * @param oldType       the old type.
     * @return the new type.
     * @throws MPIException with {@link MPI#ERR_ARG} when the arrays differ in length.
     */
    public static Datatype createIndexed(final int[] blockLengths, final int[] displacements, final Datatype oldType)
        throws MPIException
    {
        return indexed(blockLengths, displacements, oldType.extentBytes, oldType, "createIndexed");
    }

    /**
     * {@code MPI_TYPE_CREATE_HINDEXED}: as {@link #createIndexed} with displacements in bytes.
     *
     * @param blockLengths  elements per block.
     * @param displacements block displacements, in bytes.
     * @param oldType       the old type.
     * @return the new type.
     * @throws MPIException with {@link MPI#ERR_ARG} when the arrays differ in length.
     */
    public static Datatype createHIndexed(final int[] blockLengths, final int[] displacements, final Datatype oldType)
        throws MPIException
    {
        return indexed(blockLengths, displacements, 1, oldType, "createHIndexed");
    }

    /**
     * {@code MPI_TYPE_CREATE_INDEXED_BLOCK}.
     *
     * @param blockLength   elements per block.
     * @param displacements block displacements, in extents of the old type.
     * @param oldType       the old type.
     * @return the new type.
     * @throws MPIException with {@link MPI#ERR_COUNT} for a negative block length.
     */
    public static Datatype createIndexedBlock(final int blockLength, final int[] displacements, final Datatype oldType)
        throws MPIException
    {
        final int[] b = new int[displacements.length];
        Arrays.fill(b, blockLength);
        return indexed(b, displacements, oldType.extentBytes, oldType, "createIndexedBlock");
    }

    private static Datatype indexed(final int[] blockLengths, final int[] displacements, final long unit,
        final Datatype old, final String what) throws MPIException
    {
        same(what, blockLengths, "blockLengths", displacements, "displacements");
        long n = 0;
        for (final int b : blockLengths)
        {
            nonNegative(what, "blockLength", b);
            n += b;
        }
        final long[] o = new long[elements(what, "the block lengths' sum", n)];
        for (int i = 0, k = 0; i < blockLengths.length; i++)
        {
            for (int j = 0; j < blockLengths[i]; j++)
            {
                o[k++] = displacements[i] * unit + j * old.extentBytes;
            }
        }
        return derived(old, o, what);
    }

    /**
     * {@code MPI_TYPE_CREATE_STRUCT}: blocks of different types at byte displacements; the result
     * describes a {@code ByteBuffer} (base type {@link MPI#BYTE}).
     *
     * @param blockLengths  elements per block.
     * @param displacements block displacements, in bytes.
     * @param types         block types.
     * @return the new type.
     * @throws MPIException with {@link MPI#ERR_ARG} when the arrays differ in length.
     */
    public static Datatype createStruct(final int[] blockLengths, final int[] displacements, final Datatype[] types)
        throws MPIException
    {
        same("createStruct", blockLengths, "blockLengths", displacements, "displacements");
        if (types == null || types.length != blockLengths.length)
        {
            throw new MPIException(MPI.ERR_ARG, "createStruct: types and blockLengths must have the same length");
        }
        int n = 0;
        for (final int b : blockLengths)
        {
            nonNegative("createStruct", "blockLength", b);
            n += b;
        }
        final long[] o = new long[n];
        final int[] which = new int[n];
        for (int i = 0, k = 0; i < blockLengths.length; i++)
        {
            for (int j = 0; j < blockLengths[i]; j++)
            {
                which[k] = i;
                o[k++] = displacements[i] + j * types[i].extentBytes;
            }
        }
        return derived(K_BYTE, types, which, o, "createStruct");
    }

    /**
     * {@code MPI_TYPE_CREATE_RESIZED}: the same type map with another lower bound and extent.
     *
     * @param oldType the old type.
     * @param lb      new lower bound, in base-type elements.
     * @param extent  new extent, in base-type elements.
     * @return the new type.
     * @throws MPIException when the old type was freed.
     */
    public static Datatype createResized(final Datatype oldType, final int lb, final int extent) throws MPIException
    {
        oldType.live("createResized");
        final Datatype t = new Datatype(oldType.baseType, oldType.disp, oldType.kinds, (long)lb * oldType.baseSize,
            (long)extent * oldType.baseSize, false, "createResized");
        t.complex = oldType.complex;
        return t;
    }

    // ------------------------------------------------------------------ queries

    /**
     * {@code MPI_TYPE_COMMIT}.
     *
     * @throws MPIException when the type was freed.
     */
    public void commit() throws MPIException
    {
        live("commit");
        committed = true;
    }

    /**
     * {@code MPI_TYPE_FREE}: predefined types cannot be freed.
     *
     * @throws MPIException with {@link MPI#ERR_TYPE} for a predefined type.
     */
    @Override
    public void free() throws MPIException
    {
        if (basic)
        {
            throw new MPIException(MPI.ERR_TYPE, "free: " + name + " is predefined and cannot be freed");
        }
        freed = true;
    }

    /**
     * @return whether this is {@link MPI#DATATYPE_NULL} (or was freed).
     */
    public boolean isNull()
    {
        return freed || disp.length == 0 && basic;
    }

    /**
     * {@code MPI_TYPE_DUP}.
     *
     * @return a committed copy.
     * @throws MPIException when the type was freed.
     */
    public Datatype dup() throws MPIException
    {
        live("dup");
        final Datatype d = new Datatype(baseType, disp, kinds, lbBytes, extentBytes, false, name);
        d.committed = committed;
        d.complex = complex;
        return d;
    }

    /**
     * {@code MPI_TYPE_SIZE}.
     *
     * @return the data of one element of this type, in base-type elements.
     * @throws MPIException when the type was freed.
     */
    public int getSize() throws MPIException
    {
        live("getSize");
        return wireSize / baseSize;
    }

    /**
     * {@code MPI_TYPE_GET_EXTENT}.
     *
     * @return the extent, in base-type elements.
     * @throws MPIException when the type was freed.
     */
    public int getExtent() throws MPIException
    {
        live("getExtent");
        return (int)(extentBytes / baseSize);
    }

    /**
     * {@code MPI_TYPE_GET_EXTENT}.
     *
     * @return the lower bound, in base-type elements.
     * @throws MPIException when the type was freed.
     */
    public int getLb() throws MPIException
    {
        live("getLb");
        return (int)(lbBytes / baseSize);
    }

    /**
     * {@code MPI_TYPE_GET_TRUE_EXTENT}.
     *
     * @return the true extent (from the first to the last byte of data), in base-type elements.
     * @throws MPIException when the type was freed.
     */
    public int getTrueExtent() throws MPIException
    {
        live("getTrueExtent");
        return (int)((trueUbBytes - trueLbBytes) / baseSize);
    }

    /**
     * {@code MPI_TYPE_GET_TRUE_EXTENT}.
     *
     * @return the true lower bound, in base-type elements.
     * @throws MPIException when the type was freed.
     */
    public int getTrueLb() throws MPIException
    {
        live("getTrueLb");
        return (int)(trueLbBytes / baseSize);
    }

    /**
     * @return the base type's size in bytes.
     */
    public int getBaseSize()
    {
        return baseSize;
    }

    /**
     * {@code MPI_TYPE_SET_NAME}.
     *
     * @param name the name.
     * @throws MPIException when the type was freed.
     */
    public void setName(final String name) throws MPIException
    {
        live("setName");
        this.name = name;
    }

    /**
     * {@code MPI_TYPE_GET_NAME}.
     *
     * @return the name.
     * @throws MPIException when the type was freed.
     */
    public String getName() throws MPIException
    {
        live("getName");
        return name;
    }

    /**
     * {@code MPI_TYPE_DUP} for callers that cannot handle {@link MPIException} (as in the bindings:
     * prefer {@link #dup()}).
     *
     * @return a copy.
     * @throws RuntimeException carrying the message of the {@link MPIException} {@link #dup()} threw.
     */
    @Override
    public Datatype clone()
    {
        try
        {
            return dup();
        }
        catch (final MPIException e)
        {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /**
     * {@code MPI_TYPE_CREATE_KEYVAL} (keys are shared with communicators and windows).
     *
     * @return a new key.
     * @throws MPIException when MPI is not initialized.
     */
    public static int createKeyval() throws MPIException
    {
        return Comm.createKeyval();
    }

    /**
     * {@code MPI_TYPE_FREE_KEYVAL}.
     *
     * @param keyval the key.
     * @throws MPIException on a bad key.
     */
    public static void freeKeyval(final int keyval) throws MPIException
    {
        Comm.freeKeyval(keyval);
    }

    /**
     * {@code MPI_TYPE_SET_ATTR}: stores a value under a key on this type.
     *
     * @param keyval the key.
     * @param value  the value.
     * @throws MPIException when the type was freed.
     */
    public void setAttr(final int keyval, final Object value) throws MPIException
    {
        live("setAttr");
        attributes.put(keyval, value);
    }

    /**
     * {@code MPI_TYPE_GET_ATTR}.
     *
     * @param keyval the key.
     * @return the value, or null when none is stored under the key.
     * @throws MPIException when the type was freed.
     */
    public Object getAttr(final int keyval) throws MPIException
    {
        live("getAttr");
        return attributes.get(keyval);
    }

    /**
     * {@code MPI_TYPE_DELETE_ATTR}.
     *
     * @param keyval the key.
     * @throws MPIException when the type was freed.
     */
    public void deleteAttr(final int keyval) throws MPIException
    {
        live("deleteAttr");
        attributes.remove(keyval);
    }

    @Override
    public String toString()
    {
        return name;
    }

    void live(final String what) throws MPIException
    {
        if (freed)
        {
            throw new MPIException(MPI.ERR_TYPE, what + ": datatype " + name + " was freed");
        }
    }

    void usable(final String what) throws MPIException
    {
        live(what);
        if (!committed)
        {
            throw new MPIException(MPI.ERR_TYPE, what + ": datatype " + name + " is not committed (call commit())");
        }
        if (disp.length == 0 && basic)
        {
            throw new MPIException(MPI.ERR_TYPE, what + ": datatype is MPI.DATATYPE_NULL");
        }
    }

    // ------------------------------------------------------------------ buffers

    /** The element kind of a buffer object, or -1. */
    static int kindOf(final Object buf)
    {
        return switch (buf)
        {
            case byte[] a -> K_BYTE;
            case char[] a -> K_CHAR;
            case short[] a -> K_SHORT;
            case boolean[] a -> K_BOOLEAN;
            case int[] a -> K_INT;
            case long[] a -> K_LONG;
            case float[] a -> K_FLOAT;
            case double[] a -> K_DOUBLE;
            case ByteBuffer b -> K_BYTE;
            case CharBuffer b -> K_CHAR;
            case ShortBuffer b -> K_SHORT;
            case IntBuffer b -> K_INT;
            case LongBuffer b -> K_LONG;
            case FloatBuffer b -> K_FLOAT;
            case DoubleBuffer b -> K_DOUBLE;
            default -> -1;
        };
    }

    /** The capacity of a buffer object, in bytes. */
    static long capacityBytes(final Object buf)
    {
        final int k = kindOf(buf);
        final long n = buf instanceof Buffer b ? b.capacity() : java.lang.reflect.Array.getLength(buf);
        return n * SIZE[k];
    }

    /**
     * Checks that {@code count} elements of this type fit {@code buf}, an array or buffer of the
     * base type (a {@code ByteBuffer} takes any type).
     */
    void check(final String what, final String arg, final Object buf, final int count) throws MPIException
    {
        usable(what);
        if (count < 0)
        {
            throw new MPIException(MPI.ERR_COUNT, what + ": count " + count + " must be at least 0");
        }
        if (count == 0 || wireSize == 0)
        {
            return;
        }
        if (buf == null)
        {
            throw new MPIException(MPI.ERR_BUFFER, what + ": " + arg + " is null");
        }
        final int k = kindOf(buf);
        if (k < 0)
        {
            throw new MPIException(MPI.ERR_BUFFER, what + ": " + arg + " of class " + buf.getClass().getName()
                + " must be a Java primitive array or an NIO buffer");
        }
        if (k != baseType && !(buf instanceof ByteBuffer) && !(buf instanceof byte[] && baseType == K_BYTE))
        {
            throw new MPIException(MPI.ERR_TYPE, what + ": " + arg + " of " + NAME[k].substring(4).toLowerCase()
                + " elements does not match datatype " + name + " (base type " + NAME[baseType] + ")");
        }
        if (!(buf instanceof ByteBuffer))
        {
            for (final int kind : kinds)
            {
                if (kind != k)
                {
                    throw new MPIException(MPI.ERR_TYPE, what + ": " + arg + " of " + NAME[k].substring(4).toLowerCase()
                        + " elements cannot hold datatype " + name + ", which holds " + NAME[kind] + " (use a ByteBuffer)");
                }
            }
        }
        final long need = (count - 1L) * extentBytes + trueUbBytes;
        final long first = trueLbBytes + Math.min(0, (count - 1L) * extentBytes);
        if (first < 0)
        {
            // a negative displacement: the data starts before the buffer (a Java array has nothing there)
            throw new MPIException(MPI.ERR_BUFFER, what + ": count " + count + " of " + name + " reaches element "
                + Math.floorDiv(first, baseSize) + ", before the start of " + arg + " (element 0)");
        }
        if (need > capacityBytes(buf))
        {
            throw new MPIException(MPI.ERR_BUFFER, what + ": count " + count + " of " + name + " needs "
                + need / baseSize + " elements but " + arg + " holds " + capacityBytes(buf) / baseSize);
        }
    }

    /**
     * Checks that {@code count} elements of this type starting {@code byteOffset} bytes into
     * {@code buf} fit it (the byte displacements of {@code MPI_ALLTOALLW}); the offset must be a
     * whole number of {@code buf}'s elements.
     */
    void checkAt(final String what, final String arg, final Object buf, final long byteOffset, final int count)
        throws MPIException
    {
        check(what, arg, buf, count);
        if (count == 0 || wireSize == 0)
        {
            return;
        }
        final int unit = SIZE[kindOf(buf)];
        if (byteOffset < 0 || byteOffset % unit != 0)
        {
            throw new MPIException(MPI.ERR_ARG, what + ": displacement " + byteOffset + " bytes into " + arg
                + " must be at least 0 and a multiple of its element size (" + unit + " bytes)");
        }
        final long need = byteOffset + (count - 1L) * extentBytes + trueUbBytes;
        if (need > capacityBytes(buf))
        {
            throw new MPIException(MPI.ERR_BUFFER, what + ": count " + count + " of " + name + " at byte " + byteOffset
                + " needs " + need + " bytes but " + arg + " holds " + capacityBytes(buf));
        }
    }

    /** Packs {@code count} elements at element {@code offset} of {@code buf} into the wire format. */
    byte[] pack(final Object buf, final int offset, final int count)
    {
        return packAt(buf, (long)offset * baseSize, count);
    }

    /** Packs {@code count} elements starting {@code base} bytes into {@code buf} into the wire format. */
    byte[] packAt(final Object buf, final long base, final int count)
    {
        final byte[] out = new byte[count * wireSize];
        final ByteBuffer w = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        if (contiguousBasic())
        {
            bulk(buf, base, count * wireSize / SIZE[kindOf(buf)], w, true);
            return out;
        }
        int p = 0;
        for (int i = 0; i < count; i++)
        {
            final long at = base + i * extentBytes;
            for (int e = 0; e < disp.length; e++)
            {
                p = get(buf, kinds[e], at + disp[e], w, p);
            }
        }
        return out;
    }

    /** Unpacks wire bytes (at most {@code count} elements' worth) into {@code buf}. */
    void unpack(final byte[] in, final int length, final Object buf, final int offset)
    {
        unpackAt(in, length, buf, (long)offset * baseSize);
    }

    /** Unpacks wire bytes into {@code buf} starting {@code base} bytes into it. */
    void unpackAt(final byte[] in, final int length, final Object buf, final long base)
    {
        final ByteBuffer r = ByteBuffer.wrap(in, 0, length).order(ByteOrder.LITTLE_ENDIAN);
        if (contiguousBasic())
        {
            bulk(buf, base, length / wireSize * wireSize / SIZE[kindOf(buf)], r, false);
            return;
        }
        int p = 0;
        for (int i = 0; p < length; i++)
        {
            final long at = base + i * extentBytes;
            for (int e = 0; e < disp.length && p < length; e++)
            {
                p = put(buf, kinds[e], at + disp[e], r, p);
            }
        }
    }

    private boolean contiguousBasic()
    {
        return disp.length == 1 && disp[0] == 0 && extentBytes == SIZE[kinds[0]] && kinds[0] == baseType;
    }

    private static void bulk(final Object buf, final long byteOff, final int n, final ByteBuffer w, final boolean toWire)
    {
        final int off = (int)(byteOff / Math.max(1, SIZE[kindOf(buf)]));
        switch (buf)
        {
            case byte[] a ->
            {
                if (toWire)
                {
                    w.put(0, a, off, n);
                }
                else
                {
                    w.get(0, a, off, n);
                }
            }
            case boolean[] a ->
            {
                for (int i = 0; i < n; i++)
                {
                    if (toWire)
                    {
                        w.put(i, (byte)(a[off + i] ? 1 : 0));
                    }
                    else
                    {
                        a[off + i] = w.get(i) != 0;
                    }
                }
            }
            case char[] a -> transfer(CharBuffer.wrap(a, off, n).slice(), w.asCharBuffer(), toWire);
            case short[] a -> transfer(ShortBuffer.wrap(a, off, n).slice(), w.asShortBuffer(), toWire);
            case int[] a -> transfer(IntBuffer.wrap(a, off, n).slice(), w.asIntBuffer(), toWire);
            case long[] a -> transfer(LongBuffer.wrap(a, off, n).slice(), w.asLongBuffer(), toWire);
            case float[] a -> transfer(FloatBuffer.wrap(a, off, n).slice(), w.asFloatBuffer(), toWire);
            case double[] a -> transfer(DoubleBuffer.wrap(a, off, n).slice(), w.asDoubleBuffer(), toWire);
            case ByteBuffer b -> transfer(b.duplicate().clear().position(off).limit(off + n).slice(), w, toWire);
            case CharBuffer b -> transfer(b.duplicate().clear().position(off).limit(off + n).slice(), w.asCharBuffer(), toWire);
            case ShortBuffer b -> transfer(b.duplicate().clear().position(off).limit(off + n).slice(), w.asShortBuffer(), toWire);
            case IntBuffer b -> transfer(b.duplicate().clear().position(off).limit(off + n).slice(), w.asIntBuffer(), toWire);
            case LongBuffer b -> transfer(b.duplicate().clear().position(off).limit(off + n).slice(), w.asLongBuffer(), toWire);
            case FloatBuffer b -> transfer(b.duplicate().clear().position(off).limit(off + n).slice(), w.asFloatBuffer(), toWire);
            case DoubleBuffer b -> transfer(b.duplicate().clear().position(off).limit(off + n).slice(), w.asDoubleBuffer(), toWire);
            default -> throw new IllegalArgumentException("buffer of class " + buf.getClass().getName());
        }
    }

    private static void transfer(final Buffer user, final Buffer wire, final boolean toWire)
    {
        final int n = user.remaining();
        switch (user)
        {
            case ByteBuffer u -> copy(u, (ByteBuffer)wire, n, toWire);
            case CharBuffer u -> { if (toWire) { ((CharBuffer)wire).put(u); } else { u.put(((CharBuffer)wire).limit(n)); } }
            case ShortBuffer u -> { if (toWire) { ((ShortBuffer)wire).put(u); } else { u.put(((ShortBuffer)wire).limit(n)); } }
            case IntBuffer u -> { if (toWire) { ((IntBuffer)wire).put(u); } else { u.put(((IntBuffer)wire).limit(n)); } }
            case LongBuffer u -> { if (toWire) { ((LongBuffer)wire).put(u); } else { u.put(((LongBuffer)wire).limit(n)); } }
            case FloatBuffer u -> { if (toWire) { ((FloatBuffer)wire).put(u); } else { u.put(((FloatBuffer)wire).limit(n)); } }
            case DoubleBuffer u -> { if (toWire) { ((DoubleBuffer)wire).put(u); } else { u.put(((DoubleBuffer)wire).limit(n)); } }
            default -> throw new IllegalArgumentException("buffer of class " + user.getClass().getName());
        }
    }

    private static void copy(final ByteBuffer u, final ByteBuffer w, final int n, final boolean toWire)
    {
        final ByteBuffer wd = w.duplicate().clear().limit(n);
        if (toWire)
        {
            wd.put(u);
        }
        else
        {
            u.put(wd);
        }
    }

    /** Reads one basic element of {@code kind} at byte offset {@code at} of {@code buf} onto the wire at {@code p}. */
    private static int get(final Object buf, final int kind, final long at, final ByteBuffer w, final int p)
    {
        if (buf instanceof ByteBuffer b)
        {
            final int i = (int)at;
            switch (kind)
            {
                case K_BYTE, K_BOOLEAN -> w.put(p, b.get(i));
                case K_CHAR -> w.putChar(p, b.getChar(i));
                case K_SHORT -> w.putShort(p, b.getShort(i));
                case K_INT -> w.putInt(p, b.getInt(i));
                case K_LONG -> w.putLong(p, b.getLong(i));
                case K_FLOAT -> w.putFloat(p, b.getFloat(i));
                default -> w.putDouble(p, b.getDouble(i));
            }
            return p + SIZE[kind];
        }
        final int i = (int)(at / SIZE[kind]);
        switch (buf)
        {
            case byte[] a -> w.put(p, a[i]);
            case boolean[] a -> w.put(p, (byte)(a[i] ? 1 : 0));
            case char[] a -> w.putChar(p, a[i]);
            case short[] a -> w.putShort(p, a[i]);
            case int[] a -> w.putInt(p, a[i]);
            case long[] a -> w.putLong(p, a[i]);
            case float[] a -> w.putFloat(p, a[i]);
            case double[] a -> w.putDouble(p, a[i]);
            case CharBuffer b -> w.putChar(p, b.get(i));
            case ShortBuffer b -> w.putShort(p, b.get(i));
            case IntBuffer b -> w.putInt(p, b.get(i));
            case LongBuffer b -> w.putLong(p, b.get(i));
            case FloatBuffer b -> w.putFloat(p, b.get(i));
            case DoubleBuffer b -> w.putDouble(p, b.get(i));
            default -> throw new IllegalArgumentException("buffer of class " + buf.getClass().getName());
        }
        return p + SIZE[kind];
    }

    private static int put(final Object buf, final int kind, final long at, final ByteBuffer r, final int p)
    {
        if (buf instanceof ByteBuffer b)
        {
            final int i = (int)at;
            switch (kind)
            {
                case K_BYTE, K_BOOLEAN -> b.put(i, r.get(p));
                case K_CHAR -> b.putChar(i, r.getChar(p));
                case K_SHORT -> b.putShort(i, r.getShort(p));
                case K_INT -> b.putInt(i, r.getInt(p));
                case K_LONG -> b.putLong(i, r.getLong(p));
                case K_FLOAT -> b.putFloat(i, r.getFloat(p));
                default -> b.putDouble(i, r.getDouble(p));
            }
            return p + SIZE[kind];
        }
        final int i = (int)(at / SIZE[kind]);
        switch (buf)
        {
            case byte[] a -> a[i] = r.get(p);
            case boolean[] a -> a[i] = r.get(p) != 0;
            case char[] a -> a[i] = r.getChar(p);
            case short[] a -> a[i] = r.getShort(p);
            case int[] a -> a[i] = r.getInt(p);
            case long[] a -> a[i] = r.getLong(p);
            case float[] a -> a[i] = r.getFloat(p);
            case double[] a -> a[i] = r.getDouble(p);
            case CharBuffer b -> b.put(i, r.getChar(p));
            case ShortBuffer b -> b.put(i, r.getShort(p));
            case IntBuffer b -> b.put(i, r.getInt(p));
            case LongBuffer b -> b.put(i, r.getLong(p));
            case FloatBuffer b -> b.put(i, r.getFloat(p));
            case DoubleBuffer b -> b.put(i, r.getDouble(p));
            default -> throw new IllegalArgumentException("buffer of class " + buf.getClass().getName());
        }
        return p + SIZE[kind];
    }

    /** A fresh array of the base type holding {@code elements} base elements (for user operators). */
    Object newArray(final int elements)
    {
        return switch (baseType)
        {
            case K_CHAR -> new char[elements];
            case K_SHORT -> new short[elements];
            case K_BOOLEAN -> new boolean[elements];
            case K_INT -> new int[elements];
            case K_LONG -> new long[elements];
            case K_FLOAT -> new float[elements];
            case K_DOUBLE -> new double[elements];
            default -> new byte[elements];
        };
    }
}
