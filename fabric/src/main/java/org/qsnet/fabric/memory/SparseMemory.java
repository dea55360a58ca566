package org.qsnet.fabric.memory;

import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.io.SingleThreadedChecked;

import org.qsnet.fabric.QsnetException;

/**
 * A byte-addressed memory of a fixed span whose 8 KB pages are allocated off-heap (Chronicle
 * Bytes native stores) on first write; unwritten pages read as zero. A 4096-node run thus
 * reserves only what its programs touch. Little-endian, like the hosts the emulator runs on.
 *
 * <p>Pages are found through a two-level table (1024 pages per second-level block), so a
 * 4 GB span costs one small array until it is used.
 */
public final class SparseMemory implements AutoCloseable
{
    /** Page size: 8 KB, the Elan3 MMU page. */
    public static final int PAGE_SIZE = 8192;
    /** log2 of {@link #PAGE_SIZE}. */
    public static final int PAGE_SHIFT = 13;
    private static final int BLOCK_SHIFT = 10;
    private static final int BLOCK_MASK = (1 << BLOCK_SHIFT) - 1;

    private final String name;
    private final long spanBytes;
    private final BytesStore<?, ?>[][] blocks;
    private int pagesTouched;

    /**
     * @param name      what it is, for error messages (e.g. {@code "SDRAM of node 3"}).
     * @param spanBytes addressable bytes, a multiple of the page size.
     */
    public SparseMemory(final String name, final long spanBytes)
    {
        QsnetException.require(spanBytes > 0 && spanBytes % PAGE_SIZE == 0, "spanBytes", spanBytes,
            "must be a positive multiple of " + PAGE_SIZE);
        this.name = name;
        this.spanBytes = spanBytes;
        final long pages = spanBytes >>> PAGE_SHIFT;
        this.blocks = new BytesStore<?, ?>[(int)((pages + BLOCK_MASK) >>> BLOCK_SHIFT)][];
    }

    /**
     * @return the addressable span in bytes.
     */
    public long spanBytes()
    {
        return spanBytes;
    }

    /**
     * @return pages backed so far (the memory's real footprint is this times 8 KB).
     */
    public int pagesTouched()
    {
        return pagesTouched;
    }

    private void check(final long offset, final long length)
    {
        if (offset < 0 || length < 0 || offset + length > spanBytes)
        {
            throw new QsnetException("access [" + offset + ", " + (offset + length) + ") is outside " + name + " (0.."
                + spanBytes + ")");
        }
    }

    private BytesStore<?, ?> pageForRead(final long offset)
    {
        final long page = offset >>> PAGE_SHIFT;
        final BytesStore<?, ?>[] b = blocks[(int)(page >>> BLOCK_SHIFT)];
        return b == null ? null : b[(int)(page & BLOCK_MASK)];
    }

    private BytesStore<?, ?> pageForWrite(final long offset)
    {
        final long page = offset >>> PAGE_SHIFT;
        BytesStore<?, ?>[] b = blocks[(int)(page >>> BLOCK_SHIFT)];
        if (b == null)
        {
            b = new BytesStore<?, ?>[1 << BLOCK_SHIFT];
            blocks[(int)(page >>> BLOCK_SHIFT)] = b;
        }
        BytesStore<?, ?> p = b[(int)(page & BLOCK_MASK)];
        if (p == null)
        {
            p = BytesStore.nativeStoreWithFixedCapacity(PAGE_SIZE);
            if (p instanceof SingleThreadedChecked checked)
            {
                // simulated processes touch memory from their own virtual threads, one at a time
                checked.singleThreadedCheckDisabled(true);
            }
            p.zeroOut(0, PAGE_SIZE);
            b[(int)(page & BLOCK_MASK)] = p;
            pagesTouched++;
        }
        return p;
    }

    private static boolean withinPage(final long offset, final int length)
    {
        return (offset & (PAGE_SIZE - 1)) + length <= PAGE_SIZE;
    }

    /**
     * @param offset byte offset.
     * @return the byte.
     */
    public byte getByte(final long offset)
    {
        check(offset, 1);
        final BytesStore<?, ?> p = pageForRead(offset);
        return p == null ? 0 : p.readByte(offset & (PAGE_SIZE - 1));
    }

    /**
     * @param offset byte offset.
     * @param v      the byte.
     */
    public void putByte(final long offset, final byte v)
    {
        check(offset, 1);
        pageForWrite(offset).writeByte(offset & (PAGE_SIZE - 1), v);
    }

    /**
     * @param offset byte offset.
     * @return the little-endian 32-bit word.
     */
    public int getInt(final long offset)
    {
        check(offset, 4);
        if (withinPage(offset, 4))
        {
            final BytesStore<?, ?> p = pageForRead(offset);
            return p == null ? 0 : p.readInt(offset & (PAGE_SIZE - 1));
        }
        int v = 0;
        for (int i = 3; i >= 0; i--)
        {
            v = (v << 8) | (getByte(offset + i) & 0xff);
        }
        return v;
    }

    /**
     * @param offset byte offset.
     * @param v      the 32-bit word, stored little-endian.
     */
    public void putInt(final long offset, final int v)
    {
        check(offset, 4);
        if (withinPage(offset, 4))
        {
            pageForWrite(offset).writeInt(offset & (PAGE_SIZE - 1), v);
            return;
        }
        for (int i = 0; i < 4; i++)
        {
            putByte(offset + i, (byte)(v >>> (8 * i)));
        }
    }

    /**
     * @param offset byte offset.
     * @return the little-endian 64-bit word.
     */
    public long getLong(final long offset)
    {
        check(offset, 8);
        if (withinPage(offset, 8))
        {
            final BytesStore<?, ?> p = pageForRead(offset);
            return p == null ? 0 : p.readLong(offset & (PAGE_SIZE - 1));
        }
        return (getInt(offset) & 0xffffffffL) | ((long)getInt(offset + 4) << 32);
    }

    /**
     * @param offset byte offset.
     * @param v      the 64-bit word, stored little-endian.
     */
    public void putLong(final long offset, final long v)
    {
        check(offset, 8);
        if (withinPage(offset, 8))
        {
            pageForWrite(offset).writeLong(offset & (PAGE_SIZE - 1), v);
            return;
        }
        putInt(offset, (int)v);
        putInt(offset + 4, (int)(v >>> 32));
    }

    /**
     * Copies bytes out of this memory.
     *
     * @param offset source offset.
     * @param dst    destination array.
     * @param dstOff first index written.
     * @param length bytes.
     */
    public void read(final long offset, final byte[] dst, final int dstOff, final int length)
    {
        check(offset, length);
        long o = offset;
        int d = dstOff;
        int left = length;
        while (left > 0)
        {
            final int inPage = (int)(o & (PAGE_SIZE - 1));
            final int n = Math.min(left, PAGE_SIZE - inPage);
            final BytesStore<?, ?> p = pageForRead(o);
            if (p == null)
            {
                java.util.Arrays.fill(dst, d, d + n, (byte)0);
            }
            else
            {
                p.read(inPage, dst, d, n);
            }
            o += n;
            d += n;
            left -= n;
        }
    }

    /**
     * Copies bytes into this memory.
     *
     * @param offset destination offset.
     * @param src    source array.
     * @param srcOff first index read.
     * @param length bytes.
     */
    public void write(final long offset, final byte[] src, final int srcOff, final int length)
    {
        check(offset, length);
        long o = offset;
        int s = srcOff;
        int left = length;
        while (left > 0)
        {
            final int inPage = (int)(o & (PAGE_SIZE - 1));
            final int n = Math.min(left, PAGE_SIZE - inPage);
            pageForWrite(o).write(inPage, src, s, n);
            o += n;
            s += n;
            left -= n;
        }
    }

    /**
     * Zeroes a range (pages never written stay unbacked).
     *
     * @param offset first byte.
     * @param length bytes.
     */
    public void zero(final long offset, final long length)
    {
        check(offset, length);
        long o = offset;
        long left = length;
        while (left > 0)
        {
            final int inPage = (int)(o & (PAGE_SIZE - 1));
            final int n = (int)Math.min(left, PAGE_SIZE - inPage);
            final BytesStore<?, ?> p = pageForRead(o);
            if (p != null)
            {
                p.zeroOut(inPage, inPage + n);
            }
            o += n;
            left -= n;
        }
    }

    /**
     * Releases every backed page.
     */
    @Override
    public void close()
    {
        for (final BytesStore<?, ?>[] b : blocks)
        {
            if (b != null)
            {
                for (int i = 0; i < b.length; i++)
                {
                    if (b[i] != null)
                    {
                        b[i].releaseLast();
                        b[i] = null;
                    }
                }
            }
        }
        pagesTouched = 0;
    }

    @Override
    public String toString()
    {
        return name;
    }
}
