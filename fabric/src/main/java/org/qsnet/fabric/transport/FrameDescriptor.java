package org.qsnet.fabric.transport;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Layout of a frame, in the rings (native order, version 1) and on TCP (big-endian, version 2), and
 * its validation.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 length (whole frame, bytes)                   |  0
 *  +---------------+---------------+-------------------------------+
 *  |    version    |     type      |        flags (must be 0)      |  4
 *  +---------------+---------------+-------------------------------+
 *  |                           timeNs (opaque)                     |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                            key (opaque)                       | 16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |  ring (v1): CRC32C over bytes 0..23 then the payload          | 24
 *  |  TCP (v2):  CRC32C over bytes 0..23 (the header's own)        |
 *  +---------------------------------------------------------------+
 *  |                        reserved (must be 0)                   | 28
 *  +---------------------------------------------------------------+
 *  |                        payload ...                            | 32
 *  +---------------------------------------------------------------+
 *  |  TCP (v2) only, trailer: CRC32C over bytes 0..23 then the     | 32 + payload
 *  |  payload (the value a v1 record carries at 24)                |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * A ring record (version {@link #VERSION}) is {@code HEADER_LENGTH + payload} long and carries its
 * checksum in the header. A TCP frame (version {@link #WIRE_VERSION}) is {@code HEADER_LENGTH +
 * payload + TRAILER_LENGTH} long and carries the checksum of header and payload in a trailer, so
 * the sender can write the header and the payload to the socket before it has summed the payload
 * (the receiver, which sums the bytes as they arrive, checks the trailer before delivering); the
 * header's own checksum lets the receiver refuse a corrupted header, a wrong length among others,
 * before it waits for the payload.
 *
 * A frame is valid when its length is within the limits ({@link #checkHeader},
 * {@link #checkWireHeader}), its version is the one of its medium, its type is known (a control
 * type, or an application type in {@link #MIN_APPLICATION_TYPE}..{@link #MAX_TYPE}), flags and
 * reserved are 0 and the checksums match.
 */
public final class FrameDescriptor
{
    /** Version of a ring record (checksum in the header). */
    public static final int VERSION = 1;
    /** Version of a TCP frame (header checksum in the header, frame checksum in a trailer). */
    public static final int WIRE_VERSION = 2;
    /** Header length in bytes. */
    public static final int HEADER_LENGTH = 32;
    /** Length of a TCP frame's trailer (its checksum) in bytes. */
    public static final int TRAILER_LENGTH = 4;
    /** Bytes a TCP frame adds to its payload: header and trailer. */
    public static final int WIRE_OVERHEAD = HEADER_LENGTH + TRAILER_LENGTH;
    /** Offset of the total length (int). */
    public static final int LENGTH_OFFSET = 0;
    /** Offset of the version (byte). */
    public static final int VERSION_OFFSET = 4;
    /** Offset of the type (byte). */
    public static final int TYPE_OFFSET = 5;
    /** Offset of the flags (short). */
    public static final int FLAGS_OFFSET = 6;
    /** Offset of the first opaque field (long). */
    public static final int TIME_OFFSET = 8;
    /** Offset of the second opaque field (long). */
    public static final int KEY_OFFSET = 16;
    /** Offset of the checksum (int): the record's in a ring, the header's own on TCP. */
    public static final int CRC_OFFSET = 24;
    /** Offset of the reserved word (int). */
    public static final int RESERVED_OFFSET = 28;
    /** Bytes of the header covered by the checksum (before it). */
    public static final int CRC_COVERED_HEADER = 24;
    /** Hard upper bound of any configured payload limit: 256 MiB. */
    public static final int MAX_PAYLOAD_LIMIT = 1 << 28;

    /** Ring padding record (rings only, never on the wire). */
    public static final int TYPE_PADDING = 0;
    /** Handshake: client's job id, partition and nonce. */
    public static final int TYPE_HELLO = 1;
    /** Handshake: server's partition, nonce and proof of the key. */
    public static final int TYPE_CHALLENGE = 2;
    /** Handshake: client's proof of the key. */
    public static final int TYPE_RESPONSE = 3;
    /** Handshake: the server accepts the client. */
    public static final int TYPE_ACCEPT = 4;
    /** Heartbeat (empty). */
    public static final int TYPE_HEARTBEAT = 5;
    /** Clean close: no frame follows. */
    public static final int TYPE_CLOSE = 6;
    /** Lowest application frame type. */
    public static final int MIN_APPLICATION_TYPE = 16;
    /** Highest frame type (one byte). */
    public static final int MAX_TYPE = 255;

    private FrameDescriptor()
    {
    }

    /**
     * Whether a type is one the application may send.
     *
     * @param type the type.
     * @return true for {@link #MIN_APPLICATION_TYPE}..{@link #MAX_TYPE}.
     */
    public static boolean isApplicationType(final int type)
    {
        return type >= MIN_APPLICATION_TYPE && type <= MAX_TYPE;
    }

    /**
     * Whether a type is known on the wire (control or application).
     *
     * @param type the type.
     * @return true for {@link #TYPE_HELLO}..{@link #TYPE_CLOSE} and the application types.
     */
    public static boolean isKnownWireType(final int type)
    {
        return (type >= TYPE_HELLO && type <= TYPE_CLOSE) || isApplicationType(type);
    }

    /**
     * The total length of a frame rounded up to 8 bytes (its footprint in a ring).
     *
     * @param payloadBytes the payload length.
     * @return the aligned length.
     */
    public static int alignedLength(final int payloadBytes)
    {
        return (HEADER_LENGTH + payloadBytes + 7) & ~7;
    }

    /**
     * Checks the header fields of a ring record read before the checksum.
     *
     * @param length          the length field.
     * @param version         the version field.
     * @param type            the type field.
     * @param flags           the flags field.
     * @param reserved        the reserved field.
     * @param maxPayloadBytes the payload limit in force.
     * @return null if valid, else the reason, e.g. {@code "length 3 is outside 32..1048608"}.
     */
    public static String checkHeader(final int length, final int version, final int type, final int flags,
        final int reserved, final int maxPayloadBytes)
    {
        return check(length, HEADER_LENGTH, version, VERSION, type, flags, reserved, maxPayloadBytes);
    }

    /**
     * Checks the header fields of a TCP frame read before the checksums (its length includes the
     * trailer).
     *
     * @param length          the length field.
     * @param version         the version field.
     * @param type            the type field.
     * @param flags           the flags field.
     * @param reserved        the reserved field (0 while not yet received).
     * @param maxPayloadBytes the payload limit in force.
     * @return null if valid, else the reason, e.g. {@code "length 3 is outside 36..1048612"}.
     */
    public static String checkWireHeader(final int length, final int version, final int type, final int flags,
        final int reserved, final int maxPayloadBytes)
    {
        return check(length, WIRE_OVERHEAD, version, WIRE_VERSION, type, flags, reserved, maxPayloadBytes);
    }

    private static String check(final int length, final int overhead, final int version, final int expectedVersion,
        final int type, final int flags, final int reserved, final int maxPayloadBytes)
    {
        if (length < overhead || length - overhead > maxPayloadBytes)
        {
            return "length " + length + " is outside " + overhead + ".." + ((long)overhead + maxPayloadBytes);
        }
        if (version != expectedVersion)
        {
            return "version " + version + " is not the supported version " + expectedVersion;
        }
        if (!isKnownWireType(type))
        {
            return "type " + type + " is unknown (control 1..6, application " + MIN_APPLICATION_TYPE + ".." + MAX_TYPE + ")";
        }
        if (flags != 0 || reserved != 0)
        {
            return "flags " + flags + " / reserved " + reserved + " must be 0";
        }
        return null;
    }

    /**
     * Whether a TCP frame's length field is within the limits (the rest of the header unchecked).
     *
     * @param length          the length field.
     * @param maxPayloadBytes the payload limit in force.
     * @return true for {@link #WIRE_OVERHEAD}..{@code WIRE_OVERHEAD + maxPayloadBytes}.
     */
    public static boolean isWireLengthValid(final int length, final int maxPayloadBytes)
    {
        return length >= WIRE_OVERHEAD && length - WIRE_OVERHEAD <= maxPayloadBytes;
    }

    /**
     * Computes a ring record's checksum: CRC32C over the first 24 header bytes, then the payload (a
     * TCP frame's trailer carries the same value over the same bytes).
     * The buffer's position and limit are left unchanged.
     *
     * @param crc          a reusable CRC32C (reset here).
     * @param frame        the buffer holding the frame.
     * @param frameOffset  the frame's first byte.
     * @param payloadBytes the payload length.
     * @return the checksum.
     */
    public static int checksum(final CRC32C crc, final ByteBuffer frame, final int frameOffset, final int payloadBytes)
    {
        crc.reset();
        final int position = frame.position();
        final int limit = frame.limit();
        frame.limit(frameOffset + CRC_COVERED_HEADER).position(frameOffset);
        crc.update(frame);
        frame.limit(frameOffset + HEADER_LENGTH + payloadBytes).position(frameOffset + HEADER_LENGTH);
        crc.update(frame);
        frame.limit(limit).position(position);
        return (int)crc.getValue();
    }
}
