package org.qsnet.fabric.distributed;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.transport.TransportException;

/**
 * How the JVMs of a multi-host job find each other: each opens its transport on an address of its
 * own, then tells the coordinator (partition 0, listening at the address every process was given)
 * where it is, and gets back where everyone is. Every message carries an HMAC-SHA256 of its content
 * under the job's key, so a process of another job or a stray client is refused (and logged); the
 * key never crosses the wire. Set-up only, with blocking sockets and a wall-clock deadline; the
 * transport's own handshake authenticates every connection again afterwards.
 */
public final class Rendezvous
{
    private static final Logger LOG = Logger.getLogger(Rendezvous.class.getName());
    private static final int MAGIC = 0x51534e52; // "QSNR"

    private Rendezvous()
    {
    }

    /**
     * Exchanges the partitions' transport addresses through the coordinator.
     *
     * @param coordinator the coordinator's address (partition 0 listens there, the others connect).
     * @param partition   this partition.
     * @param count       partitions of the job.
     * @param jobId       the job's id.
     * @param jobKey      the job's key.
     * @param mine        this partition's transport address, as the others can reach it.
     * @param timeoutMs   how long to wait for everyone (wall clock).
     * @return every partition's transport address, by partition.
     * @throws TransportException if the exchange did not complete in time or was refused.
     */
    public static List<InetSocketAddress> exchange(final InetSocketAddress coordinator, final int partition, final int count,
        final long jobId, final byte[] jobKey, final InetSocketAddress mine, final long timeoutMs)
    {
        QsnetException.require(partition >= 0 && partition < count, "partition", partition, "must be in 0.." + (count - 1));
        final long deadline = System.currentTimeMillis() + timeoutMs; // wall-clock: set-up deadline, never part of a result
        try
        {
            return partition == 0 ? serve(coordinator, count, jobId, jobKey, mine, deadline)
                : join(coordinator, partition, count, jobId, jobKey, mine, deadline);
        }
        catch (final IOException e)
        {
            throw new TransportException(0, "rendezvous with the coordinator at " + coordinator + " failed: " + e);
        }
    }

    private static List<InetSocketAddress> serve(final InetSocketAddress at, final int count, final long jobId,
        final byte[] key, final InetSocketAddress mine, final long deadline) throws IOException
    {
        final InetSocketAddress[] where = new InetSocketAddress[count];
        where[0] = mine;
        final List<Socket> joined = new ArrayList<>();
        try (ServerSocket server = new ServerSocket())
        {
            server.setReuseAddress(true);
            server.bind(at);
            int missing = count - 1;
            while (missing > 0)
            {
                final long left = deadline - System.currentTimeMillis(); // wall-clock: set-up deadline
                if (left <= 0)
                {
                    final StringBuilder absent = new StringBuilder();
                    for (int p = 1; p < count; p++)
                    {
                        if (where[p] == null)
                        {
                            absent.append(absent.length() == 0 ? "" : ", ").append(p);
                        }
                    }
                    throw new TransportException(0, "rendezvous at " + at + ": partitions " + absent + " (" + missing + " of "
                        + (count - 1) + ") did not join in time");
                }
                server.setSoTimeout((int)Math.min(Integer.MAX_VALUE, left));
                final Socket s;
                try
                {
                    s = server.accept();
                }
                catch (final SocketTimeoutException e)
                {
                    continue;
                }
                s.setSoTimeout((int)Math.max(1, Math.min(10_000, left)));
                try
                {
                    final DataInputStream in = new DataInputStream(s.getInputStream());
                    final byte[] body = readSigned(in, key);
                    final DataInputStream b = new DataInputStream(new java.io.ByteArrayInputStream(body));
                    final long job = b.readLong();
                    final int p = b.readInt();
                    final int n = b.readInt();
                    final InetSocketAddress a = new InetSocketAddress(b.readUTF(), b.readInt());
                    if (job != jobId || n != count || p <= 0 || p >= count || where[p] != null)
                    {
                        throw new IOException("job " + job + " partition " + p + " of " + n + " does not belong here (job "
                            + jobId + ", " + count + " partitions)");
                    }
                    where[p] = a;
                    joined.add(s);
                    missing--;
                }
                catch (final IOException e)
                {
                    LOG.warning("rendezvous at " + at + ": refused " + s.getRemoteSocketAddress() + ": " + e.getMessage());
                    s.close();
                }
            }
            final byte[] list = encodeList(jobId, where);
            for (final Socket s : joined)
            {
                writeSigned(new DataOutputStream(s.getOutputStream()), key, list);
            }
        }
        finally
        {
            for (final Socket s : joined)
            {
                s.close();
            }
        }
        return Arrays.asList(where);
    }

    private static List<InetSocketAddress> join(final InetSocketAddress coordinator, final int partition, final int count,
        final long jobId, final byte[] key, final InetSocketAddress mine, final long deadline) throws IOException
    {
        IOException last = null;
        while (System.currentTimeMillis() < deadline) // wall-clock: set-up deadline
        {
            try (Socket s = new Socket())
            {
                s.connect(coordinator, 1_000);
                s.setSoTimeout((int)Math.max(1, deadline - System.currentTimeMillis())); // wall-clock: set-up deadline
                final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
                final DataOutputStream b = new DataOutputStream(bytes);
                b.writeLong(jobId);
                b.writeInt(partition);
                b.writeInt(count);
                b.writeUTF(mine.getHostString());
                b.writeInt(mine.getPort());
                writeSigned(new DataOutputStream(s.getOutputStream()), key, bytes.toByteArray());
                final byte[] list = readSigned(new DataInputStream(s.getInputStream()), key);
                return decodeList(jobId, count, list);
            }
            catch (final IOException e)
            {
                last = e;
                try
                {
                    Thread.sleep(100); // wall-clock: waiting for the coordinator to listen (set-up only)
                }
                catch (final InterruptedException ie)
                {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", ie);
                }
            }
        }
        throw new TransportException(0, "partition " + partition + " could not join the coordinator at " + coordinator
            + " in time" + (last == null ? "" : ": " + last.getMessage()));
    }

    private static byte[] encodeList(final long jobId, final InetSocketAddress[] where) throws IOException
    {
        final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        final DataOutputStream b = new DataOutputStream(bytes);
        b.writeLong(jobId);
        b.writeInt(where.length);
        for (final InetSocketAddress a : where)
        {
            b.writeUTF(a.getHostString());
            b.writeInt(a.getPort());
        }
        return bytes.toByteArray();
    }

    private static List<InetSocketAddress> decodeList(final long jobId, final int count, final byte[] list) throws IOException
    {
        final DataInputStream b = new DataInputStream(new java.io.ByteArrayInputStream(list));
        if (b.readLong() != jobId || b.readInt() != count)
        {
            throw new IOException("the coordinator's list is for another job");
        }
        final List<InetSocketAddress> where = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            where.add(new InetSocketAddress(b.readUTF(), b.readInt()));
        }
        return where;
    }

    private static void writeSigned(final DataOutputStream out, final byte[] key, final byte[] body) throws IOException
    {
        out.writeInt(MAGIC);
        out.writeInt(body.length);
        out.write(body);
        out.write(mac(key, body));
        out.flush();
    }

    private static byte[] readSigned(final DataInputStream in, final byte[] key) throws IOException
    {
        if (in.readInt() != MAGIC)
        {
            throw new IOException("not a QsNet rendezvous message");
        }
        final int n = in.readInt();
        if (n < 0 || n > 1 << 16)
        {
            throw new IOException("rendezvous message of " + n + " bytes (at most 65536)");
        }
        final byte[] body = new byte[n];
        in.readFully(body);
        final byte[] tag = new byte[32];
        in.readFully(tag);
        if (!MessageDigest.isEqual(tag, mac(key, body)))
        {
            throw new IOException("its HMAC does not match the job's key");
        }
        return body;
    }

    private static byte[] mac(final byte[] key, final byte[] body)
    {
        try
        {
            final Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            m.update("qsnet-rendezvous".getBytes(StandardCharsets.US_ASCII));
            return m.doFinal(body);
        }
        catch (final GeneralSecurityException e)
        {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
