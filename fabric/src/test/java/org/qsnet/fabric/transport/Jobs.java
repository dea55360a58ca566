package org.qsnet.fabric.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/** Test helper: opens the endpoints of a job in parallel, as separate processes would. */
public final class Jobs
{
    private Jobs()
    {
    }

    /**
     * Runs {@code open} for every partition at once and returns the endpoints in partition order.
     *
     * @param n    the partition count.
     * @param open opens one partition's endpoint (blocking until connected).
     * @param <T>  the endpoint type.
     * @return the endpoints.
     */
    public static <T extends Transport> List<T> openInParallel(final int n, final IntFunction<T> open)
    {
        final ExecutorService pool = Executors.newFixedThreadPool(n);
        try
        {
            final List<Future<T>> futures = new ArrayList<>();
            for (int p = 0; p < n; p++)
            {
                final int partition = p;
                futures.add(pool.submit(() -> open.apply(partition)));
            }
            final List<T> result = new ArrayList<>();
            Throwable failure = null;
            for (final Future<T> f : futures)
            {
                try
                {
                    result.add(f.get());
                }
                catch (final Exception e)
                {
                    failure = failure == null ? e.getCause() : failure;
                }
            }
            if (failure != null)
            {
                result.forEach(Transport::close);
                throw new AssertionError("a partition failed to open: " + failure, failure);
            }
            return result;
        }
        finally
        {
            pool.shutdownNow();
        }
    }
}
