package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A view of one complex number stored as two {@code float}s (real, imaginary) in an array or a
 * buffer: element {@code index} of an array of complex numbers is at floats {@code 2 index} and
 * {@code 2 index + 1}. The data of {@link MPI#FLOAT_COMPLEX}; reading and writing through the view
 * reads and writes the underlying storage.
 */
public final class FloatComplex
{
    private final int offset;
    private final FloatBuffer buffer;

    private FloatComplex(final FloatBuffer buffer, final int index)
    {
        this.buffer = buffer;
        this.offset = index * 2;
    }

    /**
     * Views the complex number at the start of a buffer.
     *
     * @param buffer the storage.
     * @return the view.
     */
    public static FloatComplex get(final FloatBuffer buffer)
    {
        return new FloatComplex(buffer, 0);
    }

    /**
     * Views complex number {@code index} of a buffer of complex numbers.
     *
     * @param buffer the storage.
     * @param index  which complex number.
     * @return the view.
     */
    public static FloatComplex get(final FloatBuffer buffer, final int index)
    {
        return new FloatComplex(buffer, index);
    }

    /**
     * Views the complex number in the first two values of an array.
     *
     * @param array the storage.
     * @return the view.
     */
    public static FloatComplex get(final float[] array)
    {
        return new FloatComplex(FloatBuffer.wrap(array), 0);
    }

    /**
     * Views complex number {@code index} of an array of complex numbers.
     *
     * @param array the storage.
     * @param index which complex number.
     * @return the view.
     */
    public static FloatComplex get(final float[] array, final int index)
    {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    /**
     * Views the complex number at the start of a byte buffer (in the buffer's byte order).
     *
     * @param buffer the storage.
     * @return the view.
     */
    public static FloatComplex get(final ByteBuffer buffer)
    {
        return new FloatComplex(buffer.asFloatBuffer(), 0);
    }

    /**
     * Views complex number {@code index} of a byte buffer of complex numbers.
     *
     * @param buffer the storage.
     * @param index  which complex number.
     * @return the view.
     */
    public static FloatComplex get(final ByteBuffer buffer, final int index)
    {
        return new FloatComplex(buffer.asFloatBuffer(), index);
    }

    /**
     * Reads the real part.
     *
     * @return the real part.
     */
    public float getReal()
    {
        return buffer.get(offset);
    }

    /**
     * Reads the imaginary part.
     *
     * @return the imaginary part.
     */
    public float getImag()
    {
        return buffer.get(offset + 1);
    }

    /**
     * Writes the real part.
     *
     * @param real the real part.
     */
    public void putReal(final float real)
    {
        buffer.put(offset, real);
    }

    /**
     * Writes the imaginary part.
     *
     * @param imag the imaginary part.
     */
    public void putImag(final float imag)
    {
        buffer.put(offset + 1, imag);
    }

    /**
     * The storage from this complex number on.
     *
     * @return the buffer the number is stored in, sliced to start at it.
     */
    public FloatBuffer getBuffer()
    {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }

    @Override
    public String toString()
    {
        return "(" + getReal() + ", " + getImag() + ")";
    }
}
