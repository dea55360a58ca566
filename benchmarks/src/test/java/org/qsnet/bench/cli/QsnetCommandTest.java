package org.qsnet.bench.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.qsnet.fabric.QsnetException;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class QsnetCommandTest
{
    @TempDir
    Path dir;

    private static String[] run(final String... args)
    {
        return Captured.run(QsnetCommand::execute, args);
    }

    @Test
    void shouldWriteByteIdenticalJsonForTheSameSeedAndAPlot() throws Exception
    {
        final Path a = dir.resolve("a.json");
        final Path b = dir.resolve("b.json");
        final Path png = dir.resolve("fig.png");
        final Path csv = dir.resolve("a.csv");
        final String[] r1 = run("traffic", "-n", "16", "-p", "uniform,hotspot", "--loads", "0.3,0.9", "--json", a.toString(),
            "--csv", csv.toString(), "--plot", png.toString());
        final String[] r2 = run("traffic", "-n", "16", "-p", "uniform,hotspot", "--loads", "0.3,0.9", "--json", b.toString());
        assertEquals("0", r1[0], r1[2]);
        assertEquals("0", r2[0], r2[2]);
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        assertTrue(r1[1].contains("uniform") && r1[1].contains("accepted"), r1[1]);
        assertTrue(r1[2].contains("[4/4] hotspot offered 0.90"), "progress on stderr: " + r1[2]);
        final byte[] magic = Files.readAllBytes(png);
        assertEquals((byte)0x89, magic[0]);
        assertEquals('P', magic[1]);
        assertEquals(5, Files.readAllLines(csv).stream().filter(l -> !l.startsWith("#")).count());
        assertTrue(Files.readString(a).contains("\"seed\" : 1"));
    }

    @Test
    void shouldPrintCongestionMatrixAndTopology() throws Exception
    {
        final Path png = dir.resolve("cm.png");
        final String[] r = run("congestion", "-n", "16", "-p", "hotspot", "--load", "0.5", "--plot", png.toString());
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("L2 sw") && r[1].contains("L1 down"), r[1]);
        assertTrue(Files.size(png) > 1000);
        final String[] t = run("topology", "--dim", "2", "--route", "0", "13");
        assertEquals("0", t[0], t[2]);
        assertTrue(t[1].contains("<0,1>  down: node 0 node 1 node 2 node 3  up: <0,2> <1,2> <2,2> <3,2>"), t[1]);
        assertTrue(t[1].contains("route 0 -> 13: up* down3 down1"), t[1]);
    }

    @Test
    void shouldRejectBadInputWithExitCodeTwoAndAClearMessage()
    {
        final String[] load = run("traffic", "-n", "16", "--loads", "1.5");
        assertEquals("2", load[0]);
        assertTrue(load[2].contains("--loads value 1.5 must be in (0, 1]"), load[2]);
        final String[] dim = run("topology", "--dim", "9");
        assertEquals("2", dim[0]);
        assertTrue(dim[2].contains("dim 9 must be in 1..6"), dim[2]);
        final String[] set = run("traffic", "-n", "16", "--set", "warp=9");
        assertEquals("2", set[0]);
        assertTrue(set[2].contains("--set warp is not a fabric or profile parameter"), set[2]);
        final String[] vcs = run("traffic", "-n", "16", "--set", "virtualChannels=0");
        assertEquals("2", vcs[0]);
        assertTrue(vcs[2].contains("virtualChannels 0 must be in 1..8"), vcs[2]);
        // every experiment refuses a partition count below 1 by its option's name (traffic and
        // congestion used to run a count of 0 or less as 1)
        for (final String[] args : new String[][] {{"traffic", "-n", "16", "--loads", "0.5", "--partitions", "0"},
            {"congestion", "-n", "16", "--partitions", "-2"}, {"ping", "--partitions", "0"}})
        {
            final String[] r = run(args);
            assertEquals("2", r[0], String.join(" ", args) + ": " + r[1]);
            assertTrue(r[2].contains("--partitions " + args[args.length - 1] + " must be at least 1"), r[2]);
        }
    }

    @Test
    void shouldPrintTheCalibrationTableForAProfile()
    {
        final String[] r = run("calibrate", "--profile", "alpha-es40");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("alpha-es40") && r[1].contains("bidirectional main->main, per direction"), r[1]);
        assertTrue(!r[1].contains(" NO"), r[1]);
        final String[] bad = run("calibrate", "--profile", "cray-t3e");
        assertEquals("2", bad[0]);
        assertTrue(bad[2].contains("profile 'cray-t3e' is not one of: pentium3-he, alpha-es40, xeon-gc"), bad[2]);
    }

    @Test
    void shouldRunAnSpmdJobUnderPrunAndFailOnABadProgram()
    {
        final PrintStream out = System.out;
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
        try
        {
            final PrunCommand ok = new PrunCommand();
            ok.procs = 2;
            ok.mapping = "block";
            ok.profile = "pentium3-he";
            ok.tag = true;
            ok.mainClass = "org.qsnet.bench.examples.ElanPing";
            ok.args = java.util.List.of("0", "10");
            assertEquals(0, ok.call());
        }
        catch (final Exception e)
        {
            throw new AssertionError(e);
        }
        finally
        {
            System.setOut(out);
        }
        assertTrue(o.toString(StandardCharsets.UTF_8).startsWith("0: 0 bytes: "), o.toString(StandardCharsets.UTF_8));
        final PrunCommand three = new PrunCommand();
        three.procs = 3;
        three.mapping = "block";
        three.profile = "pentium3-he";
        three.mainClass = "org.qsnet.bench.examples.ElanPing";
        try
        {
            assertEquals(1, three.call(), "a rank that throws fails the job");
        }
        catch (final Exception e)
        {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldGiveHelpForEveryCommandWithoutWarnings()
    {
        final String[] top = run("--help");
        assertEquals("0", top[0]);
        assertEquals("", top[2], "no warning on stderr");
        assertFalse(top[1].contains("Could not format"), top[1]);
        for (final String c : new String[] {"traffic", "congestion", "topology", "perf", "ping", "calibrate", "osu", "hotspot",
            "elanlib"})
        {
            final String[] r = run(c, "--help");
            assertEquals("0", r[0], c);
            assertTrue(r[1].contains("Usage: qsnet " + c), r[1]);
            assertEquals("", r[2], c + ": no warning on stderr");
        }
        assertTrue(run("calibrate", "--help")[1].contains("within 5 %"), "an escaped % prints as %");
        final String[] jmh = run("jmh", "--help");
        assertEquals("0", jmh[0], jmh[2]);
        assertTrue(jmh[1].contains("Usage: qsnet jmh") && jmh[1].contains("-wi <int>"), jmh[1]);
    }

    @Test
    void shouldRefuseThePapersKnobsOutsideTheirRange()
    {
        assertRefused("--nodes value 17 must be in 2..16", "hotspot", "--nodes", "17");
        assertRefused("--op 'both' must be read or write", "hotspot", "--op", "both");
        assertRefused("--thin-level level 1 must be in 2..3", "traffic", "-n", "64", "--loads", "0.5", "--thin-level", "1:0.5");
        assertRefused("--thin-level fraction 0.0 must be in (0, 1]", "congestion", "-n", "64", "--thin-level", "3:0");
        assertRefused("--thin-level x must be LEVEL:FRACTION", "congestion", "-n", "64", "--thin-level", "x");
        assertRefused("--tests value nope must be", "osu", "--tests", "nope");
        assertRefused("--reuse value 101 must be in 0..100", "osu", "--reuse", "101");
        assertRefused("--io-nodes-in 'elsewhere' must be compute or io", "traffic", "-n", "64", "-p", "combined", "--loads", "0.3",
            "--io-nodes-in", "elsewhere");
    }

    @Test
    void shouldPrintPerNodeAndPerLinkResultsAsOneJsonDocument() throws Exception
    {
        final String[] t = run("traffic", "-n", "16", "-p", "hotspot,uniform", "--loads", "0.5", "--per-node", "--format", "json");
        assertEquals("0", t[0], t[2]);
        final JsonNode doc = new ObjectMapper().readTree(t[1]);
        final JsonNode rows = doc.get("tables").get(1).get("rows");
        assertEquals(15 + 16, rows.size(), "one row per sender: 15 for the hot spot, 16 for uniform");
        final String[] h = run("hotspot", "--nodes", "4", "--size", "4096", "--reps", "1", "--per-node", "--format", "json");
        assertEquals("0", h[0], h[2]);
        final JsonNode hot = new ObjectMapper().readTree(h[1]).get("tables");
        assertEquals(1 + 2, hot.size(), "the summary and one per-node table per op");
        assertEquals(3, hot.get(1).get("rows").size(), "three senders");
        final String[] c = run("congestion", "-n", "16", "-p", "uniform", "--load", "0.5", "--per-link", "--format", "csv");
        assertEquals("0", c[0], c[2]);
        assertEquals(4 * (4 + 4 + 4) + 1, c[1].lines().filter(l -> !l.startsWith("#")).count(),
            "header and one line per link: 4 switches per level, 4 down links each, 4 up below the top");
    }

    /** The one line a refused command prints: exit 2, the message, no stack trace, nothing run. */
    private static void assertRefused(final String expected, final String... args)
    {
        final String[] r = run(args);
        assertEquals("2", r[0], String.join(" ", args) + ": " + r[2]);
        assertEquals(1, r[2].lines().count(), "one line: " + r[2]);
        assertTrue(r[2].contains(expected), "expected '" + expected + "' in: " + r[2]);
        assertEquals("", r[1], "nothing ran");
    }

    @Test
    void shouldCheckOutputFilesAndFormatBeforeTheRun() throws Exception
    {
        final Path file = Files.writeString(dir.resolve("file.txt"), "x");
        final String bad = file.resolve("out.csv").toString();
        assertRefused("--csv " + bad + " cannot be written: " + file + " is not a directory", "traffic", "-n", "16", "--loads",
            "0.5", "--csv", bad);
        assertRefused("--json " + dir + " cannot be written: it is a directory", "congestion", "-n", "16", "--json", dir.toString());
        assertRefused("--plot " + bad + " cannot be written", "ping", "--sizes", "0", "--plot", bad);
        assertRefused("--json " + bad + " cannot be written", "hotspot", "--json", bad);
        assertRefused("--plot " + bad + " cannot be written", "calibrate", "--plot", bad);
        assertRefused("--csv " + bad + " cannot be written", "perf", "--nodes", "16", "--csv", bad);
        assertRefused("--format 'xml' is not one of: text, csv, json", "traffic", "-n", "16", "--format", "xml");
        assertRefused("--format 'xml' is not one of: text, csv, json", "osu", "--format", "xml");
        // a new file in new directories is fine
        final Path deep = dir.resolve("a/b/c.json");
        assertEquals("0", run("traffic", "-n", "16", "--loads", "0.2", "--measure-us", "10", "--json", deep.toString())[0]);
        assertTrue(Files.size(deep) > 100);
    }

    @Test
    void shouldRefuseBadValuesUpFrontNamingTheOption()
    {
        assertRefused("--loads lists no load", "traffic", "-n", "16", "--loads", ",");
        assertRefused("--size 2000000000 must be in 1..16777216", "traffic", "-n", "16", "--size", "2000000000");
        assertRefused("--measure-us 1.0E12 must be in 1..1000000", "traffic", "-n", "16", "--measure-us", "1e12");
        assertRefused("--measure-us 1.0E12 must be in 1..1000000", "congestion", "-n", "16", "--measure-us", "1e12");
        assertRefused("--warmup-us -1.0 must be in 0..1000000", "traffic", "-n", "16", "--warmup-us", "-1");
        assertRefused("--nodes 5000 must be in 2..4096", "traffic", "-n", "5000");
        assertRefused("--repeat 0 must be in 1..100", "perf", "--repeat", "0");
        assertRefused("--warmup-ms -1 must be in 0..600000", "perf", "--warmup-ms", "-1");
        assertRefused("--set pciMHz is a NIC parameter of the platform profile: it has no effect with --injection link",
            "traffic", "-n", "16", "--set", "pciMHz=33");
        assertRefused("--profile xeon-gc has no effect with --injection link", "congestion", "-n", "16", "--profile", "xeon-gc");
        assertRefused("--sizes value 33554432 must be in 0..16777216", "ping", "--sizes", "0,33554432");
        final PrunCommand prun = new PrunCommand();
        prun.procs = 2;
        prun.nodes = 0;
        prun.mapping = "block";
        prun.profile = "pentium3-he";
        prun.mainClass = "org.qsnet.bench.examples.ElanPing";
        assertEquals("-N 0 must be at least 1 (leave -N out for one process per node)",
            assertThrows(QsnetException.class, prun::call).getMessage());
    }

    @Test
    void shouldNameTheProfileAndInjectionThatRan() throws Exception
    {
        final ObjectMapper json = new ObjectMapper();
        final String[] nic = run("traffic", "-n", "16", "--loads", "0.3", "--injection", "nic", "--profile", "pentium3-he",
            "--format", "json");
        assertEquals("0", nic[0], nic[2]);
        final JsonNode nicFacts = json.readTree(nic[1]).get("facts");
        assertTrue(nicFacts.get("profile").asText().startsWith("pentium3-he: "), nicFacts.toString());
        assertTrue(nicFacts.get("injection").asText().startsWith("nic: "), nicFacts.toString());
        final String[] link = run("traffic", "-n", "16", "--loads", "0.3", "--format", "json");
        final JsonNode linkFacts = json.readTree(link[1]).get("facts");
        assertTrue(linkFacts.get("profile").asText().startsWith("none"), linkFacts.toString());
        assertTrue(linkFacts.get("injection").asText().startsWith("link: "), linkFacts.toString());
        final String[] cm = run("congestion", "-n", "16", "--injection", "nic", "--profile", "xeon-gc");
        assertEquals("0", cm[0], cm[2]);
        assertTrue(cm[1].contains("# profile: xeon-gc: ") && cm[1].contains("# injection: nic: "), cm[1]);
        final String[] cmLink = run("congestion", "-n", "16", "--format", "json");
        assertTrue(json.readTree(cmLink[1]).get("facts").get("injection").asText().startsWith("link: "), cmLink[1]);
    }

    /** Reads exactly one JSON document: trailing content (a second document) fails. */
    private static JsonNode oneDocument(final String text) throws Exception
    {
        final ObjectMapper json = new ObjectMapper();
        try (JsonParser p = json.getFactory().createParser(text))
        {
            final JsonNode root = json.readTree(p);
            assertNull(p.nextToken(), "one JSON document, nothing after it");
            return root;
        }
    }

    @Test
    void shouldPrintOneJsonDocumentForSeveralTables() throws Exception
    {
        final String[] r = run("osu", "--format", "json");
        assertEquals("0", r[0], r[2]);
        final JsonNode tables = oneDocument(r[1]).get("tables");
        assertEquals(5, tables.size(), r[1]);
        assertTrue(tables.get(0).get("title").asText().startsWith("bandwidth with a window"), r[1]);
        assertTrue(tables.get(4).get("rows").get(0).get("one_way").asDouble() > 0, r[1]);
    }

    @Test
    void shouldShowTheProgressOfALongPoint()
    {
        final long quiet = Progress.quietMs;
        Progress.quietMs = 0;
        try
        {
            final String[] r = run("traffic", "-n", "16", "--loads", "0.5", "--warmup-us", "0", "--measure-us", "200");
            assertEquals("0", r[0], r[2]);
            assertTrue(r[2].contains("[1/1] uniform offered 0.50: 50% of 200 us simulated"), r[2]);
            final String[] c = run("congestion", "-n", "16", "--measure-us", "180");
            assertTrue(c[2].contains("hotspot offered 0.50: 5% of 200 us simulated"), c[2]);
        }
        finally
        {
            Progress.quietMs = quiet;
        }
        final String[] quietRun = run("traffic", "-n", "16", "--loads", "0.5");
        assertFalse(quietRun[2].contains("% of"), "a short point prints no steps: " + quietRun[2]);
    }

    private static java.awt.image.BufferedImage png(final Path file) throws Exception
    {
        final java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(file.toFile());
        assertNotNull(img, file + " is a PNG");
        return img;
    }

    @Test
    void shouldDrawAFigureForEveryCommandThatAcceptsPlot() throws Exception
    {
        final String[][] commands = {
            {"hotspot", "--size", "4096", "--reps", "1"},
            {"perf", "--nodes", "16", "--measure-us", "20", "--warmup-runs", "0", "--repeat", "1"},
            {"calibrate", "--profile", "xeon-gc"},
            {"ping", "--sizes", "0,64,4096,65536"},
            {"traffic", "-n", "16", "--loads", "0.5"},
            {"congestion", "-n", "64"},
            {"topology", "--dim", "3"}};
        for (final String[] c : commands)
        {
            final Path file = dir.resolve(c[0] + ".png");
            final String[] args = java.util.Arrays.copyOf(c, c.length + 2);
            args[c.length] = "--plot";
            args[c.length + 1] = file.toString();
            final String[] r = run(args);
            assertEquals("0", r[0], c[0] + ": " + r[2]);
            assertTrue(png(file).getWidth() >= 800, c[0]);
        }
    }

    @Test
    void shouldWarmUpUntilTheJitIsQuietInOneJvmAndInPartitions()
    {
        for (final String[] mode : new String[][] {{}, {"--partitions", "1,2"}})
        {
            final java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("perf", "--nodes", "16",
                "--measure-us", "20", "--repeat", "1", "--warmup-runs", "1", "--warmup-ms", "0", "--format", "csv"));
            args.addAll(java.util.List.of(mode));
            final String[] r = run(args.toArray(new String[0]));
            assertEquals("0", r[0], r[2]);
            // one report per case: the whole run's, or each partition count's
            final long reports = r[2].lines().filter(l -> l.matches("perf: warm after \\d+ unmeasured runs, [0-9.]+ s "
                + "\\(the JIT quiet\\)")).count();
            assertEquals(mode.length == 0 ? 1 : 2, reports, r[2]);
            assertTrue(r[1].lines().anyMatch(l -> l.startsWith("16,")), r[1]);
        }
    }

    @Test
    void shouldMeasurePartitionedRunsInBothTimingsWithTheSameResultAndTheHostTimeSplit()
    {
        for (final String timing : new String[] {"exact", "analytic"})
        {
            final String[] r = run("perf", "--nodes", "64", "--partitions", "1,2", "--measure-us", "20", "--warmup-runs",
                "0", "--repeat", "1", "--timing", timing, "--format", "csv");
            assertEquals("0", r[0], r[2]);
            final java.util.List<String> rows = r[1].lines().filter(l -> l.startsWith("64,")).toList();
            assertEquals(2, rows.size(), r[1]);
            // columns: nodes, partitions, sim_us, host_ms, host_us_per_sim_us, windows, windows_per_s, dispatch_ms,
            // exchange_ms, same_result
            final String[] two = rows.get(1).split(",");
            assertEquals("true", two[9], "the same result in 2 partitions, " + timing + ": " + rows);
            final long windows = Long.parseLong(two[5]);
            // the exact model's windows are a wire delay (20 ns) long, analytic timing's a path between
            // the partitions (6 links and 5 Elites at 64 nodes: 295 ns)
            assertTrue("exact".equals(timing) ? windows > 1000 : windows > 10 && windows < 120, timing + ": " + windows);
            assertTrue(Double.parseDouble(two[7]) > 0 && Double.parseDouble(two[8]) > 0, rows.get(1));
        }
        final String[] bad = run("perf", "--nodes", "16", "--timing", "fast");
        assertTrue(bad[2].contains("--timing 'fast' must be exact or analytic"), bad[2]);
    }

    @Test
    void shouldPrintAFiniteBidirectionalPingLatency()
    {
        final String[] r = run("ping", "--sizes", "0,4096", "--bidirectional", "--format", "csv");
        assertEquals("0", r[0], r[2]);
        assertFalse(r[1].contains("NaN"), r[1]);
        final String row = r[1].lines().filter(l -> l.startsWith("4096,")).findFirst().orElseThrow();
        assertTrue(Double.parseDouble(row.split(",")[1]) > 10, row);
    }
}
