package org.qsnet.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code qsnet <experiment> --partitions N} prints, byte for byte, the JSON recorded in
 * {@code golden/} from the run in one partition (the files {@code .ci/golden-check} compares).
 */
class PartitionedExperimentTest
{
    private static String golden(final String name) throws IOException
    {
        try (InputStream in = PartitionedExperimentTest.class.getResourceAsStream("/golden/" + name + ".json"))
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest(name = "{0} in {1} partitions")
    @CsvSource({"ping,2", "ping,4", "hotspot,2", "hotspot,4", "elanlib,2", "elanlib,4"})
    @Timeout(300)
    void shouldPrintTheRecordedJsonWhenPartitioned(final String experiment, final String partitions) throws IOException
    {
        final String[] r = Captured.run(QsnetCommand::execute, experiment, "--format", "json", "--partitions", partitions);
        assertEquals("0", r[0], r[2]);
        assertEquals(golden(experiment), r[1]);
    }

    @ParameterizedTest(name = "uniform traffic, 64 nodes, in {0} partitions")
    @CsvSource({"2", "4"})
    @Timeout(300)
    void shouldPrintTheRecordedTrafficJsonWhenPartitioned(final String partitions) throws IOException
    {
        final String[] r = Captured.run(QsnetCommand::execute, "traffic", "-n", "64", "--loads", "0.5,1.0", "--format", "json",
            "--partitions", partitions);
        assertEquals("0", r[0], r[2]);
        assertEquals(golden("traffic-64"), r[1]);
    }

    @ParameterizedTest(name = "hot-spot congestion matrix, 64 nodes, in {0} partitions")
    @CsvSource({"2", "4"})
    @Timeout(300)
    void shouldPrintTheRecordedCongestionMatrixWhenPartitioned(final String partitions) throws IOException
    {
        // the matrix reads every link's waits: the node links' come from their owners
        final String[] r = Captured.run(QsnetCommand::execute, "congestion", "-n", "64", "-p", "hotspot", "--load", "0.5",
            "--format", "json", "--partitions", partitions);
        assertEquals("0", r[0], r[2]);
        assertEquals(golden("congestion-64-hotspot"), r[1]);
    }
}
