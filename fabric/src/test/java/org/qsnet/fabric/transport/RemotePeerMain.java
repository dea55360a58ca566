package org.qsnet.fabric.transport;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import org.qsnet.fabric.transport.netty.NettyTransport;
import org.qsnet.fabric.transport.shm.ShmTransport;

/**
 * Partition 1 of a two-partition job, run in a second JVM by {@link RemotePeerTest}: connects,
 * sends a READY frame, then echoes every frame until partition 0 closes.
 *
 * <p>Arguments: {@code netty <jobId> <keyHex> <host> <port>} or {@code shm <jobId> <keyHex> <directory>}.
 */
public final class RemotePeerMain
{
    private RemotePeerMain()
    {
    }

    /**
     * Runs the peer.
     *
     * @param args see the class comment.
     */
    public static void main(final String[] args)
    {
        final TransportContext context = new TransportContext().jobId(Long.parseLong(args[1]))
            .jobKey(HexFormat.of().parseHex(args[2])).partition(1, 2).maxPayloadBytes(1 << 16)
            .heartbeat(100, 1_000).connectTimeoutMs(10_000);
        final Transport t;
        if ("netty".equals(args[0]))
        {
            final NettyTransport n = NettyTransport.open(context);
            n.connect(List.of(new InetSocketAddress(args[3], Integer.parseInt(args[4])), n.localAddress()));
            t = n;
        }
        else
        {
            t = ShmTransport.open(context, Path.of(args[3]));
        }
        t.send(0, FrameDescriptor.MIN_APPLICATION_TYPE, 0, 0, ByteBuffer.wrap("READY".getBytes(StandardCharsets.US_ASCII)));
        final ByteBuffer copy = ByteBuffer.allocate(1 << 16);
        while (t.isPeerOpen(0))
        {
            if (t.poll((peer, type, timeNs, key, p) ->
            {
                copy.clear();
                copy.put(p).flip();
                t.send(0, type, timeNs, key, copy);
            }, 16) == 0)
            {
                Thread.yield();
            }
        }
        t.close();
    }
}
