package org.qsnet.fabric.network;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer for what crosses partitions: written with {@code put*},
 * handed to a transport as a {@link ByteBuffer} view by {@link #flip()}. It writes a plain array
 * through little-endian views (no buffer's bounds and state checks on every field: a window's
 * outbox takes several fields per shipped event).
 */
public final class WireBuffer
{
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] bytes;
    private int position;

    /**
     * @param initialCapacity bytes to start with.
     */
    public WireBuffer(final int initialCapacity)
    {
        bytes = new byte[Math.max(16, initialCapacity)];
    }

    private void ensure(final int n)
    {
        if (bytes.length - position < n)
        {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, position + n));
        }
    }

    /** @param v a byte. @return this. */
    public WireBuffer putByte(final int v)
    {
        ensure(1);
        bytes[position++] = (byte)v;
        return this;
    }

    /** @param v an int. @return this. */
    public WireBuffer putInt(final int v)
    {
        ensure(4);
        INT.set(bytes, position, v);
        position += 4;
        return this;
    }

    /** @param v a long. @return this. */
    public WireBuffer putLong(final long v)
    {
        ensure(8);
        LONG.set(bytes, position, v);
        position += 8;
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
        INT.set(bytes, position, v.length);
        System.arraycopy(v, 0, bytes, position + 4, v.length);
        position += 4 + v.length;
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
        final int n = src.remaining();
        ensure(n);
        src.get(bytes, position, n);
        position += n;
        return this;
    }

    /** @return bytes written. */
    public int position()
    {
        return position;
    }

    /**
     * Writes an int at an absolute position already written (a length filled in afterwards).
     *
     * @param index the position.
     * @param v     the int.
     */
    public void putIntAt(final int index, final int v)
    {
        checkWritten(index, 4);
        INT.set(bytes, index, v);
    }

    /**
     * Writes a byte at an absolute position already written (flags filled in afterwards).
     *
     * @param index the position.
     * @param v     the byte.
     */
    public void putByteAt(final int index, final byte v)
    {
        checkWritten(index, 1);
        bytes[index] = v;
    }

    /**
     * Forgets what was written from {@code index} on (a field found empty after it was begun).
     *
     * @param index a position at most {@link #position()}.
     */
    public void truncate(final int index)
    {
        if (index < 0 || index > position)
        {
            throw new org.qsnet.fabric.QsnetException("truncate index " + index + " must be in 0.." + position);
        }
        position = index;
    }

    /** Forgets what was written. */
    public void clear()
    {
        position = 0;
    }

    /**
     * @return a view of the bytes written (position 0, limit = bytes written), valid until the next write.
     */
    public ByteBuffer flip()
    {
        return ByteBuffer.wrap(bytes, 0, position).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    private void checkWritten(final int index, final int n)
    {
        if (index < 0 || index > position - n)
        {
            throw new org.qsnet.fabric.QsnetException("index " + index + " must be in 0.." + (position - n)
                + ": only bytes already written are rewritten");
        }
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
