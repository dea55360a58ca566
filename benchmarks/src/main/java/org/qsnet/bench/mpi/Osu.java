package org.qsnet.bench.mpi;

import java.util.Locale;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The OSU micro-benchmarks (point-to-point and collectives) written against the Open MPI Java
 * API, timed with {@link MPI#wtime()}, i.e. in simulated time, printing the OSU output format.
 *
 * <pre>
 * ./mpirun -np 2 org.qsnet.bench.mpi.Osu latency
 * ./mpirun -np 16 org.qsnet.bench.mpi.Osu allreduce -m 65536 -d array
 * </pre>
 *
 * Benchmarks: {@code latency bw bibw mbw_mr} (pairs rank i with rank i + n/2), {@code barrier bcast
 * reduce allreduce gather scatter allgather alltoall gatherv scatterv allgatherv alltoallv}.
 * Options: {@code -m MAX} largest size in bytes (default 1 MB), {@code -i N} iterations of small
 * messages (default 100; a tenth, at least 5, above 8 KB), {@code -x N} warm-up iterations (default
 * 10), {@code -d direct|array} direct buffers (default) or Java arrays. The bandwidth tests use a
 * window of 64 messages, fewer for large ones so that the window fits 8 MB of the rank's emulated
 * memory (the window is printed).
 */
public final class Osu
{
    private final String test;
    private final int max;
    private final int iterations;
    private final int warmup;
    private final boolean direct;
    private final Intracomm world = MPI.COMM_WORLD;
    private int rank;
    private int size;

    private Osu(final String test, final int max, final int iterations, final int warmup, final boolean direct)
    {
        this.test = test;
        this.max = max;
        this.iterations = iterations;
        this.warmup = warmup;
        this.direct = direct;
    }

    /**
     * @param args the benchmark and its options.
     * @throws MPIException when MPI fails.
     */
    public static void main(final String[] args) throws MPIException
    {
        MPI.Init(args);
        String test = null;
        int max = 1 << 20;
        int iterations = 100;
        int warmup = 10;
        boolean direct = true;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "-m" -> max = Integer.parseInt(args[++i]);
                case "-i" -> iterations = Integer.parseInt(args[++i]);
                case "-x" -> warmup = Integer.parseInt(args[++i]);
                case "-d" ->
                {
                    final String d = args[++i];
                    if (!d.equals("direct") && !d.equals("array"))
                    {
                        throw new IllegalArgumentException("-d " + d + " must be direct or array");
                    }
                    direct = d.equals("direct");
                }
                default -> test = args[i];
            }
        }
        if (test == null)
        {
            throw new IllegalArgumentException("which benchmark? latency, bw, bibw, mbw_mr, barrier, bcast, reduce,"
                + " allreduce, gather, scatter, allgather, alltoall, gatherv, scatterv, allgatherv, alltoallv");
        }
        new Osu(test, max, iterations, warmup, direct).run();
        MPI.Finalize();
    }

    private Object buffer(final int bytes)
    {
        return direct ? MPI.newByteBuffer(Math.max(1, bytes)) : new byte[Math.max(1, bytes)];
    }

    private int iters(final int bytes)
    {
        return bytes > 8192 ? Math.max(5, iterations / 10) : iterations;
    }

    private int skip(final int bytes)
    {
        return bytes > 8192 ? Math.max(1, warmup / 5) : warmup;
    }

    private void out(final String s) throws MPIException
    {
        if (rank == 0)
        {
            System.out.println(s);
        }
    }

    private void run() throws MPIException
    {
        rank = world.getRank();
        size = world.getSize();
        final String kind = direct ? "direct buffers" : "arrays";
        switch (test)
        {
            case "latency" ->
            {
                pairs(2);
                out("# OSU MPI Latency Test (qsnet emulator, simulated time, " + kind + ")");
                out(String.format("%-10s%20s", "# Size", "Latency (us)"));
                for (int s = 0; s <= max; s = s == 0 ? 1 : 2 * s)
                {
                    out(row(s, latency(s)));
                }
            }
            case "bw", "bibw", "mbw_mr" ->
            {
                pairs(test.equals("mbw_mr") ? 2 : -2);
                final String title = switch (test)
                {
                    case "bw" -> "Bandwidth";
                    case "bibw" -> "Bi-Directional Bandwidth";
                    default -> "Multiple Bandwidth / Message Rate";
                };
                out("# OSU MPI " + title + " Test (qsnet emulator, simulated time, " + kind + ")");
                out(test.equals("mbw_mr") ? String.format("%-10s%20s%20s", "# Size", "MB/s", "Messages/s")
                    : String.format("%-10s%20s%12s", "# Size", "Bandwidth (MB/s)", "Window"));
                for (int s = 1; s <= max; s *= 2)
                {
                    final int window = Math.max(1, Math.min(64, (8 << 20) / s));
                    final double mbs = bandwidth(s, window, test.equals("bibw"));
                    out(test.equals("mbw_mr") ? String.format(Locale.ROOT, "%-10d%20.2f%20.2f", s, mbs, mbs * 1e6 / s)
                        : String.format(Locale.ROOT, "%-10d%20.2f%12d", s, mbs, window));
                }
            }
            case "barrier" ->
            {
                out("# OSU MPI Barrier Latency Test (qsnet emulator, simulated time)");
                out(String.format("%-10s%20s", "# Size", "Avg Latency(us)"));
                out(row(0, collective(0)));
            }
            default ->
            {
                out("# OSU MPI " + test.substring(0, 1).toUpperCase(Locale.ROOT) + test.substring(1)
                    + " Latency Test (qsnet emulator, simulated time, " + kind + ")");
                out(String.format("%-10s%20s", "# Size", "Avg Latency(us)"));
                for (int s = 1; s <= max; s *= 2)
                {
                    out(row(s, collective(s)));
                }
            }
        }
    }

    private static String row(final int s, final double us)
    {
        return String.format(Locale.ROOT, "%-10d%20.2f", s, us);
    }

    /** Checks the job size: exactly {@code n}, or an even number at least {@code -n}. */
    private void pairs(final int n)
    {
        if (n > 0 ? size != n && !test.equals("mbw_mr") : size < -n || size % 2 != 0)
        {
            throw new IllegalArgumentException("osu " + test + " needs " + (n > 0 && !test.equals("mbw_mr") ? "exactly " + n
                : "an even number of (at least 2)") + " processes, not " + size);
        }
    }

    private double latency(final int s) throws MPIException
    {
        final Object buf = buffer(s);
        world.barrier();
        double start = 0;
        final int n = iters(s);
        for (int i = 0; i < n + skip(s); i++)
        {
            if (i == skip(s))
            {
                start = MPI.wtime();
            }
            if (rank == 0)
            {
                world.send(buf, s, MPI.BYTE, 1, 1);
                world.recv(buf, s, MPI.BYTE, 1, 1);
            }
            else
            {
                world.recv(buf, s, MPI.BYTE, 0, 1);
                world.send(buf, s, MPI.BYTE, 0, 1);
            }
        }
        return (MPI.wtime() - start) * 1e6 / (2.0 * n);
    }

    /** Window bandwidth between rank i and i + size/2 (bw, mbw_mr) or both ways (bibw); aggregate MB/s. */
    private double bandwidth(final int s, final int window, final boolean both) throws MPIException
    {
        final int half = size / 2;
        final boolean sender = rank < half;
        final int peer = sender ? rank + half : rank - half;
        final Object[] bufs = new Object[window];
        final Object[] rbufs = new Object[window];
        for (int w = 0; w < window; w++)
        {
            bufs[w] = buffer(s);
            rbufs[w] = buffer(s);
        }
        final Object ack = buffer(4);
        final Request[] req = new Request[both ? 2 * window : window];
        final int n = Math.max(2, iters(s) / 5);
        world.barrier();
        double start = 0;
        for (int i = 0; i < n + 2; i++)
        {
            if (i == 2)
            {
                start = MPI.wtime();
            }
            if (both)
            {
                for (int w = 0; w < window; w++)
                {
                    req[w] = world.iRecv(rbufs[w], s, MPI.BYTE, peer, 10);
                }
                for (int w = 0; w < window; w++)
                {
                    req[window + w] = world.iSend(bufs[w], s, MPI.BYTE, peer, 10);
                }
                Request.waitAll(req);
            }
            else if (sender)
            {
                for (int w = 0; w < window; w++)
                {
                    req[w] = world.iSend(bufs[w], s, MPI.BYTE, peer, 10);
                }
                Request.waitAll(req);
                world.recv(ack, 4, MPI.BYTE, peer, 11);
            }
            else
            {
                for (int w = 0; w < window; w++)
                {
                    req[w] = world.iRecv(rbufs[w], s, MPI.BYTE, peer, 10);
                }
                Request.waitAll(req);
                world.send(ack, 4, MPI.BYTE, peer, 11);
            }
        }
        final double t = MPI.wtime() - start;
        final double mine = sender || both ? (double)s * window * n / (t * 1e6) : 0;
        final double[] total = new double[1];
        world.reduce(new double[] {mine}, total, 1, MPI.DOUBLE, MPI.SUM, 0);
        return total[0];
    }

    /** Average over ranks of the mean time of one collective of {@code s} bytes per process, in us. */
    private double collective(final int s) throws MPIException
    {
        final Object send = buffer(s * size);
        final Object recv = buffer(s * size);
        final int[] counts = new int[size];
        final int[] displs = new int[size];
        for (int i = 0; i < size; i++)
        {
            counts[i] = s;
            displs[i] = i * s;
        }
        final int n = iters(s);
        double total = 0;
        for (int i = 0; i < n + skip(s); i++)
        {
            world.barrier();
            final double t0 = MPI.wtime();
            switch (test)
            {
                case "barrier" -> world.barrier();
                case "bcast" -> world.bcast(send, s, MPI.BYTE, 0);
                case "reduce" -> world.reduce(send, recv, s / 4, MPI.INT, MPI.SUM, 0);
                case "allreduce" -> world.allReduce(send, recv, s / 4, MPI.INT, MPI.SUM);
                case "gather" -> world.gather(send, s, MPI.BYTE, recv, s, MPI.BYTE, 0);
                case "scatter" -> world.scatter(send, s, MPI.BYTE, recv, s, MPI.BYTE, 0);
                case "allgather" -> world.allGather(send, s, MPI.BYTE, recv, s, MPI.BYTE);
                case "alltoall" -> world.allToAll(send, s, MPI.BYTE, recv, s, MPI.BYTE);
                case "gatherv" -> world.gatherv(send, s, MPI.BYTE, recv, counts, displs, MPI.BYTE, 0);
                case "scatterv" -> world.scatterv(send, counts, displs, MPI.BYTE, recv, s, MPI.BYTE, 0);
                case "allgatherv" -> world.allGatherv(send, s, MPI.BYTE, recv, counts, displs, MPI.BYTE);
                case "alltoallv" -> world.allToAllv(send, counts, displs, MPI.BYTE, recv, counts, displs, MPI.BYTE);
                default -> throw new IllegalArgumentException("unknown benchmark " + test);
            }
            if (i >= skip(s))
            {
                total += MPI.wtime() - t0;
            }
        }
        final double[] sum = new double[1];
        world.reduce(new double[] {total * 1e6 / n}, sum, 1, MPI.DOUBLE, MPI.SUM, 0);
        return sum[0] / size;
    }
}
