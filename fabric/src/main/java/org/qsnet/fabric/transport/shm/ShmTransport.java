package org.qsnet.fabric.transport.shm;

import static org.qsnet.fabric.QsnetException.require;

import java.io.File;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.MappedBytes;
import net.openhft.chronicle.core.io.SingleThreadedChecked;
import org.qsnet.fabric.transport.FrameRing;
import org.qsnet.fabric.transport.JobAuthenticator;
import org.qsnet.fabric.transport.RingTransport;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.TransportException;

/**
 * The shared-memory transport between JVMs of one host: for each ordered pair of partitions a file
 * in a directory only the user can read, mapped with Chronicle Bytes, holding a header and a
 * {@link FrameRing}. The consumer creates the file; the producer attaches to it.
 *
 * <pre>
 *    0  magic (long, written last by the creator)     64  creator nonce (32 B)
 *    8  version (int)  12 capacity (int)              96  attacher nonce (32 B)
 *   16  job id (long)                                128  attacher proof (32 B)
 *   24  from (int)     28 to (int)                   160  creator proof (32 B)
 *   32  max payload (int)                            192  state (int): 0 created, 1 attached,
 *  256  producer heartbeat (long, wall ms)                2 accepted, 3 refused
 *  320  consumer heartbeat (long, wall ms)           512  FrameRing control block, then data
 * </pre>
 *
 * Opening runs four phases, each waiting only for what every process did in an earlier phase:
 * create the incoming files; attach to the outgoing ones (nonce and proof of the key); check each
 * attacher's proof and answer with the creator's proof (or refuse); check each creator's proof. A
 * process of another job, or with another key, is refused and logged on both sides. A daemon thread
 * writes a heartbeat into every file every interval; a peer whose heartbeat is older than the timeout
 * is reported as failed.
 */
public final class ShmTransport extends RingTransport
{
    private static final System.Logger LOG = System.getLogger(ShmTransport.class.getName());
    private static final long MAGIC = 0x51534e45545f5348L; // "QSNET_SH"
    /** 2: the creator's process id in the header, for {@link #sweepStale}. */
    static final int VERSION = 2;
    private static final int HEADER_BYTES = 512;
    private static final int M_MAGIC = 0;
    private static final int M_VERSION = 8;
    private static final int M_CAPACITY = 12;
    private static final int M_JOB = 16;
    private static final int M_FROM = 24;
    private static final int M_TO = 28;
    private static final int M_MAX_PAYLOAD = 32;
    /** The process id of the file's creator (version 2 on). */
    static final int M_CREATOR_PID = 40;
    private static final int M_CREATOR_NONCE = 64;
    private static final int M_ATTACHER_NONCE = 96;
    private static final int M_ATTACHER_PROOF = 128;
    private static final int M_CREATOR_PROOF = 160;
    private static final int M_STATE = 192;
    private static final int M_PRODUCER_BEAT = 256;
    private static final int M_CONSUMER_BEAT = 320;
    private static final int CREATED = 0;
    private static final int ATTACHED = 1;
    private static final int ACCEPTED = 2;
    private static final int REFUSED = 3;

    private final TransportContext context;
    private final Path directory;
    private final int capacity;
    private final JobAuthenticator authenticator;
    private final MappedBytes[] in;
    private final MappedBytes[] out;
    private final Path[] inFiles;
    private final Thread heartbeat;
    private volatile boolean stopping;

    private ShmTransport(final TransportContext context, final Path directory, final int capacity)
    {
        super(context);
        this.context = context;
        this.directory = directory;
        this.capacity = capacity;
        this.authenticator = new JobAuthenticator(context.jobId(), context.jobKey());
        this.in = new MappedBytes[partitionCount];
        this.out = new MappedBytes[partitionCount];
        this.inFiles = new Path[partitionCount];
        this.heartbeat = new Thread(this::beat, "qsnet-shm-heartbeat-" + partition);
        this.heartbeat.setDaemon(true);
    }

    /**
     * Opens this partition's endpoint: creates its incoming files, attaches to its peers' and
     * authenticates both ways, blocking until every peer has done the same or the connect timeout.
     *
     * @param context   the context (job id, key, partition, limits, heartbeat, connect timeout).
     * @param directory the directory shared by the job's processes (created owner-only if absent),
     *                  e.g. under {@code /dev/shm}.
     * @return the connected endpoint.
     * @throws TransportException naming the peer that did not attach in time or was refused.
     */
    public static ShmTransport open(final TransportContext context, final Path directory)
    {
        context.validate();
        require(directory != null, "directory", "null", "must be given");
        final ShmTransport t = new ShmTransport(context, directory,
            FrameRing.capacityFor(context.maxPayloadBytes()));
        boolean ok = false;
        try
        {
            t.connect();
            ok = true;
            return t;
        }
        finally
        {
            if (!ok)
            {
                t.release();
            }
        }
    }

    /**
     * The default directory for a job's files: {@code /dev/shm/qsnet-<user>} if {@code /dev/shm}
     * exists, else under {@code java.io.tmpdir}.
     *
     * @return the directory path (not created).
     */
    public static Path defaultDirectory()
    {
        final Path shm = Path.of("/dev/shm");
        final String user = System.getProperty("user.name", "user");
        return Files.isDirectory(shm) ? shm.resolve("qsnet-" + user)
            : Path.of(System.getProperty("java.io.tmpdir"), "qsnet-" + user);
    }

    private Path file(final int from, final int to)
    {
        return directory.resolve(String.format("job-%016x-%d-to-%d.ring", context.jobId(), from, to));
    }

    /**
     * Deletes the ring files in {@code directory} whose creator has died: what a job killed before
     * it could close its transports (SIGKILL, a crashed host JVM) left behind. Under
     * {@code /dev/shm} such files hold memory until deleted. A file is stale when its header says
     * who created it and no process with that id is alive; files of running jobs, files this
     * process created, files whose header cannot be read or predates the creator's id (version 1)
     * are left alone. Called by every {@link #open}; errors are logged, never thrown.
     *
     * @param directory the directory of the job files.
     * @return how many files were deleted.
     */
    public static int sweepStale(final Path directory)
    {
        if (!Files.isDirectory(directory))
        {
            return 0;
        }
        int deleted = 0;
        try (var files = Files.newDirectoryStream(directory, "job-*.ring"))
        {
            for (final Path f : files)
            {
                final long pid = creatorPid(f);
                if (pid > 0 && pid != ProcessHandle.current().pid()
                    && !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                {
                    try
                    {
                        Files.deleteIfExists(f);
                        deleted++;
                    }
                    catch (final IOException e)
                    {
                        LOG.log(Level.WARNING, "could not delete the stale ring file " + f + ": " + e);
                    }
                }
            }
        }
        catch (final IOException e)
        {
            LOG.log(Level.WARNING, "could not look for stale ring files in " + directory + ": " + e);
        }
        if (deleted > 0)
        {
            LOG.log(Level.INFO, "deleted " + deleted + " ring file(s) of dead processes in " + directory);
        }
        return deleted;
    }

    /** The creator's process id in a ring file's header, or -1 if it has none (or cannot be read). */
    private static long creatorPid(final Path f)
    {
        try (var ch = java.nio.channels.FileChannel.open(f, java.nio.file.StandardOpenOption.READ))
        {
            final java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(M_CREATOR_PID + 8).order(java.nio.ByteOrder.nativeOrder());
            while (b.hasRemaining() && ch.read(b) > 0)
            {
                // read the header's first words
            }
            if (b.hasRemaining() || b.getLong(M_MAGIC) != MAGIC || b.getInt(M_VERSION) < 2)
            {
                return -1;
            }
            return b.getLong(M_CREATOR_PID);
        }
        catch (final IOException e)
        {
            return -1;
        }
    }

    private void connect()
    {
        final long size = HEADER_BYTES + FrameRing.footprint(capacity);
        sweepStale(directory);
        try
        {
            if (!Files.isDirectory(directory))
            {
                try
                {
                    Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                }
                catch (final FileAlreadyExistsException e)
                {
                    // another partition created it first
                }
            }
            // phase 1: create the incoming files, magic last
            for (int p = 0; p < partitionCount; p++)
            {
                if (p == partition)
                {
                    continue;
                }
                final Path f = file(p, partition);
                Files.deleteIfExists(f);
                Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                inFiles[p] = f;
                in[p] = map(f.toFile(), size);
                final BytesStore<?, ?> s = in[p].bytesStore();
                s.writeInt(M_VERSION, VERSION);
                s.writeInt(M_CAPACITY, capacity);
                s.writeLong(M_JOB, context.jobId());
                s.writeInt(M_FROM, p);
                s.writeInt(M_TO, partition);
                s.writeInt(M_MAX_PAYLOAD, maxPayloadBytes);
                s.writeLong(M_CREATOR_PID, ProcessHandle.current().pid());
                s.write(M_CREATOR_NONCE, JobAuthenticator.nonce());
                s.writeLong(M_CONSUMER_BEAT, System.currentTimeMillis()); // wall-clock: transport liveness and timeouts, never part of a result
                s.writeOrderedInt(M_STATE, CREATED);
                s.writeOrderedLong(M_MAGIC, MAGIC);
            }
            final long deadline = System.nanoTime() + context.connectTimeoutMs() * 1_000_000L; // wall-clock: transport liveness and timeouts, never part of a result
            // phase 2: attach to the outgoing files
            for (int p = 0; p < partitionCount; p++)
            {
                if (p == partition)
                {
                    continue;
                }
                final File f = file(partition, p).toFile();
                while (!f.exists() || f.length() < size)
                {
                    waitFor(deadline, p, "create its ring file " + f);
                }
                out[p] = map(f, size);
                final BytesStore<?, ?> s = out[p].bytesStore();
                while (s.readVolatileLong(M_MAGIC) != MAGIC)
                {
                    waitFor(deadline, p, "initialise its ring file " + f);
                }
                final String wrong = s.readInt(M_VERSION) != VERSION ? "version " + s.readInt(M_VERSION) + ", expected " + VERSION
                    : s.readLong(M_JOB) != context.jobId() ? "job id " + s.readLong(M_JOB) + ", expected " + context.jobId()
                    : s.readInt(M_FROM) != partition || s.readInt(M_TO) != p ? "ring " + s.readInt(M_FROM) + "->" + s.readInt(M_TO)
                    : s.readInt(M_CAPACITY) != capacity || s.readInt(M_MAX_PAYLOAD) != maxPayloadBytes
                        ? "capacity " + s.readInt(M_CAPACITY) + " / max payload " + s.readInt(M_MAX_PAYLOAD) + ", expected " + capacity + " / " + maxPayloadBytes
                    : null;
                if (wrong != null)
                {
                    throw refuse(p, "its ring file " + f + " has " + wrong);
                }
                final byte[] attacherNonce = JobAuthenticator.nonce();
                s.write(M_ATTACHER_NONCE, attacherNonce);
                s.write(M_ATTACHER_PROOF, authenticator.proof(JobAuthenticator.ROLE_CONNECTOR, partition, p,
                    attacherNonce, read(s, M_CREATOR_NONCE)));
                s.writeLong(M_PRODUCER_BEAT, System.currentTimeMillis()); // wall-clock: transport liveness and timeouts, never part of a result
                s.writeOrderedInt(M_STATE, ATTACHED);
            }
            // phase 3: check the attachers of the incoming files
            for (int p = 0; p < partitionCount; p++)
            {
                if (p == partition)
                {
                    continue;
                }
                final BytesStore<?, ?> s = in[p].bytesStore();
                while (s.readVolatileInt(M_STATE) != ATTACHED)
                {
                    waitFor(deadline, p, "attach to ring file " + inFiles[p]);
                }
                final byte[] attacherNonce = read(s, M_ATTACHER_NONCE);
                final byte[] creatorNonce = read(s, M_CREATOR_NONCE);
                final byte[] expected = authenticator.proof(JobAuthenticator.ROLE_CONNECTOR, p, partition, attacherNonce, creatorNonce);
                if (!JobAuthenticator.matches(expected, read(s, M_ATTACHER_PROOF)))
                {
                    s.writeOrderedInt(M_STATE, REFUSED);
                    throw refuse(p, "its proof of the job key does not match (another job, or a wrong key)");
                }
                s.write(M_CREATOR_PROOF, authenticator.proof(JobAuthenticator.ROLE_ACCEPTOR, p, partition, attacherNonce, creatorNonce));
                s.writeOrderedInt(M_STATE, ACCEPTED);
            }
            // phase 4: check the creators of the outgoing files
            for (int p = 0; p < partitionCount; p++)
            {
                if (p == partition)
                {
                    continue;
                }
                final BytesStore<?, ?> s = out[p].bytesStore();
                int state;
                while ((state = s.readVolatileInt(M_STATE)) == ATTACHED)
                {
                    waitFor(deadline, p, "accept this partition's proof");
                }
                if (state == REFUSED)
                {
                    throw refuse(p, "it refused this partition's proof of the job key (another job, or a wrong key)");
                }
                final byte[] expected = authenticator.proof(JobAuthenticator.ROLE_ACCEPTOR, partition, p,
                    read(s, M_ATTACHER_NONCE), read(s, M_CREATOR_NONCE));
                if (state != ACCEPTED || !JobAuthenticator.matches(expected, read(s, M_CREATOR_PROOF)))
                {
                    throw refuse(p, "its proof of the job key does not match (another job, or a wrong key)");
                }
            }
            for (int p = 0; p < partitionCount; p++)
            {
                if (p != partition)
                {
                    outgoing[p] = ring(out[p]);
                    incoming[p] = ring(in[p]);
                }
            }
        }
        catch (final IOException e)
        {
            throw new TransportException(TransportException.NO_PEER, "partition " + partition
                + " cannot create its shared-memory files in " + directory + ": " + e, e);
        }
        heartbeat.start();
    }

    private FrameRing ring(final MappedBytes bytes)
    {
        final BytesStore<?, ?> s = bytes.bytesStore();
        return new FrameRing(s, s.toTemporaryDirectByteBuffer(), HEADER_BYTES, capacity, maxPayloadBytes);
    }

    private static MappedBytes map(final File f, final long size) throws IOException
    {
        final MappedBytes bytes = MappedBytes.singleMappedBytes(f, size);
        bytes.singleThreadedCheckDisabled(true);
        if (bytes.bytesStore() instanceof SingleThreadedChecked checked)
        {
            checked.singleThreadedCheckDisabled(true);
        }
        return bytes;
    }

    private static byte[] read(final BytesStore<?, ?> s, final int offset)
    {
        final byte[] b = new byte[JobAuthenticator.NONCE_BYTES];
        for (int i = 0; i < b.length; i++)
        {
            b[i] = s.readByte(offset + i);
        }
        return b;
    }

    private TransportException refuse(final int peer, final String why)
    {
        final String message = "partition " + partition + " refused peer " + peer + " (shared memory, job "
            + context.jobId() + "): " + why;
        LOG.log(Level.WARNING, message);
        return new TransportException(peer, message);
    }

    private void waitFor(final long deadline, final int peer, final String what)
    {
        if (System.nanoTime() - deadline > 0) // wall-clock: transport liveness and timeouts, never part of a result
        {
            throw new TransportException(peer, "partition " + partition + ": peer " + peer + " did not "
                + what + " within " + context.connectTimeoutMs() + " ms");
        }
        try
        {
            Thread.sleep(2); // wall-clock: transport liveness and timeouts, never part of a result
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new TransportException(peer, "partition " + partition + " interrupted while waiting for peer " + peer);
        }
    }

    private void beat()
    {
        final long interval = context.heartbeatIntervalMs();
        final long timeout = context.heartbeatTimeoutMs();
        long previous = 0;
        while (!stopping)
        {
            final long now = System.currentTimeMillis(); // wall-clock: transport liveness and timeouts, never part of a result
            // this thread did not run for over two intervals (a starved host, a GC pause): the peers'
            // beats are late for the same reason, so write ours and judge from the next round
            final boolean starved = previous != 0 && now - previous > 2 * interval;
            previous = now;
            for (int p = 0; p < partitionCount; p++)
            {
                if (p == partition)
                {
                    continue;
                }
                out[p].bytesStore().writeOrderedLong(M_PRODUCER_BEAT, now);
                in[p].bytesStore().writeOrderedLong(M_CONSUMER_BEAT, now);
                final long last = in[p].bytesStore().readVolatileLong(M_PRODUCER_BEAT);
                if (!starved && now - last > timeout && failure(p) == null && !incoming[p].isProducerClosed())
                {
                    final String message = "peer " + p + " stopped answering: no heartbeat for " + (now - last)
                        + " ms (timeout " + timeout + " ms, shared memory, partition " + partition + ")";
                    LOG.log(Level.WARNING, message);
                    failPeer(p, new TransportException(p, message));
                }
            }
            try
            {
                Thread.sleep(interval); // wall-clock: transport liveness and timeouts, never part of a result
            }
            catch (final InterruptedException e)
            {
                return;
            }
        }
    }

    @Override
    public void close()
    {
        if (markClosed())
        {
            closeOutgoing();
            release();
        }
    }

    private void release()
    {
        stopping = true;
        heartbeat.interrupt();
        if (heartbeat.isAlive())
        {
            try
            {
                heartbeat.join(1_000);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
        final List<Path> delete = new ArrayList<>();
        for (int p = 0; p < partitionCount; p++)
        {
            if (in[p] != null)
            {
                in[p].releaseLast();
                in[p] = null;
                delete.add(inFiles[p]);
            }
            if (out[p] != null)
            {
                out[p].releaseLast();
                out[p] = null;
            }
        }
        for (final Path f : delete)
        {
            try
            {
                Files.deleteIfExists(f);
            }
            catch (final IOException e)
            {
                LOG.log(Level.WARNING, "partition " + partition + " could not delete " + f + ": " + e);
            }
        }
    }

    /**
     * The ring capacity in bytes of each path.
     *
     * @return bytes.
     */
    public int ringCapacity()
    {
        return capacity;
    }
}
