package org.qsnet.fabric.transport.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import org.qsnet.fabric.transport.Jobs;
import org.qsnet.fabric.transport.Transport;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.TransportContractTest;

/** The transport contract, through shared memory (both ends in this JVM, on the same mapped files). */
class ShmTransportTest extends TransportContractTest
{
    private static final AtomicLong JOBS = new AtomicLong(System.nanoTime());

    /**
     * A fresh directory for one job's files, under /dev/shm when it exists.
     *
     * @return the directory.
     */
    static Path directory()
    {
        try
        {
            final Path shm = Path.of("/dev/shm");
            final Path dir = Files.isDirectory(shm) ? Files.createTempDirectory(shm, "qsnet-test") : Files.createTempDirectory("qsnet-test");
            // the transports delete their files on close; the empty directory goes when the JVM exits
            dir.toFile().deleteOnExit();
            return dir;
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected List<Transport> createJob(final TransportContext context)
    {
        final Path dir = directory();
        context.jobId(JOBS.incrementAndGet());
        return List.copyOf(Jobs.openInParallel(context.partitionCount(), p -> ShmTransport.open(context.forPartition(p), dir)));
    }

    /**
     * A job killed before it closed its transports leaves its ring files (under /dev/shm: memory).
     * The next transport opened on the directory deletes those whose creator is dead, and only those.
     */
    @Test
    void shouldDeleteTheRingFilesOfDeadProcessesAndKeepTheOthers() throws Exception
    {
        final Path dir = directory();
        final TransportContext context = context(2, 1024);
        context.jobId(JOBS.incrementAndGet());
        final List<Transport> job = createJobIn(dir, context);
        // copies of a live job's ring file, as other jobs' files: one whose creator is dead, one
        // whose creator lives, one from this process
        final Path real = Files.list(dir).filter(f -> f.getFileName().toString().endsWith(".ring")).findFirst().orElseThrow();
        final Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        final Process alive = new ProcessBuilder("sleep", "60").start();
        try
        {
            final Path stale = copyWithCreator(real, dir.resolve("job-00000000000000aa-0-to-1.ring"), dead.pid());
            final Path running = copyWithCreator(real, dir.resolve("job-00000000000000bb-0-to-1.ring"), alive.pid());
            final Path mine = copyWithCreator(real, dir.resolve("job-00000000000000cc-0-to-1.ring"), ProcessHandle.current().pid());
            final Path foreign = Files.writeString(dir.resolve("job-00000000000000dd-0-to-1.ring"), "not a ring file");
            for (final Transport t : job)
            {
                t.close();
            }
            // opening the next job on the directory sweeps it
            final TransportContext next = context(2, 1024);
            next.jobId(JOBS.incrementAndGet());
            final List<Transport> second = createJobIn(dir, next);
            org.junit.jupiter.api.Assertions.assertFalse(Files.exists(stale), "the dead creator's file is still there");
            org.junit.jupiter.api.Assertions.assertTrue(Files.exists(running) && Files.exists(mine) && Files.exists(foreign),
                "a file of a live process (or not a ring file) was deleted");
            for (final Transport t : second)
            {
                t.close();
            }
            org.junit.jupiter.api.Assertions.assertEquals(0, ShmTransport.sweepStale(dir));
            Files.delete(running);
            Files.delete(mine);
            Files.delete(foreign);
        }
        finally
        {
            alive.destroyForcibly();
        }
    }

    private static List<Transport> createJobIn(final Path dir, final TransportContext context)
    {
        return List.copyOf(Jobs.openInParallel(context.partitionCount(), p -> ShmTransport.open(context.forPartition(p), dir)));
    }

    private static Path copyWithCreator(final Path from, final Path to, final long pid) throws IOException
    {
        final byte[] b = Files.readAllBytes(from);
        java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.nativeOrder()).putLong(ShmTransport.M_CREATOR_PID, pid);
        return Files.write(to, b);
    }
}
