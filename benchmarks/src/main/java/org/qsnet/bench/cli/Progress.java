package org.qsnet.bench.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * Progress of one long point on stderr: once a point has taken {@link #quietMs} of wall time,
 * each step of its simulated time is reported (how much is done, how long it has taken), so a
 * long run is never silent. Wall time here only decides whether to print; it never enters a result.
 */
final class Progress implements LongConsumer
{
    /** Wall time a point runs silently before its steps are reported; tests set 0. */
    static long quietMs = 2000;

    private final String label;
    private final long totalNs;
    private final PrintStream err;
    private final long startWallNs = System.nanoTime();

    /**
     * @param label   what runs, e.g. "uniform offered 0.50".
     * @param totalNs simulated ns the point runs (warm-up and window).
     * @param err     where to report.
     */
    Progress(final String label, final long totalNs, final PrintStream err)
    {
        this.label = label;
        this.totalNs = totalNs;
        this.err = err;
    }

    @Override
    public void accept(final long doneNs)
    {
        final long wallMs = (System.nanoTime() - startWallNs) / 1_000_000;
        if (wallMs >= quietMs && doneNs < totalNs)
        {
            err.printf(Locale.ROOT, "  %s: %.0f%% of %.0f us simulated, %.1f s so far%n", label, 100.0 * doneNs / totalNs,
                totalNs / 1000.0, wallMs / 1000.0);
            err.flush();
        }
    }
}
