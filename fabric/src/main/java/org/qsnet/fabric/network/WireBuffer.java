package org.qsnet.fabric.network;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A growable little-endian byte buffer for what crosses partitions: written with {@code put*},
 * handed to a transport as a {@link ByteBuffer} view by {@link #flip()}.
 */
public final class WireBuffer
{
    private ByteBuffer buffer;

    /**
     * @param initialCapacity bytes to start with.
     */
    public WireBuffer(final int initialCapacity)
    {
        buffer = ByteBuffer.allocate(Math.max(16, initialCapacity)).order(ByteOrder.LITTLE_ENDIAN);
    }

    private void ensure(final int bytes)
    {
        if (buffer.remaining() < bytes)
        {
            final ByteBuffer bigger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + bytes))
                .order(ByteOrder.LITTLE_ENDIAN);
            buffer.flip();
            bigger.put(buffer);
            buffer = bigger;
        }
    }

    /** @param v a byte. @return this. */
    public WireBuffer putByte(final int v)
    {
        ensure(1);
        buffer.put((byte)v);
        return this;
    }

    /** @param v an int. @return this. */
    public WireBuffer putInt(final int v)
    {
        ensure(4);
        buffer.putInt(v);
        return this;
    }

    /** @param v a long. @return this. */
    public WireBuffer putLong(final long v)
    {
        ensure(8);
        buffer.putLong(v);
        return this;
    }

    /**
     * Writes a length, then the bytes ({@code -1} for null).
     *
     * @param v bytes or null.
     * @return this.
     */
    public WireBuffer putBytes(final byte[] v)
    {
        if (v == null)
        {
            return putInt(-1);
        }
        ensure(4 + v.length);
        buffer.putInt(v.length);
        buffer.put(v);
        return this;
    }

    /**
     * Writes a string as UTF-8 bytes ({@link #putBytes}), null allowed.
     *
     * @param v a string or null.
     * @return this.
     */
    public WireBuffer putString(final String v)
    {
        return putBytes(v == null ? null : v.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * Appends the bytes of {@code src} from its position to its limit (its position moves to its limit).
     *
     * @param src the bytes.
     * @return this.
     */
    public WireBuffer put(final ByteBuffer src)
    {
        ensure(src.remaining());
        buffer.put(src);
        return this;
    }

    /** @return bytes written. */
    public int position()
    {
        return buffer.position();
    }

    /**
     * Writes an int at an absolute position already written (a length filled in afterwards).
     *
     * @param index the position.
     * @param v     the int.
     */
    public void putIntAt(final int index, final int v)
    {
        buffer.putInt(index, v);
    }

    /**
     * Writes a byte at an absolute position already written (flags filled in afterwards).
     *
     * @param index the position.
     * @param v     the byte.
     */
    public void putByteAt(final int index, final byte v)
    {
        buffer.put(index, v);
    }

    /**
     * Forgets what was written from {@code index} on (a field found empty after it was begun).
     *
     * @param index a position at most {@link #position()}.
     */
    public void truncate(final int index)
    {
        if (index < 0 || index > buffer.position())
        {
            throw new org.qsnet.fabric.QsnetException("truncate index " + index + " must be in 0.." + buffer.position());
        }
        buffer.position(index);
    }

    /** Forgets what was written. */
    public void clear()
    {
        buffer.clear();
    }

    /**
     * @return a read-only view of the bytes written (position 0, limit = bytes written).
     */
    public ByteBuffer flip()
    {
        return buffer.duplicate().flip().order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Reads bytes written by {@link #putBytes}.
     *
     * @param in the source.
     * @return the bytes or null.
     */
    public static byte[] getBytes(final ByteBuffer in)
    {
        final int n = in.getInt();
        if (n < 0)
        {
            return null;
        }
        final byte[] b = new byte[n];
        in.get(b);
        return b;
    }

    /**
     * Reads a string written by {@link #putString}.
     *
     * @param in the source.
     * @return the string or null.
     */
    public static String getString(final ByteBuffer in)
    {
        final byte[] b = getBytes(in);
        return b == null ? null : new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }
}
