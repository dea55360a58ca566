package org.qsnet.fabric.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.qsnet.fabric.QsnetException;

/**
 * This process's rank and the job's size, as given by the launcher it runs under: SLURM
 * ({@code SLURM_PROCID}, {@code SLURM_NTASKS}, {@code SLURM_NODEID}), Open MPI
 * ({@code OMPI_COMM_WORLD_RANK}, {@code OMPI_COMM_WORLD_SIZE}), PMI ({@code PMI_RANK},
 * {@code PMI_SIZE}) or RMS ({@code RMS_RANK}, {@code RMS_NPROCS}, {@code RMS_NODEID}).
 *
 * <p>A launcher counts when either of its rank and size variables is set; then both must be, as
 * integers with {@code 0 <= rank < size}. Launchers that set several families (srun with PMI,
 * mpirun) must agree on rank and size. The first family present in the order above names the result.
 *
 * @param rank     this process's rank, in {@code 0..size-1}.
 * @param size     the number of processes of the job.
 * @param nodeId   the node's index as the launcher numbers it, or -1 if it gives none.
 * @param launcher the variables the figures came from, e.g. {@code "SLURM_PROCID/SLURM_NTASKS"}.
 */
public record LauncherRank(int rank, int size, int nodeId, String launcher)
{
    private static final String[][] FAMILIES = {
        {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_NODEID"},
        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", null},
        {"PMI_RANK", "PMI_SIZE", null},
        {"RMS_RANK", "RMS_NPROCS", "RMS_NODEID"},
    };

    /**
     * Reads the rank and size from this process's environment.
     *
     * @return the rank and size.
     * @throws QsnetException if no launcher variables are set, or they are partial or inconsistent.
     */
    public static LauncherRank fromEnvironment()
    {
        return fromEnvironment(System.getenv());
    }

    /**
     * Reads the rank and size from an environment.
     *
     * @param env the environment variables.
     * @return the rank and size.
     * @throws QsnetException if no launcher variables are set, or they are partial or inconsistent.
     */
    public static LauncherRank fromEnvironment(final Map<String, String> env)
    {
        return detect(env).orElseThrow(() -> new QsnetException("launcher environment: none of SLURM_PROCID/SLURM_NTASKS, "
            + "OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE, PMI_RANK/PMI_SIZE, RMS_RANK/RMS_NPROCS is set: "
            + "run under srun, mpirun or prun, or set a rank and size"));
    }

    /**
     * Reads the rank and size from an environment, if a launcher set them.
     *
     * @param env the environment variables.
     * @return the rank and size, or empty if no launcher variable is set.
     * @throws QsnetException if the variables are partial or inconsistent.
     */
    public static Optional<LauncherRank> detect(final Map<String, String> env)
    {
        final List<LauncherRank> found = new ArrayList<>();
        for (final String[] f : FAMILIES)
        {
            final String rank = env.get(f[0]);
            final String size = env.get(f[1]);
            if (rank == null && size == null)
            {
                continue;
            }
            if (rank == null || size == null)
            {
                throw new QsnetException("launcher environment: " + (rank == null ? f[1] + "=" + size : f[0] + "=" + rank)
                    + " is set but " + (rank == null ? f[0] : f[1]) + " is not: both are needed");
            }
            final int s = parse(f[1], size);
            final int r = parse(f[0], rank);
            QsnetException.require(s >= 1, "launcher environment: " + f[1], s, "must be at least 1");
            QsnetException.require(r < s, "launcher environment: " + f[0], r, "must be below " + f[1] + " " + s);
            final int node = f[2] != null && env.get(f[2]) != null ? parse(f[2], env.get(f[2])) : -1;
            found.add(new LauncherRank(r, s, node, f[0] + "/" + f[1]));
        }
        for (final LauncherRank other : found)
        {
            final LauncherRank first = found.get(0);
            if (other.rank != first.rank || other.size != first.size)
            {
                throw new QsnetException("launcher environment: " + first.launcher + " = " + first.rank + "/" + first.size
                    + " disagrees with " + other.launcher + " = " + other.rank + "/" + other.size
                    + ": rank and size must be the same in every launcher's variables");
            }
        }
        if (found.isEmpty())
        {
            return Optional.empty();
        }
        final LauncherRank first = found.get(0);
        int node = first.nodeId;
        for (final LauncherRank f : found)
        {
            node = node < 0 ? f.nodeId : node;
        }
        return Optional.of(new LauncherRank(first.rank, first.size, node, first.launcher));
    }

    private static int parse(final String name, final String value)
    {
        try
        {
            final int v = Integer.parseInt(value.trim());
            QsnetException.require(v >= 0, "launcher environment: " + name, value, "must not be negative");
            return v;
        }
        catch (final NumberFormatException e)
        {
            throw new QsnetException("launcher environment: " + name + " " + value + " is not an integer");
        }
    }
}
