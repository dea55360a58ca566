package org.qsnet.fabric.distributed;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.qsnet.fabric.network.FabricConfig;
import org.qsnet.fabric.transport.Transport;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.shm.ShmTransport;

/**
 * The workload of {@link PartitionEquivalenceTest} in separate JVMs joined by shared memory: this
 * JVM runs partition 0, child JVMs run the others; the merged result must equal the run in one
 * kernel, event for event.
 */
class MultiJvmEquivalenceTest
{
    private static final String KEY = "00112233445566778899aabbccddeeff";

    @Test
    @Timeout(180)
    void shouldGiveTheSameRunInTwoJvmsAsInOne(@TempDir final Path dir) throws Exception
    {
        runAcross(2, 0.0, dir);
    }

    @Test
    @Timeout(180)
    void shouldGiveTheSameRunInFourJvmsWithCrcErrors(@TempDir final Path dir) throws Exception
    {
        runAcross(4, 0.02, dir);
    }

    private static void runAcross(final int count, final double crc, final Path dir) throws Exception
    {
        final FabricConfig config = crc > 0 ? FabricConfig.elite(3).withCrcErrorRate(crc).withSeed(7) : FabricConfig.elite(3);
        final PartitionEquivalenceTest.Outcome one = PartitionEquivalenceTest.runSingle(config);
        final long job = ProcessHandle.current().pid() * 100 + count;
        final Path shm = dir.resolve("rings");
        Files.createDirectories(shm);
        final List<Process> children = new ArrayList<>();
        final List<Path> outputs = new ArrayList<>();
        for (int p = 1; p < count; p++)
        {
            final Path out = dir.resolve("partition-" + p + ".txt");
            outputs.add(out);
            children.add(launch(dir.resolve("partition-" + p + ".log").toFile(), Integer.toString(p),
                Integer.toString(count), Long.toString(job), KEY, shm.toString(), Double.toString(crc), out.toString()));
        }
        final String mine;
        final TransportContext context = new TransportContext().jobId(job).jobKey(HexFormat.of().parseHex(KEY))
            .partition(0, count).maxPayloadBytes(1 << 16).heartbeat(200, 5_000).connectTimeoutMs(30_000);
        try (Transport t = ShmTransport.open(context, shm))
        {
            mine = PartitionWorkloadMain.runPartition(config, t);
        }
        for (int i = 0; i < children.size(); i++)
        {
            final Process c = children.get(i);
            assertTrue(c.waitFor(60, TimeUnit.SECONDS), "partition " + (i + 1) + " ended");
            assertEquals(0, c.exitValue(), "exit status of partition " + (i + 1) + ": "
                + Files.readString(dir.resolve("partition-" + (i + 1) + ".log")));
        }
        final List<String> parts = new ArrayList<>();
        parts.add(mine);
        for (final Path p : outputs)
        {
            parts.add(Files.readString(p));
        }
        final PartitionEquivalenceTest.Outcome many = PartitionWorkloadMain.merge(one.nodeDigest().length, parts);
        PartitionEquivalenceTest.assertSame(one, many, count);
    }

    private static Process launch(final File log, final String... args) throws Exception
    {
        final List<String> cmd = org.qsnet.fabric.distributed.ChildJvm.command(false, PartitionWorkloadMain.class.getName(), List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
    }
}
