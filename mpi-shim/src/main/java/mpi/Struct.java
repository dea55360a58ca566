package mpi;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A C-like struct laid out in a {@code ByteBuffer}, with its MPI datatype: a subclass adds its
 * fields in its constructor ({@link #addInt()}, {@link #addDouble()}, ...), each returning the
 * field's byte offset, and reads and writes them through a {@link Data} view of one element.
 */
public abstract class Struct
{
    private final List<int[]> fields = new ArrayList<>();
    private int extent;
    private int align = 1;
    private Datatype type;

    /**
     * @return the extent of one element in bytes (fields aligned as a C compiler would).
     * @throws MPIException never here.
     */
    public final int getExtent() throws MPIException
    {
        return (extent + align - 1) / align * align;
    }

    /**
     * @return the committed datatype of this struct (base type {@link MPI#BYTE}).
     * @throws MPIException when the type cannot be built.
     */
    public final Datatype getType() throws MPIException
    {
        if (type == null)
        {
            final int[] b = new int[fields.size()];
            final int[] d = new int[fields.size()];
            final Datatype[] t = new Datatype[fields.size()];
            for (int i = 0; i < b.length; i++)
            {
                b[i] = fields.get(i)[2];
                d[i] = fields.get(i)[0];
                t[i] = Datatype.basic(fields.get(i)[1]);
            }
            type = Datatype.createResized(Datatype.createStruct(b, d, t), 0, getExtent());
            type.commit();
        }
        return type;
    }

    /**
     * @return a new data view (the subclass's {@code Data}).
     */
    protected abstract Data newData();

    /**
     * The view of element 0 of a buffer.
     *
     * @param buffer a buffer of elements of this struct.
     * @param <T>    the data class.
     * @return the view.
     * @throws MPIException never here.
     */
    public final <T extends Data> T getData(final ByteBuffer buffer) throws MPIException
    {
        return getData(buffer, 0);
    }

    /**
     * The view of element {@code index} of a buffer.
     *
     * @param buffer a buffer of elements of this struct.
     * @param index  the element.
     * @param <T>    the data class.
     * @return the view.
     * @throws MPIException never here.
     */
    @SuppressWarnings("unchecked")
    public final <T extends Data> T getData(final ByteBuffer buffer, final int index) throws MPIException
    {
        final Data d = newData();
        d.buffer = buffer;
        d.offset = index * getExtent();
        return (T)d;
    }

    private int add(final int kind, final int length)
    {
        final int size = Datatype.sizeOf(kind);
        final int at = (extent + size - 1) / size * size;
        fields.add(new int[] {at, kind, length});
        extent = at + size * length;
        align = Math.max(align, size);
        return at;
    }

    /** @return the offset of a new byte field. */
    protected final int addByte()
    {
        return add(Datatype.K_BYTE, 1);
    }

    /** @return the offset of a new char field. */
    protected final int addChar()
    {
        return add(Datatype.K_CHAR, 1);
    }

    /** @return the offset of a new short field. */
    protected final int addShort()
    {
        return add(Datatype.K_SHORT, 1);
    }

    /** @return the offset of a new boolean field. */
    protected final int addBoolean()
    {
        return add(Datatype.K_BOOLEAN, 1);
    }

    /** @return the offset of a new int field. */
    protected final int addInt()
    {
        return add(Datatype.K_INT, 1);
    }

    /** @return the offset of a new long field. */
    protected final int addLong()
    {
        return add(Datatype.K_LONG, 1);
    }

    /** @return the offset of a new float field. */
    protected final int addFloat()
    {
        return add(Datatype.K_FLOAT, 1);
    }

    /** @return the offset of a new double field. */
    protected final int addDouble()
    {
        return add(Datatype.K_DOUBLE, 1);
    }

    /**
     * A view of one element of a struct in a buffer: typed access to its fields by byte offset.
     */
    public abstract static class Data
    {
        private ByteBuffer buffer;
        private int offset;

        /** @param field field offset @return its value */
        protected final byte getByte(final int field)
        {
            return buffer.get(offset + field);
        }

        /** @param field field offset @param v value */
        protected final void putByte(final int field, final byte v)
        {
            buffer.put(offset + field, v);
        }

        /** @param field field offset @return its value */
        protected final char getChar(final int field)
        {
            return buffer.getChar(offset + field);
        }

        /** @param field field offset @param v value */
        protected final void putChar(final int field, final char v)
        {
            buffer.putChar(offset + field, v);
        }

        /** @param field field offset @return its value */
        protected final short getShort(final int field)
        {
            return buffer.getShort(offset + field);
        }

        /** @param field field offset @param v value */
        protected final void putShort(final int field, final short v)
        {
            buffer.putShort(offset + field, v);
        }

        /** @param field field offset @return its value */
        protected final boolean getBoolean(final int field)
        {
            return buffer.get(offset + field) != 0;
        }

        /** @param field field offset @param v value */
        protected final void putBoolean(final int field, final boolean v)
        {
            buffer.put(offset + field, (byte)(v ? 1 : 0));
        }

        /** @param field field offset @return its value */
        protected final int getInt(final int field)
        {
            return buffer.getInt(offset + field);
        }

        /** @param field field offset @param v value */
        protected final void putInt(final int field, final int v)
        {
            buffer.putInt(offset + field, v);
        }

        /** @param field field offset @return its value */
        protected final long getLong(final int field)
        {
            return buffer.getLong(offset + field);
        }

        /** @param field field offset @param v value */
        protected final void putLong(final int field, final long v)
        {
            buffer.putLong(offset + field, v);
        }

        /** @param field field offset @return its value */
        protected final float getFloat(final int field)
        {
            return buffer.getFloat(offset + field);
        }

        /** @param field field offset @param v value */
        protected final void putFloat(final int field, final float v)
        {
            buffer.putFloat(offset + field, v);
        }

        /** @param field field offset @return its value */
        protected final double getDouble(final int field)
        {
            return buffer.getDouble(offset + field);
        }

        /** @param field field offset @param v value */
        protected final void putDouble(final int field, final double v)
        {
            buffer.putDouble(offset + field, v);
        }
    }
}
