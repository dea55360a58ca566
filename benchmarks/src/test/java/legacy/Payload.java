package legacy;

import java.util.zip.CRC32;

/**
 * The payloads the legacy programs send: byte {@code i} of a message is a function of who sent it,
 * to whom, which message it is and {@code i}, so a receiver (and a test) can recompute every
 * checksum without seeing the sender.
 */
public final class Payload
{
    private Payload()
    {
    }

    /**
     * Fills a message.
     *
     * @param from sender's rank.
     * @param to   receiver's rank.
     * @param seq  the message's number (or tag).
     * @param len  bytes.
     * @return the bytes.
     */
    public static byte[] bytes(final int from, final int to, final int seq, final int len)
    {
        final byte[] b = new byte[len];
        int x = from * 0x9E3779B1 ^ to * 0x85EBCA77 ^ seq * 0xC2B2AE3D;
        for (int i = 0; i < len; i++)
        {
            x = x * 1_103_515_245 + 12_345;
            b[i] = (byte)(x >>> 16);
        }
        return b;
    }

    /**
     * CRC-32 of {@code len} bytes.
     *
     * @param b   the bytes.
     * @param off first byte.
     * @param len bytes.
     * @return the checksum.
     */
    public static long crc(final byte[] b, final int off, final int len)
    {
        final CRC32 c = new CRC32();
        c.update(b, off, len);
        return c.getValue();
    }

    /**
     * CRC-32 of a whole message as {@link #bytes} makes it.
     *
     * @param from sender's rank.
     * @param to   receiver's rank.
     * @param seq  the message's number.
     * @param len  bytes.
     * @return the checksum.
     */
    public static long crc(final int from, final int to, final int seq, final int len)
    {
        return crc(bytes(from, to, seq, len), 0, len);
    }
}
