package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The function of a user-defined {@link Op}: combines {@code inVec} into {@code inOutVec}
 * element by element ({@code inOutVec[i] = inVec[i] op inOutVec[i]}, where {@code inVec} holds the
 * operand of the lower ranks). Override the array form (arrays of the datatype's base type, laid
 * out as in the user's buffer) or the {@code ByteBuffer} form (for struct types).
 */
public abstract class UserFunction
{
    /**
     * The array form.
     *
     * @param inVec    the values to combine with {@code inOutVec}.
     * @param inOutVec the accumulator, updated in place.
     * @param count    number of elements of {@code datatype}.
     * @param datatype their type.
     * @throws MPIException when the function fails.
     */
    public void call(final Object inVec, final Object inOutVec, final int count, final Datatype datatype)
        throws MPIException
    {
        throw new UnsupportedOperationException("UserFunction: override call(Object, Object, int, Datatype)"
            + " or call(ByteBuffer, ByteBuffer, int, Datatype)");
    }

    /**
     * The buffer form: the default reads both buffers as arrays of the datatype's base type and
     * calls the array form.
     *
     * @param in       the values to combine with {@code inOut} (native byte order).
     * @param inOut    the accumulator, updated in place.
     * @param count    number of elements of {@code datatype}.
     * @param datatype their type.
     * @throws MPIException when the function fails.
     */
    public void call(final ByteBuffer in, final ByteBuffer inOut, final int count, final Datatype datatype)
        throws MPIException
    {
        final int n = count * datatype.getExtent();
        final Object a = datatype.newArray(n);
        final Object b = datatype.newArray(n);
        final Datatype flat = Datatype.basic(datatype.baseType == Datatype.K_PACKED ? Datatype.K_BYTE : datatype.baseType);
        final ByteBuffer x = in.duplicate().order(ByteOrder.nativeOrder());
        final ByteBuffer y = inOut.duplicate().order(ByteOrder.nativeOrder());
        flat.unpack(flat.pack(x, 0, n), n * flat.wireSize, a, 0);
        flat.unpack(flat.pack(y, 0, n), n * flat.wireSize, b, 0);
        call(a, b, count, datatype);
        flat.unpack(flat.pack(b, 0, n), n * flat.wireSize, y, 0);
    }
}
