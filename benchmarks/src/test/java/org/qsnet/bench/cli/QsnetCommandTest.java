package org.qsnet.bench.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class QsnetCommandTest
{
    @TempDir
    Path dir;

    private static String[] run(final String... args)
    {
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        final ByteArrayOutputStream e = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            final int code = QsnetCommand.execute(args);
            return new String[] {Integer.toString(code), o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8)};
        }
        finally
        {
            System.setOut(out);
            System.setErr(err);
        }
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
    void shouldGiveHelpForEveryCommand()
    {
        for (final String c : new String[] {"traffic", "congestion", "topology", "perf", "ping", "calibrate"})
        {
            final String[] r = run(c, "--help");
            assertEquals("0", r[0], c);
            assertTrue(r[1].contains("Usage: qsnet " + c), r[1]);
        }
    }
}
