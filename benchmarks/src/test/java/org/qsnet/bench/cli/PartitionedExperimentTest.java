package org.qsnet.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code qsnet <experiment> --partitions N} (threads) and {@code --jvms N} (JVMs) print, byte for
 * byte, the JSON recorded in {@code golden/} from the run in one partition (the files
 * {@code .ci/golden-check} compares), or what the same command prints in one JVM.
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

    @ParameterizedTest(name = "{0} in 2 JVMs")
    @CsvSource({"ping", "hotspot", "elanlib"})
    @Timeout(300)
    void shouldPrintTheRecordedJsonInTwoJvms(final String experiment) throws IOException
    {
        // this JVM is partition 0; it starts the other, and every run's ranks ship their records to it
        final String[] r = Captured.run(QsnetCommand::execute, experiment, "--format", "json", "--jvms", "2");
        assertEquals("0", r[0], r[2]);
        assertEquals(golden(experiment), r[1]);
    }

    @org.junit.jupiter.api.Test
    @Timeout(300)
    void shouldPrintTheSameHotspotInFourJvmsAndRefuseJvmsWithPartitions()
    {
        // 16 ranks on 16 nodes, 4 in each JVM: every sender's time comes from its own JVM (one run of
        // the golden's 16-node reads, shortened to one DMA of 4 KB per sender: 4 JVMs contend on 2 cores)
        final String[] args = {"hotspot", "--nodes", "16", "--op", "read", "--reps", "1", "--size", "4096", "--per-node",
            "--format", "json"};
        final String[] one = Captured.run(QsnetCommand::execute, args);
        assertEquals("0", one[0], one[2]);
        final String[] four = java.util.Arrays.copyOf(args, args.length + 2);
        four[args.length] = "--jvms";
        four[args.length + 1] = "4";
        final String[] many = Captured.run(QsnetCommand::execute, four);
        assertEquals("0", many[0], many[2]);
        assertEquals(one[1], many[1], "JSON in 4 JVMs");
        final String[] both = Captured.run(QsnetCommand::execute, "ping", "--jvms", "2", "--partitions", "2");
        assertEquals("2", both[0], both[2]);
        assertTrue(both[2].contains("--jvms") && both[2].contains("exclude each other"), both[2]);
    }

    @ParameterizedTest(name = "{0} in 2 JVMs, as in one")
    @CsvSource(delimiter = '|', value = {
        "osu --tests completion,hotspot,bidirectional --sizes 64",
        "calibrate --profile xeon-gc"})
    @Timeout(300)
    void shouldPrintTheSameReducedExperimentInTwoJvms(final String command)
    {
        // osu and calibrate in full take minutes in several JVMs (.ci/golden-check --jvms 2 compares
        // them): a few of their runs here, osu's hot spot (up to 16 ranks, in both JVMs) among them
        final String[] args = (command + " --format json").split(" ");
        final String[] one = Captured.run(QsnetCommand::execute, args);
        final String[] two = java.util.Arrays.copyOf(args, args.length + 2);
        two[args.length] = "--jvms";
        two[args.length + 1] = "2";
        final String[] many = Captured.run(QsnetCommand::execute, two);
        assertEquals(one[0], many[0], many[2]);
        assertTrue(one[1].contains("\"rows\""), one[1]);
        assertEquals(one[1], many[1]);
    }

    @ParameterizedTest(name = "{0}, analytic timing, in 2 JVMs and 4 partitions, as in one")
    @CsvSource(delimiter = '|', value = {
        "traffic -n 64 --loads 0.5,1.0 --set crcErrorRate=0.01 --warmup-us 10 --measure-us 40",
        "traffic -n 16 --injection nic -p hotspot,uniform --read-ratio 0.3 --set crcErrorRate=0.01 --warmup-us 10 --measure-us 40 --per-node",
        "ping --sizes 0,4096", "hotspot --nodes 16 --op read --reps 1 --size 4096 --per-node"})
    @Timeout(300)
    void shouldPrintTheSameAnalyticExperimentInTwoJvmsAndFourPartitions(final String command)
    {
        // analytic timing splits the work instead of replicating the network: the same JSON, labelled
        final String[] args = (command + " --timing analytic --format json").split(" ");
        final String[] one = Captured.run(QsnetCommand::execute, args);
        assertEquals("0", one[0], one[2]);
        assertTrue(one[1].contains("ANALYTIC (--timing analytic)"), one[1]);
        for (final String[] where : new String[][] {{"--jvms", "2"}, {"--partitions", "4"}})
        {
            final String[] more = java.util.Arrays.copyOf(args, args.length + 2);
            more[args.length] = where[0];
            more[args.length + 1] = where[1];
            final String[] many = Captured.run(QsnetCommand::execute, more);
            assertEquals("0", many[0], many[2]);
            assertEquals(one[1], many[1], "JSON with " + String.join(" ", where));
        }
    }

    @org.junit.jupiter.api.Test
    @Timeout(300)
    void shouldMeasureWholeRunsInTwoJvmsAndRefuseJvmsWithPartitions()
    {
        // partition 0 prints one row per size: the other JVM runs every run too and prints nothing
        final String[] r = Captured.run(QsnetCommand::execute, "perf", "--nodes", "16,64", "--jvms", "2", "--measure-us",
            "20", "--repeat", "1", "--warmup-runs", "0", "--timing", "analytic", "--format", "csv");
        assertEquals("0", r[0], r[2]);
        final java.util.List<String> rows = r[1].lines().filter(l -> l.startsWith("16,") || l.startsWith("64,")).toList();
        assertEquals(2, rows.size(), r[1]);
        for (final String row : rows)
        {
            // nodes, partitions, sim_us, host_ms, host_us_per_sim_us, windows, windows_per_s, dispatch_ms, exchange_ms
            final String[] c = row.split(",");
            assertEquals("2", c[1], row);
            assertTrue(Long.parseLong(c[5]) > 10 && Double.parseDouble(c[7]) > 0, row);
        }
        // warming up until every JVM's JIT is quiet: the JVMs vote after each unmeasured run and go on alike
        final String[] warm = Captured.run(QsnetCommand::execute, "perf", "--nodes", "16", "--jvms", "2", "--measure-us",
            "20", "--repeat", "1", "--warmup-runs", "1", "--warmup-ms", "0", "--timing", "analytic", "--format", "csv");
        assertEquals("0", warm[0], warm[2]);
        assertTrue(warm[2].matches("(?s).*perf: every JVM done warming up after \\d+ unmeasured runs.*"), warm[2]);
        assertEquals(1, warm[1].lines().filter(l -> l.startsWith("16,2,")).count(), warm[1]);
        final String[] both = Captured.run(QsnetCommand::execute, "perf", "--jvms", "2", "--partitions", "1,2");
        assertEquals("2", both[0], both[2]);
        assertTrue(both[2].contains("--jvms") && both[2].contains("exclude each other"), both[2]);
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

    @ParameterizedTest(name = "uniform traffic, 64 nodes, in {0} JVMs")
    @CsvSource({"2", "4"})
    @Timeout(300)
    void shouldPrintTheRecordedTrafficJsonInSeveralJvms(final String jvms) throws IOException
    {
        // this JVM is partition 0; it starts the others, which meet it through shared memory
        final String[] r = Captured.run(QsnetCommand::execute, "traffic", "-n", "64", "--loads", "0.5,1.0", "--format", "json",
            "--jvms", jvms);
        assertEquals("0", r[0], r[2]);
        assertEquals(golden("traffic-64"), r[1]);
    }

    @org.junit.jupiter.api.Test
    @Timeout(300)
    void shouldPrintTheRecordedCongestionMatrixInTwoJvms() throws IOException
    {
        final String[] r = Captured.run(QsnetCommand::execute, "congestion", "-n", "64", "-p", "hotspot", "--load", "0.5",
            "--format", "json", "--jvms", "2");
        assertEquals("0", r[0], r[2]);
        assertEquals(golden("congestion-64-hotspot"), r[1]);
        // through the NIC model the nodes' links are waited for: those waits are counted by the
        // nodes' owners and cross to partition 0
        final String[] args = {"congestion", "-n", "16", "--injection", "nic", "-p", "hotspot", "--load", "0.5",
            "--measure-us", "50", "--format", "json"};
        final String[] one = Captured.run(QsnetCommand::execute, args);
        final String[] two = java.util.Arrays.copyOf(args, args.length + 2);
        two[args.length] = "--jvms";
        two[args.length + 1] = "2";
        final String[] many = Captured.run(QsnetCommand::execute, two);
        assertEquals("0", many[0], many[2]);
        assertEquals(one[1], many[1]);
    }

    @org.junit.jupiter.api.Test
    @Timeout(300)
    void shouldPrintTheSameNicInjectedTrafficJsonInTwoJvmsAndRefuseJvmsWithPartitions()
    {
        final String[] args = {"traffic", "-n", "16", "--injection", "nic", "--profile", "pentium3-he", "-p", "hotspot",
            "--read-ratio", "0.3", "--set", "crcErrorRate=0.01", "--loads", "0.9", "--warmup-us", "10", "--measure-us",
            "40", "--per-node", "--format", "json"};
        final String[] one = Captured.run(QsnetCommand::execute, args);
        assertEquals("0", one[0], one[2]);
        final String[] two = java.util.Arrays.copyOf(args, args.length + 2);
        two[args.length] = "--jvms";
        two[args.length + 1] = "2";
        final String[] many = Captured.run(QsnetCommand::execute, two);
        assertEquals("0", many[0], many[2]);
        assertEquals(one[1], many[1], "JSON in 2 JVMs");
        final String[] both = Captured.run(QsnetCommand::execute, "traffic", "-n", "16", "--jvms", "2", "--partitions", "2");
        assertEquals("2", both[0], both[2]);
        assertTrue(both[2].contains("--jvms") && both[2].contains("exclude each other"), both[2]);
    }

    @ParameterizedTest(name = "traffic through the NIC model of {0}, 16 nodes, 1 partition against 2 and 4")
    @CsvSource({"alpha-es40", "pentium3-he"})
    @Timeout(300)
    void shouldPrintTheSameNicInjectedTrafficJsonInOneTwoAndFourPartitions(final String profile)
    {
        // writes and reads of a hot spot and uniform traffic, with CRC errors, per node: every figure
        // counted where the data lands, whichever partition posted the DMA
        final String[] args = {"traffic", "-n", "16", "--injection", "nic", "--profile", profile, "-p", "hotspot,uniform",
            "--read-ratio", "0.3", "--set", "crcErrorRate=0.01", "--loads", "0.3,0.9", "--warmup-us", "10", "--measure-us",
            "40", "--per-node", "--format", "json"};
        final String[] one = Captured.run(QsnetCommand::execute, args);
        assertEquals("0", one[0], one[2]);
        final java.util.regex.Matcher crc = java.util.regex.Pattern.compile("\"crc_retries\" : ([0-9]+)").matcher(one[1]);
        long retries = 0;
        while (crc.find())
        {
            retries += Long.parseLong(crc.group(1));
        }
        assertTrue(retries > 0, "CRC errors happened:\n" + one[1]);
        for (final String partitions : new String[] {"2", "4"})
        {
            final String[] withPartitions = java.util.Arrays.copyOf(args, args.length + 2);
            withPartitions[args.length] = "--partitions";
            withPartitions[args.length + 1] = partitions;
            final String[] many = Captured.run(QsnetCommand::execute, withPartitions);
            assertEquals("0", many[0], many[2]);
            assertEquals(one[1], many[1], "JSON in " + partitions + " partitions");
        }
    }

    @ParameterizedTest(name = "hot-spot congestion matrix through the NIC model, 16 nodes, in {0} partitions")
    @CsvSource({"2", "4"})
    @Timeout(300)
    void shouldPrintTheSameNicInjectedCongestionMatrixWhenPartitioned(final String partitions)
    {
        final String[] args = {"congestion", "-n", "16", "--injection", "nic", "-p", "hotspot", "--load", "0.5",
            "--measure-us", "50", "--format", "json"};
        final String[] one = Captured.run(QsnetCommand::execute, args);
        assertEquals("0", one[0], one[2]);
        final String[] withPartitions = java.util.Arrays.copyOf(args, args.length + 2);
        withPartitions[args.length] = "--partitions";
        withPartitions[args.length + 1] = partitions;
        final String[] many = Captured.run(QsnetCommand::execute, withPartitions);
        assertEquals("0", many[0], many[2]);
        assertEquals(one[1], many[1]);
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
