package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.qsnet.fabric.QsnetException;

/**
 * A C-like struct laid out in a {@code ByteBuffer}, with its MPI datatype: a subclass adds its
 * fields in its constructor ({@link #addInt()}, {@link #addDouble()}, ...), each returning the
 * field's byte offset, and reads and writes them through a {@link Data} view of one element.
 */
public abstract class Struct
{
    /** One field: byte offset, type, number of elements. */
    private record Field(int offset, Datatype type, int length)
    {
    }

    private final List<Field> fields = new ArrayList<>();
    private int extent;
    private int align = 1;
    private Datatype type;

    /**
     * The extent of one element in bytes (the last field's end, rounded up to the largest
     * alignment of its fields, as a C compiler pads a struct).
     *
     * @return the extent.
     * @throws MPIException never here.
     */
    public final int getExtent() throws MPIException
    {
        return (extent + align - 1) / align * align;
    }

    /**
     * The committed datatype of this struct (base type {@link MPI#BYTE}); no field can be added
     * afterwards.
     *
     * @return the datatype.
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
                b[i] = fields.get(i).length();
                d[i] = fields.get(i).offset();
                t[i] = fields.get(i).type();
            }
            type = Datatype.createResized(Datatype.createStruct(b, d, t), 0, getExtent());
            type.commit();
        }
        return type;
    }

    /**
     * Makes a data view (the subclass's {@code Data}).
     *
     * @return a new view.
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

    /**
     * The view of element 0 of a byte array (native byte order, as {@link MPI#newByteBuffer}).
     *
     * @param array an array of elements of this struct.
     * @param <T>   the data class.
     * @return the view.
     * @throws MPIException never here.
     */
    public final <T extends Data> T getData(final byte[] array) throws MPIException
    {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), 0);
    }

    /**
     * The view of element {@code index} of a byte array (native byte order).
     *
     * @param array an array of elements of this struct.
     * @param index the element.
     * @param <T>   the data class.
     * @return the view.
     * @throws MPIException never here.
     */
    public final <T extends Data> T getData(final byte[] array, final int index) throws MPIException
    {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    private void mutable(final String what)
    {
        if (type != null)
        {
            throw new QsnetException(what + ": the struct's datatype was already built (getType), no field can be added");
        }
    }

    private int add(final Datatype t, final int size, final int alignment, final int length)
    {
        mutable("add");
        if (length < 0)
        {
            throw new QsnetException("add: length " + length + " must be at least 0");
        }
        final int at = (extent + alignment - 1) / alignment * alignment;
        fields.add(new Field(at, t, length));
        extent = at + size * length;
        align = Math.max(align, alignment);
        return at;
    }

    private int addBasic(final int kind, final int length)
    {
        return add(Datatype.basic(kind), Datatype.sizeOf(kind), Datatype.sizeOf(kind), length);
    }

    /**
     * Moves the next field to byte {@code offset} (leaving a gap).
     *
     * @param offset the next field's offset, at least the struct's extent so far.
     * @return this struct.
     * @throws QsnetException when {@code offset} is below the extent so far or the struct's
     *                        datatype was built.
     */
    public final Struct setOffset(final int offset)
    {
        mutable("setOffset");
        if (offset < extent)
        {
            throw new QsnetException("setOffset: offset " + offset + " must be at least the struct's extent so far ("
                + extent + " bytes)");
        }
        extent = offset;
        return this;
    }

    /**
     * Adds a byte field.
     *
     * @return the field's byte offset.
     */
    public final int addByte()
    {
        return addBasic(Datatype.K_BYTE, 1);
    }

    /**
     * Adds an array field of bytes.
     *
     * @param length its elements.
     * @return the field's byte offset.
     */
    public final int addByte(final int length)
    {
        return addBasic(Datatype.K_BYTE, length);
    }

    /**
     * Adds a char field.
     *
     * @return the field's byte offset.
     */
    public final int addChar()
    {
        return addBasic(Datatype.K_CHAR, 1);
    }

    /**
     * Adds an array field of chars.
     *
     * @param length its elements.
     * @return the field's byte offset.
     */
    public final int addChar(final int length)
    {
        return addBasic(Datatype.K_CHAR, length);
    }

    /**
     * Adds a short field.
     *
     * @return the field's byte offset.
     */
    public final int addShort()
    {
        return addBasic(Datatype.K_SHORT, 1);
    }

    /**
     * Adds an array field of shorts.
     *
     * @param length its elements.
     * @return the field's byte offset.
     */
    public final int addShort(final int length)
    {
        return addBasic(Datatype.K_SHORT, length);
    }

    /**
     * Adds a boolean field.
     *
     * @return the field's byte offset.
     */
    public final int addBoolean()
    {
        return addBasic(Datatype.K_BOOLEAN, 1);
    }

    /**
     * Adds an array field of booleans.
     *
     * @param length its elements.
     * @return the field's byte offset.
     */
    public final int addBoolean(final int length)
    {
        return addBasic(Datatype.K_BOOLEAN, length);
    }

    /**
     * Adds a int field.
     *
     * @return the field's byte offset.
     */
    public final int addInt()
    {
        return addBasic(Datatype.K_INT, 1);
    }

    /**
     * Adds an array field of ints.
     *
     * @param length its elements.
     * @return the field's byte offset.
     */
    public final int addInt(final int length)
    {
        return addBasic(Datatype.K_INT, length);
    }

    /**
     * Adds a long field.
     *
     * @return the field's byte offset.
     */
    public final int addLong()
    {
        return addBasic(Datatype.K_LONG, 1);
    }

    /**
     * Adds an array field of longs.
     *
     * @param length its elements.
     * @return the field's byte offset.
     */
    public final int addLong(final int length)
    {
        return addBasic(Datatype.K_LONG, length);
    }

    /**
     * Adds a float field.
     *
     * @return the field's byte offset.
     */
    public final int addFloat()
    {
        return addBasic(Datatype.K_FLOAT, 1);
    }

    /**
     * Adds an array field of floats.
     *
     * @param length its elements.
     * @return the field's byte offset.
     */
    public final int addFloat(final int length)
    {
        return addBasic(Datatype.K_FLOAT, length);
    }

    /**
     * Adds a double field.
     *
     * @return the field's byte offset.
     */
    public final int addDouble()
    {
        return addBasic(Datatype.K_DOUBLE, 1);
    }

    /**
     * Adds an array field of doubles.
     *
     * @param length its elements.
     * @return the field's byte offset.
     */
    public final int addDouble(final int length)
    {
        return addBasic(Datatype.K_DOUBLE, length);
    }

    /**
     * Adds a field holding one element of another struct.
     *
     * @param struct the field's struct.
     * @return the field's byte offset.
     * @throws MPIException when the other struct's type cannot be built.
     */
    public final int addStruct(final Struct struct) throws MPIException
    {
        return addStruct(struct, 1);
    }

    /**
     * Adds an array field of elements of another struct.
     *
     * @param struct the field's struct.
     * @param length its elements.
     * @return the field's byte offset.
     * @throws MPIException when the other struct's type cannot be built.
     */
    public final int addStruct(final Struct struct, final int length) throws MPIException
    {
        return add(struct.getType(), struct.getExtent(), struct.align, length);
    }

    /**
     * Adds a field of one element of a datatype.
     *
     * @param type the field's type.
     * @return the field's byte offset.
     * @throws MPIException when the type was freed.
     */
    public final int addData(final Datatype type) throws MPIException
    {
        return addData(type, 1);
    }

    /**
     * Adds an array field of a datatype.
     *
     * @param type   the field's type.
     * @param length its elements.
     * @return the field's byte offset.
     * @throws MPIException when the type was freed.
     */
    public final int addData(final Datatype type, final int length) throws MPIException
    {
        type.live("addData");
        int alignment = 1;
        for (final int k : type.kinds)
        {
            alignment = Math.max(alignment, Datatype.sizeOf(k));
        }
        return add(type, (int)type.extentBytes, alignment, length);
    }

    /**
     * A view of one element of a struct in a buffer: typed access to its fields by byte offset.
     */
    public abstract static class Data
    {
        private ByteBuffer buffer;
        private int offset;

        /**
         * The buffer holding this element, sliced to start at it (usable in sends and receives).
         *
         * @return the buffer.
         */
        public final ByteBuffer getBuffer()
        {
            return offset == 0 ? buffer : MPI.slice(buffer, offset);
        }

        /**
         * Reads element {@code index} of a byte array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @return its value.
         */
        protected final byte getByte(final int field, final int index)
        {
            return buffer.get(offset + field + index);
        }

        /**
         * Writes element {@code index} of a byte array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @param v     the value.
         */
        protected final void putByte(final int field, final int index, final byte v)
        {
            buffer.put(offset + field + index, v);
        }

        /**
         * Reads element {@code index} of a char array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @return its value.
         */
        protected final char getChar(final int field, final int index)
        {
            return buffer.getChar(offset + field + index * 2);
        }

        /**
         * Writes element {@code index} of a char array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @param v     the value.
         */
        protected final void putChar(final int field, final int index, final char v)
        {
            buffer.putChar(offset + field + index * 2, v);
        }

        /**
         * Reads element {@code index} of a short array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @return its value.
         */
        protected final short getShort(final int field, final int index)
        {
            return buffer.getShort(offset + field + index * 2);
        }

        /**
         * Writes element {@code index} of a short array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @param v     the value.
         */
        protected final void putShort(final int field, final int index, final short v)
        {
            buffer.putShort(offset + field + index * 2, v);
        }

        /**
         * Reads element {@code index} of a boolean array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @return its value.
         */
        protected final boolean getBoolean(final int field, final int index)
        {
            return buffer.get(offset + field + index) != 0;
        }

        /**
         * Writes element {@code index} of a boolean array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @param v     the value.
         */
        protected final void putBoolean(final int field, final int index, final boolean v)
        {
            buffer.put(offset + field + index, (byte)(v ? 1 : 0));
        }

        /**
         * Reads element {@code index} of a int array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @return its value.
         */
        protected final int getInt(final int field, final int index)
        {
            return buffer.getInt(offset + field + index * 4);
        }

        /**
         * Writes element {@code index} of a int array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @param v     the value.
         */
        protected final void putInt(final int field, final int index, final int v)
        {
            buffer.putInt(offset + field + index * 4, v);
        }

        /**
         * Reads element {@code index} of a long array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @return its value.
         */
        protected final long getLong(final int field, final int index)
        {
            return buffer.getLong(offset + field + index * 8);
        }

        /**
         * Writes element {@code index} of a long array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @param v     the value.
         */
        protected final void putLong(final int field, final int index, final long v)
        {
            buffer.putLong(offset + field + index * 8, v);
        }

        /**
         * Reads element {@code index} of a float array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @return its value.
         */
        protected final float getFloat(final int field, final int index)
        {
            return buffer.getFloat(offset + field + index * 4);
        }

        /**
         * Writes element {@code index} of a float array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @param v     the value.
         */
        protected final void putFloat(final int field, final int index, final float v)
        {
            buffer.putFloat(offset + field + index * 4, v);
        }

        /**
         * Reads element {@code index} of a double array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @return its value.
         */
        protected final double getDouble(final int field, final int index)
        {
            return buffer.getDouble(offset + field + index * 8);
        }

        /**
         * Writes element {@code index} of a double array field.
         *
         * @param field the field's offset.
         * @param index the array element.
         * @param v     the value.
         */
        protected final void putDouble(final int field, final int index, final double v)
        {
            buffer.putDouble(offset + field + index * 8, v);
        }

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
