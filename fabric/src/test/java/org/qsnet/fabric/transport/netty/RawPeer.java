package org.qsnet.fabric.transport.netty;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import org.qsnet.fabric.transport.FrameDescriptor;
import org.qsnet.fabric.transport.JobAuthenticator;

/**
 * A hand-written peer on a plain socket, for tests that must send what a correct transport never
 * would: frames with a bad checksum, length, type or version, wrong keys, another job's id.
 */
final class RawPeer implements AutoCloseable
{
    final Socket socket;
    private final DataInputStream in;

    RawPeer(final InetSocketAddress address) throws IOException
    {
        socket = new Socket(address.getAddress(), address.getPort());
        socket.setSoTimeout(5_000);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
    }

    /**
     * Encodes a TCP frame (big-endian, version 2) with correct checksums, written here independently
     * of the transport's encoder: the header's own over its first 24 bytes, the trailer's over those
     * and the payload.
     */
    static ByteBuffer frame(final int type, final long timeNs, final long key, final byte[] payload)
    {
        final ByteBuffer b = ByteBuffer.allocate(FrameDescriptor.WIRE_OVERHEAD + payload.length);
        b.putInt(b.capacity()).put((byte)FrameDescriptor.WIRE_VERSION).put((byte)type).putShort((short)0)
            .putLong(timeNs).putLong(key).putInt(0).putInt(0).put(payload).putInt(0);
        final CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, FrameDescriptor.CRC_COVERED_HEADER);
        b.putInt(FrameDescriptor.CRC_OFFSET, (int)crc.getValue());
        crc.update(b.array(), FrameDescriptor.HEADER_LENGTH, payload.length);
        b.putInt(b.capacity() - FrameDescriptor.TRAILER_LENGTH, (int)crc.getValue());
        return b.flip();
    }

    void write(final ByteBuffer frame) throws IOException
    {
        socket.getOutputStream().write(frame.array(), 0, frame.limit());
        socket.getOutputStream().flush();
    }

    /** Reads one frame; returns its payload, with the type in {@code type[0]}. */
    byte[] read(final int[] type) throws IOException
    {
        final int length = in.readInt();
        in.readByte();
        type[0] = in.readUnsignedByte();
        in.skipNBytes(FrameDescriptor.HEADER_LENGTH - 6);
        final byte[] payload = new byte[length - FrameDescriptor.WIRE_OVERHEAD];
        in.readFully(payload);
        in.skipNBytes(FrameDescriptor.TRAILER_LENGTH);
        return payload;
    }

    /**
     * Runs the connector's side of the handshake with the given job id and key.
     *
     * @return true if the acceptor sent ACCEPT; false if it closed the connection.
     */
    boolean handshake(final long jobId, final byte[] key, final int partition, final int count) throws IOException
    {
        final JobAuthenticator auth = new JobAuthenticator(jobId, key);
        final byte[] nonce = JobAuthenticator.nonce();
        write(frame(FrameDescriptor.TYPE_HELLO, 0, 0,
            ByteBuffer.allocate(48).putLong(jobId).putInt(partition).putInt(count).put(nonce).array()));
        final int[] type = new int[1];
        try
        {
            final ByteBuffer c = ByteBuffer.wrap(read(type));
            if (type[0] != FrameDescriptor.TYPE_CHALLENGE)
            {
                return false;
            }
            final int acceptor = c.getInt();
            final byte[] theirs = new byte[JobAuthenticator.NONCE_BYTES];
            c.get(theirs);
            // a stray client does not check the acceptor's proof: it answers anyway
            write(frame(FrameDescriptor.TYPE_RESPONSE, 0, 0,
                auth.proof(JobAuthenticator.ROLE_CONNECTOR, partition, acceptor, nonce, theirs)));
            read(type);
            return type[0] == FrameDescriptor.TYPE_ACCEPT;
        }
        catch (final java.io.EOFException e)
        {
            return false;
        }
    }

    /**
     * Whether the other side closes the connection within the socket timeout (frames it sends
     * before, such as heartbeats, are skipped).
     */
    boolean closedByPeer() throws IOException
    {
        final InputStream s = socket.getInputStream();
        final byte[] sink = new byte[4096];
        try
        {
            while (true)
            {
                if (s.read(sink) < 0)
                {
                    return true;
                }
            }
        }
        catch (final SocketTimeoutException e)
        {
            return false;
        }
        catch (final java.net.SocketException e)
        {
            return true; // reset
        }
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
