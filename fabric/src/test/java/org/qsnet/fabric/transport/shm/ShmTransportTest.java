package org.qsnet.fabric.transport.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

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
}
