package org.qsnet.fabric.distributed;

import java.util.List;
import java.util.function.IntConsumer;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.transport.Transport;

/**
 * Runs the partitions of a job as threads of this JVM, one per transport endpoint (tests,
 * {@code qsnet --partitions}): the same protocol as separate JVMs, joined by the in-JVM transport.
 */
public final class PartitionThreads
{
    private PartitionThreads()
    {
    }

    /**
     * Runs {@code partition.accept(p)} for every partition {@code p} on a thread of its own and
     * waits for all. A partition that fails closes its endpoint, so that none of the others waits
     * for it forever; then every endpoint is closed.
     *
     * @param transports the job's endpoints, by partition.
     * @param partition  what partition {@code p} runs.
     * @throws RuntimeException the first partition's own failure (before the others' reports of
     * it, "partition N of the job failed ...").
     */
    public static void run(final List<? extends Transport> transports, final IntConsumer partition)
    {
        final int n = transports.size();
        final Throwable[] failures = new Throwable[n];
        final Thread[] threads = new Thread[n];
        for (int p = 0; p < n; p++)
        {
            final int part = p;
            threads[p] = new Thread(() ->
            {
                try
                {
                    partition.accept(part);
                }
                catch (final Throwable t)
                {
                    failures[part] = t;
                    transports.get(part).close();
                }
            }, "partition " + p);
            threads[p].start();
        }
        try
        {
            for (final Thread t : threads)
            {
                t.join();
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new QsnetException("interrupted while the partitions ran");
        }
        finally
        {
            transports.forEach(Transport::close);
        }
        Throwable first = null;
        for (final Throwable t : failures)
        {
            if (t != null && (first == null || isReport(first) && !isReport(t)))
            {
                first = t;
            }
        }
        if (first != null)
        {
            throw first instanceof RuntimeException re ? re : new SimulationException(String.valueOf(first), first);
        }
    }

    /** Another partition's report that some partition failed (see {@link PartitionDriver}). */
    private static boolean isReport(final Throwable t)
    {
        return t instanceof SimulationException se && se.getMessage() != null && se.getMessage().startsWith("partition ");
    }
}
