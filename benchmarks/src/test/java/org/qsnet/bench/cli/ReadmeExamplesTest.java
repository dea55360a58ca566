package org.qsnet.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's examples, taken from the README itself, compiled and run as a reader would: the
 * kernel's process example, the fabric's packet with its exact times (the figures in its
 * comment), and the MPI program with the two {@code ./mpirun} transcripts printed under it (run
 * through {@code prun}, which {@code ./mpirun} drives, with the options it translates to). An
 * edit that breaks an example, or a model change that moves a figure the README shows, fails here.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReadmeExamplesTest
{
    @TempDir
    Path dir;

    private static String readme() throws IOException
    {
        Path d = Path.of("").toAbsolutePath();
        while (d != null && !(Files.exists(d.resolve("README.md")) && Files.exists(d.resolve("mpirun"))))
        {
            d = d.getParent();
        }
        Assumptions.assumeTrue(d != null, "the README of the repository");
        return Files.readString(d.resolve("README.md"), StandardCharsets.UTF_8);
    }

    /** The fenced block (```java, or ``` with no language) that contains {@code marker}. */
    private static String block(final String readme, final String fence, final String marker)
    {
        String info = null;
        StringBuilder text = null;
        for (final String line : readme.split("\n"))
        {
            if (line.startsWith("```"))
            {
                if (text == null)
                {
                    info = line.substring(3).trim();
                    text = new StringBuilder();
                    continue;
                }
                if (info.equals(fence) && text.indexOf(marker) >= 0)
                {
                    return text.toString();
                }
                text = null;
                continue;
            }
            if (text != null)
            {
                text.append(line).append('\n');
            }
        }
        throw new AssertionError("no ```" + fence + " block of the README contains '" + marker + "'");
    }

    /** Compiles {@code source} (one public class {@code name}) into {@link #dir}. */
    private void compile(final String name, final String source) throws IOException
    {
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Assumptions.assumeTrue(javac != null, "a JDK's compiler");
        final Path file = dir.resolve(name + ".java");
        Files.writeString(file, source, StandardCharsets.UTF_8);
        final var err = new java.io.ByteArrayOutputStream();
        final int status = javac.run(null, null, err, "-d", dir.toString(), "-cp", System.getProperty("java.class.path"),
            file.toString());
        assertEquals(0, status, "the README's example compiles:\n" + source + "\n" + err.toString(StandardCharsets.UTF_8));
    }

    /** A fragment of statements as the body of {@code static Object run()}, its imports hoisted. */
    private void compileFragment(final String name, final String fragment, final String imports, final String result)
        throws IOException
    {
        final StringBuilder top = new StringBuilder(imports);
        final StringBuilder body = new StringBuilder();
        for (final String line : fragment.split("\n"))
        {
            (line.startsWith("import ") ? top : body).append(line).append('\n');
        }
        compile(name, top + "public class " + name + " {\n public static Object run() throws Exception {\n" + body
            + "return " + result + ";\n }\n}\n");
    }

    private Object call(final String name) throws Exception
    {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader()))
        {
            return loader.loadClass(name).getMethod("run").invoke(null);
        }
    }

    @Test
    void shouldRunTheKernelExample() throws Exception
    {
        final String code = block(readme(), "java", "kernel.spawn(Fabric.PROCESS_ORIGIN_BASE");
        compileFragment("KernelExample", code, "import org.qsnet.fabric.engine.*;\nimport org.qsnet.fabric.network.*;\n",
            "new Object[] {report, memory[0]}");
        final Object[] got = (Object[])call("KernelExample");
        final org.qsnet.fabric.engine.RunReport report = (org.qsnet.fabric.engine.RunReport)got[0];
        assertEquals(42L, got[1]);
        // the comments: the process waits for the DMA's event at 1.9 us and then sees the data
        assertTrue(report.endNs() >= 1_900, "ends after the DMA at 1900 ns: " + report.endNs());
        assertTrue(report.allSucceeded(), report.toString());
    }

    @Test
    void shouldGiveTheFabricExamplesExactTimes() throws Exception
    {
        final String code = block(readme(), "java", "Packet.unicast(0, 63, 320)");
        final Matcher m = Pattern.compile("p\\.headNs\\(\\) == (\\d+), p\\.tailNs\\(\\) == (\\d+), p\\.ackNs\\(\\) == (\\d+)")
            .matcher(code);
        assertTrue(m.find(), "the example's comment gives the packet's times:\n" + code);
        compileFragment("FabricExample", code, "import org.qsnet.fabric.engine.*;\nimport org.qsnet.fabric.network.*;\n",
            "new long[] {p.headNs(), p.tailNs(), p.ackNs()}");
        final long[] got = (long[])call("FabricExample");
        assertEquals(m.group(1) + " " + m.group(2) + " " + m.group(3), got[0] + " " + got[1] + " " + got[2],
            "head, tail, ack (ns) as the README says");
    }

    /**
     * What {@code ./mpirun} passes to {@code prun} for the options the README's transcripts use
     * ({@code MpirunScriptTest} checks the script's translation itself).
     */
    private static String[] prunArguments(final String[] mpirun)
    {
        final List<String> out = new ArrayList<>();
        int np = 1;
        int perNode = 0;
        int i = 0;
        for (; i < mpirun.length && mpirun[i].startsWith("-"); i++)
        {
            switch (mpirun[i])
            {
                case "-np" -> np = Integer.parseInt(mpirun[++i]);
                case "--npernode" -> perNode = Integer.parseInt(mpirun[++i]);
                case "--tag-output" -> out.add("-t");
                case "--profile" -> out.add("--profile=" + mpirun[++i]);
                default -> throw new AssertionError("an option this test does not translate: " + mpirun[i]);
            }
        }
        out.add(0, Integer.toString(np));
        out.add(0, "-n");
        if (perNode > 0)
        {
            out.add("-N");
            out.add(Integer.toString((np + perNode - 1) / perNode));
        }
        out.addAll(List.of(mpirun).subList(i, mpirun.length));
        return out.toArray(String[]::new);
    }

    /**
     * Every {@code $ ./mpirun} command of the README's transcript blocks that contain
     * {@code marker}, run through {@code prun}: each line the README prints under a command (rows
     * may be left out, as the README says) is a line of the program's output, in order, and a
     * figure given in the command's comment is in the output.
     */
    private void checkTranscripts(final String marker) throws Exception
    {
        final String transcript = block(readme(), "", marker);
        final List<String[]> commands = new ArrayList<>();
        final List<List<String>> shown = new ArrayList<>();
        for (final String line : transcript.split("\n"))
        {
            final Matcher m = Pattern.compile("^\\$ (?:CLASSPATH=\\S+ )?\\./mpirun (.*?)\\s*(?:#\\s*(\\S+).*)?$").matcher(line);
            if (m.matches())
            {
                commands.add(m.group(1).split(" "));
                shown.add(new ArrayList<>(m.group(2) == null ? List.of() : List.of("#" + m.group(2))));
            }
            else if (!commands.isEmpty())
            {
                shown.get(shown.size() - 1).add(line);
            }
        }
        assertTrue(!commands.isEmpty(), transcript);
        for (int c = 0; c < commands.size(); c++)
        {
            final String[] r = Captured.run(PrunCommand::execute, prunArguments(commands.get(c)));
            final String name = "./mpirun " + String.join(" ", commands.get(c));
            assertEquals("0", r[0], name + ": " + r[2]);
            final List<String> lines = List.of((r[1] + r[2]).split("\n"));
            int at = 0;
            for (final String expected : shown.get(c))
            {
                if (expected.startsWith("#") && !expected.startsWith("# "))
                {
                    // the command's comment: a figure the output holds
                    assertTrue(r[1].contains(expected.substring(1)), name + " prints " + expected.substring(1) + ":\n" + r[1]);
                    continue;
                }
                while (at < lines.size() && !lines.get(at).equals(expected))
                {
                    at++;
                }
                assertTrue(at < lines.size(), name + ": the README shows '" + expected + "', the program printed:\n" + r[1]
                    + r[2]);
                at++;
            }
        }
    }

    @Test
    void shouldPrintTheMpiExamplesTranscripts() throws Exception
    {
        compile("Pi", block(readme(), "java", "public class Pi"));
        final Thread t = Thread.currentThread();
        final ClassLoader before = t.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, before))
        {
            // CLASSPATH=/tmp/mpiex: the program's classes come from the user's directory
            t.setContextClassLoader(loader);
            checkTranscripts("./mpirun -np 5 Pi");
        }
        finally
        {
            t.setContextClassLoader(before);
        }
    }

    @Test
    void shouldPrintTheOsuTranscripts() throws Exception
    {
        checkTranscripts("./mpirun -np 2 org.qsnet.bench.mpi.Osu latency");
    }

    /** Each line of the README's block that holds {@code marker} is a line of {@code output}, in order. */
    private static void assertShownInOrder(final String marker, final String command, final String output)
        throws IOException
    {
        final List<String> lines = List.of(output.split("\n"));
        int at = 0;
        for (final String expected : block(readme(), "", marker).split("\n"))
        {
            while (at < lines.size() && !lines.get(at).equals(expected))
            {
                at++;
            }
            assertTrue(at < lines.size(), command + ": the README shows '" + expected + "', it printed:\n" + output);
            at++;
        }
    }

    @Test
    void shouldPrintTheOsuAndElanlibTablesTheReadmeShows() throws Exception
    {
        // the README runs osu with --plot too, which adds the figures' files and nothing to the table
        final String[] osu = Captured.run(QsnetCommand::execute, "osu", "--tests",
            "bandwidth,completion,reuse,hotspot,bidirectional,overlap");
        assertEquals("0", osu[0], osu[2]);
        assertShownInOrder("# bandwidth with a window of Q outstanding DMAs", "./qsnet osu", osu[1]);
        final String[] elanlib = Captured.run(QsnetCommand::execute, "elanlib");
        assertEquals("0", elanlib[0], elanlib[2]);
        assertShownInOrder("# Tports one-way latency (us) and streaming bandwidth", "./qsnet elanlib", elanlib[1]);
    }

    @Test
    void shouldPrintTheTportPingLineTheReadmeQuotes() throws Exception
    {
        final Matcher m = Pattern.compile("`\\./prun (-n 2 -t org\\.qsnet\\.bench\\.examples\\.TportPing 8 100)` prints\\s+`([^`]+)`")
            .matcher(readme());
        assertTrue(m.find(), "the README quotes TportPing's output");
        final String[] r = Captured.run(PrunCommand::execute, m.group(1).split(" "));
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].lines().anyMatch(m.group(2)::equals), "prints '" + m.group(2) + "':\n" + r[1]);
    }

    @Test
    void shouldPrintThePingTableAndTheHotSpotTableTheReadmeShows() throws Exception
    {
        final String readme = readme();
        final String[] one = Captured.run(QsnetCommand::execute, "ping");
        final String[] both = Captured.run(QsnetCommand::execute, "ping", "--bidirectional");
        assertEquals("0", one[0], one[2]);
        assertEquals("0", both[0], both[2]);
        // | bytes | latency us | MB/s | both ways: latency us | MB/s per direction |
        final Matcher row = Pattern.compile("(?m)^\\| (\\d+) \\| ([\\d.]+) \\| ([\\d.]+|—) \\| ([\\d.]+) \\| ([\\d.]+|—) \\|$")
            .matcher(readme);
        int rows = 0;
        while (row.find())
        {
            rows++;
            final String b = row.group(1);
            // the per-size lines are its progress, on the standard error
            assertTrue((one[1] + one[2]).lines().anyMatch((b + " B: " + row.group(2) + " us, " + mbs(row.group(3)) + " MB/s")::equals),
                "ping, " + b + " B as the README's table: " + row.group() + "\n" + one[1]);
            assertTrue((both[1] + both[2]).lines().anyMatch((b + " B: " + row.group(4) + " us, " + mbs(row.group(5)) + " MB/s")::equals),
                "ping --bidirectional, " + b + " B as the README's table: " + row.group() + "\n" + both[1]);
        }
        assertEquals(7, rows, "the README's ping table has seven sizes");
        final String[] hotspot = Captured.run(QsnetCommand::execute, "hotspot");
        assertEquals("0", hotspot[0], hotspot[2]);
        assertShownInOrder("nodes     op  aggregate_MB/s", "./qsnet hotspot", hotspot[1]);
        // the figures the README quotes beside them
        final Matcher elanPing = Pattern.compile("16 KB: [\\d.]+ µs, against ([\\d.]+) µs of half round trip from the ported "
            + "ElanPing\\s+\\(`\\./prun (-n 2 -t org\\.qsnet\\.bench\\.examples\\.ElanPing 16384 20)`\\)").matcher(readme);
        assertTrue(elanPing.find(), "the README quotes ElanPing at 16 KB");
        final String[] ping16k = Captured.run(PrunCommand::execute, elanPing.group(2).split(" "));
        assertTrue(ping16k[1].contains("16384 bytes: " + elanPing.group(1)), ping16k[1]);
        final Matcher pci = Pattern.compile("`\\./qsnet (ping --profile alpha-es40 --set pciMHz=66 --src\\s+main --dst main --sizes 1048576)` "
            + "gives (\\d+\\.\\d+) MB/s where the 33 MHz bus gives (\\d+\\.\\d+)").matcher(readme);
        assertTrue(pci.find(), "the README quotes the PCI override");
        final String[] fast = Captured.run(QsnetCommand::execute, pci.group(1).split("\\s+"));
        assertTrue((fast[1] + fast[2]).contains(" us, " + pci.group(2) + " MB/s"), fast[1] + fast[2]);
        final String[] slow = Captured.run(QsnetCommand::execute, "ping", "--profile", "alpha-es40", "--src", "main", "--dst",
            "main", "--sizes", "1048576");
        assertTrue((slow[1] + slow[2]).contains(" us, " + pci.group(3) + " MB/s"), slow[1] + slow[2]);
    }

    private static String mbs(final String cell)
    {
        return "—".equals(cell) ? "0.0" : cell;
    }
}
