package org.qsnet.bench.mpi;

import java.util.Map;

import mpi.MPI;
import mpi.Request;

import org.qsnet.elan3.Prun;
import org.qsnet.elan3.RankResults;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Simulated MPI latency and bandwidth between two nodes, measured as the OSU benchmarks do
 * (half the round trip of a ping-pong; a window of non-blocking sends then an acknowledgement).
 * Deterministic: the results can be asserted and compared with CALIBRATION.md.
 */
public final class MpiExperiment
{
    private MpiExperiment()
    {
    }

    /**
     * {@code osu_latency} for one size: half the mean round trip of a blocking ping-pong.
     *
     * @param profile    the platform.
     * @param size       message bytes.
     * @param iterations timed round trips (after 10 warm-up ones).
     * @return one-way latency in simulated ns.
     */
    public static double latencyNs(final PlatformProfile profile, final int size, final int iterations)
    {
        final RankResults r = new RankResults();
        Prun.run(profile, new Prun.Options(2, 2, false, 0, Map.of()), r, (p, a) ->
        {
            MPI.Init(a);
            final int rank = MPI.COMM_WORLD.getRank();
            final byte[] buf = new byte[Math.max(1, size)];
            double start = 0;
            for (int i = 0; i < iterations + 10; i++)
            {
                if (i == 10)
                {
                    start = MPI.wtime();
                }
                if (rank == 0)
                {
                    MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 1, 1);
                    MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 1, 1);
                }
                else
                {
                    MPI.COMM_WORLD.recv(buf, size, MPI.BYTE, 0, 1);
                    MPI.COMM_WORLD.send(buf, size, MPI.BYTE, 0, 1);
                }
            }
            if (rank == 0)
            {
                r.putDouble("latency", 0, (MPI.wtime() - start) * 1e9 / (2.0 * iterations));
            }
            MPI.Finalize();
        }).throwIfFailed();
        return r.getDouble("latency", 0);
    }

    /**
     * {@code osu_bw} for one size: windows of {@code window} non-blocking sends, each window
     * acknowledged by a 4-byte message.
     *
     * @param profile    the platform.
     * @param size       message bytes.
     * @param window     sends per window.
     * @param iterations timed windows (after 2 warm-up ones).
     * @return bandwidth in MB/s (10^6 bytes per simulated second).
     */
    public static double bandwidthMBs(final PlatformProfile profile, final int size, final int window,
        final int iterations)
    {
        QsnetException.require(window >= 1, "window", window, "must be at least 1");
        final RankResults r = new RankResults();
        Prun.run(profile, new Prun.Options(2, 2, false, 0, Map.of()), r, (p, a) ->
        {
            MPI.Init(a);
            final int rank = MPI.COMM_WORLD.getRank();
            final byte[][] bufs = new byte[window][Math.max(1, size)];
            final byte[] ack = new byte[4];
            final Request[] req = new Request[window];
            double start = 0;
            for (int i = 0; i < iterations + 2; i++)
            {
                if (i == 2)
                {
                    start = MPI.wtime();
                }
                if (rank == 0)
                {
                    for (int w = 0; w < window; w++)
                    {
                        req[w] = MPI.COMM_WORLD.iSend(bufs[w], size, MPI.BYTE, 1, 100);
                    }
                    Request.waitAll(req);
                    MPI.COMM_WORLD.recv(ack, 4, MPI.BYTE, 1, 101);
                }
                else
                {
                    for (int w = 0; w < window; w++)
                    {
                        req[w] = MPI.COMM_WORLD.iRecv(bufs[w], size, MPI.BYTE, 0, 100);
                    }
                    Request.waitAll(req);
                    MPI.COMM_WORLD.send(ack, 4, MPI.BYTE, 0, 101);
                }
            }
            if (rank == 0)
            {
                r.putDouble("bandwidth", 0, (double)size * window * iterations / ((MPI.wtime() - start) * 1e6));
            }
            MPI.Finalize();
        }).throwIfFailed();
        return r.getDouble("bandwidth", 0);
    }
}
