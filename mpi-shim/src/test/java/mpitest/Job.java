package mpitest;

import java.util.Map;

import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/** Runs an MPI program as a job of n ranks on the pentium3-he machine, one rank per node (as mpirun would). */
final class Job
{
    private Job()
    {
    }

    static void run(final int n, final Class<?> program, final String... args)
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(n, Math.min(n, 16), false, 0, Map.of()), program, args)
            .throwIfFailed();
    }

    /**
     * Runs a job and asserts that every one of its {@code n} ranks ended normally (a rank's failed
     * {@link #check} fails it, and so the job).
     */
    static void assertPasses(final PlatformProfile profile, final int n, final int nodes, final Class<?> program,
        final String... args)
    {
        final org.qsnet.fabric.engine.RunReport r = Prun.run(profile, new Prun.Options(n, nodes, false, 0, Map.of()), program,
            args).throwIfFailed();
        org.junit.jupiter.api.Assertions.assertEquals(n, r.outcomes().size(), "ranks");
        for (final org.qsnet.fabric.engine.RunReport.Outcome o : r.outcomes())
        {
            org.junit.jupiter.api.Assertions.assertEquals(org.qsnet.fabric.engine.ProcessState.DONE, o.state(), o.name());
        }
    }

    /** Fails the rank (and so the job) when the condition does not hold. */
    static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new AssertionError(what);
        }
    }
}
