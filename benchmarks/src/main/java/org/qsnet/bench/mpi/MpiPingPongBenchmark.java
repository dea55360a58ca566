package org.qsnet.bench.mpi;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import mpi.MPI;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * An MPI ping-pong under JMH: the host time of running 100 round trips of the embedded
 * two-node job, and beside it ({@link SimulatedTime}) the simulated one-way latency they measured.
 *
 * <pre>./qsnet jmh MpiPingPongBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
public class MpiPingPongBenchmark
{
    private static final int ROUND_TRIPS = 100;

    /** Message size in bytes. */
    @Param({"8", "4096"})
    public int size;

    /**
     * Runs the job; records the simulated one-way latency per message.
     *
     * @param sim the simulated-time counter.
     * @return the simulated one-way latency in ns.
     */
    @Benchmark
    public double pingPong(final SimulatedTime sim)
    {
        final double[] oneWayNs = new double[1];
        final int bytes = size;
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, 2, false, 0, Map.of()), (p, a) ->
        {
            MPI.Init(a);
            final int rank = MPI.COMM_WORLD.getRank();
            final byte[] buf = new byte[bytes];
            MPI.COMM_WORLD.barrier();
            final double start = MPI.wtime();
            for (int i = 0; i < ROUND_TRIPS; i++)
            {
                if (rank == 0)
                {
                    MPI.COMM_WORLD.send(buf, bytes, MPI.BYTE, 1, 0);
                    MPI.COMM_WORLD.recv(buf, bytes, MPI.BYTE, 1, 0);
                }
                else
                {
                    MPI.COMM_WORLD.recv(buf, bytes, MPI.BYTE, 0, 0);
                    MPI.COMM_WORLD.send(buf, bytes, MPI.BYTE, 0, 0);
                }
            }
            if (rank == 0)
            {
                oneWayNs[0] = (MPI.wtime() - start) * 1e9 / 2;
            }
            MPI.Finalize();
        }).throwIfFailed();
        sim.record(oneWayNs[0], ROUND_TRIPS);
        return oneWayNs[0];
    }
}
