package org.qsnet.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code prun --jvms} and {@code prun --coordinator} as a user runs them: separate JVMs, the same
 * simulated result and event digest as one JVM; a JVM that dies ends the job with an error naming it.
 */
class DistributedPrunTest
{
    private static final Pattern RESULT = Pattern.compile("simulated time ([0-9.]+) us[\\s\\S]*digest ([0-9a-f]{16})");
    private static final String[] PING = {"-n", "2", "-B", "7", "--dim", "2", "--digest", "org.qsnet.bench.examples.ElanPing",
        "100", "50"};

    private static String result(final String stderr)
    {
        final Matcher m = RESULT.matcher(stderr);
        assertTrue(m.find(), "prun printed its result and digest: " + stderr);
        return m.group(1) + " us, digest " + m.group(2);
    }

    private static String[] with(final String[] base, final String... first)
    {
        final List<String> a = new ArrayList<>(List.of(first));
        a.addAll(List.of(base));
        return a.toArray(new String[0]);
    }

    @Test
    @Timeout(120)
    void shouldGiveTheSameResultAndDigestInTwoAndFourJvms()
    {
        final String[] one = Captured.run(PrunCommand::execute, PING);
        assertEquals("0", one[0], one[2]);
        final String expected = result(one[2]);
        // one JVM asked for explicitly: the plain run, no partition driver and no windows
        final String[] single = Captured.run(PrunCommand::execute, with(PING, "--jvms", "1"));
        assertEquals("0", single[0], single[2]);
        assertEquals(one[2], single[2], "--jvms 1 prints what a run without the option prints");
        assertTrue(!single[2].contains("synchronous windows"), single[2]);
        for (final String jvms : new String[] {"2", "4"})
        {
            final String[] many = Captured.run(PrunCommand::execute, with(PING, "--jvms", jvms));
            assertEquals("0", many[0], many[2]);
            assertEquals(expected, result(many[2]), "--jvms " + jvms);
            assertTrue(many[2].contains(jvms + " partitions (JVMs through shared memory)"), many[2]);
        }
    }

    @Test
    @Timeout(120)
    void shouldSplitTheJobsNodesBetweenTheJvmsAndSayWhenAJvmHasNoRank()
    {
        // no -B: the job's nodes 0 and 1 lie in the first half of the 16-node machine; split over the
        // machine both ranks would run in the first JVM and the second would only follow the network
        final String[] ping = {"-n", "2", "--digest", "org.qsnet.bench.examples.ElanPing", "100", "50"};
        final String[] one = Captured.run(PrunCommand::execute, ping);
        assertEquals("0", one[0], one[2]);
        final String[] two = Captured.run(PrunCommand::execute, with(ping, "--jvms", "2"));
        assertEquals("0", two[0], two[2]);
        assertEquals(result(one[2]), result(two[2]));
        assertTrue(!two[2].contains("ran no rank"), two[2]);
        final String[] four = Captured.run(PrunCommand::execute, with(ping, "--jvms", "4"));
        assertEquals("0", four[0], four[2]);
        assertEquals(result(one[2]), result(four[2]));
        assertTrue(four[2].contains("prun: partitions 2, 3 ran no rank of the job (ranks on 2 nodes, 4 partitions)"), four[2]);
    }

    /** Rank -> the pid of the JVM that ran it, from {@link RankPid}'s file. */
    private static Map<Integer, Long> pidsOfRanks(final Path file) throws java.io.IOException
    {
        final Map<Integer, Long> pids = new java.util.TreeMap<>();
        for (final String line : Files.readAllLines(file))
        {
            final String[] f = line.trim().split(" ");
            pids.put(Integer.parseInt(f[0]), Long.parseLong(f[1]));
        }
        return pids;
    }

    @Test
    @Timeout(120)
    void shouldRunTheRanksOfAJobInSeveralOperatingSystemProcesses(@TempDir final Path dir) throws Exception
    {
        // as a user sees it: ranks 0-3 in 2 JVMs, two in each (each rank writes its JVM's pid)
        final Path four = dir.resolve("four.txt");
        final String[] r4 = Captured.run(PrunCommand::execute, "-n", "4", "--jvms", "2", RankPid.class.getName(), four.toString());
        assertEquals("0", r4[0], r4[2]);
        final Map<Integer, Long> p4 = pidsOfRanks(four);
        assertEquals(List.of(0, 1, 2, 3), new ArrayList<>(p4.keySet()), p4.toString());
        assertEquals(p4.get(0), p4.get(1), p4.toString());
        assertEquals(p4.get(2), p4.get(3), p4.toString());
        assertTrue(!p4.get(0).equals(p4.get(2)), "two JVMs: " + p4);
        assertEquals(ProcessHandle.current().pid(), p4.get(0), "this JVM is partition 0");
        // 3 ranks with -N 3 -m cyclic on 3 JVMs: one each
        final Path three = dir.resolve("three.txt");
        final String[] r3 = Captured.run(PrunCommand::execute, "-n", "3", "-N", "3", "-m", "cyclic", "--jvms", "3",
            RankPid.class.getName(), three.toString());
        assertEquals("0", r3[0], r3[2]);
        final Map<Integer, Long> p3 = pidsOfRanks(three);
        assertEquals(3, new java.util.HashSet<>(p3.values()).size(), "three JVMs: " + p3);
    }

    @Test
    @Timeout(120)
    void shouldRunATportsJobInTwoJvmsAsInOne()
    {
        final String[] args = {"-n", "2", "-B", "7", "--dim", "2", "--digest", "org.qsnet.bench.examples.TportPing", "2000", "10"};
        final String[] one = Captured.run(PrunCommand::execute, args);
        final String[] two = Captured.run(PrunCommand::execute, with(args, "--jvms", "2"));
        assertEquals(one[0], two[0], two[2]);
        assertEquals(result(one[2]), result(two[2]));
    }

    @Test
    @Timeout(180)
    void shouldRunAnMpiBenchmarkInTwoJvmsAsInOne()
    {
        // 8 ranks on nodes 4..11 of 16: half in each JVM; rank 0 (node 4) prints in this JVM
        final String[] args = {"-n", "8", "-B", "4", "--dim", "2", "--digest", "org.qsnet.bench.mpi.Osu", "allreduce", "-m",
            "4096", "-i", "10", "-x", "2"};
        final String[] one = Captured.run(PrunCommand::execute, args);
        assertEquals("0", one[0], one[2]);
        final String[] two = Captured.run(PrunCommand::execute, with(args, "--jvms", "2"));
        assertEquals("0", two[0], two[2]);
        assertEquals(one[1], two[1], "the benchmark's table");
        assertTrue(one[1].contains("4096"), one[1]);
        assertEquals(result(one[2]), result(two[2]));
    }

    @Test
    @Timeout(120)
    void shouldRunUnderSrunAndMpirunVariablesThroughACoordinator(@TempDir final Path dir) throws Exception
    {
        final String expected = result(Captured.run(PrunCommand::execute, PING)[2]);
        final String key = HexFormat.of().formatHex(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
        // what srun gives each task, and what Open MPI's mpirun gives each process
        final List<Map<String, String>> slurm = List.of(
            Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_NODEID", "0", "QSNET_JOB_KEY", key),
            Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2", "SLURM_NODEID", "0", "QSNET_JOB_KEY", key));
        final List<Map<String, String>> ompi = List.of(
            Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2", "QSNET_JOB_KEY", key, "QSNET_JOB_ID", "7"),
            Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2", "QSNET_JOB_KEY", key, "QSNET_JOB_ID", "7"));
        for (final List<Map<String, String>> launcher : List.of(slurm, ompi))
        {
            final int port = freePort();
            final List<Process> ps = new ArrayList<>();
            for (int r = 0; r < 2; r++)
            {
                ps.add(start(dir.resolve("rank-" + ps.size() + "-" + port + ".log").toFile(), launcher.get(r),
                    with(PING, "--coordinator", "127.0.0.1:" + port)));
            }
            for (final Process p : ps)
            {
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "a partition ended");
                assertEquals(0, p.exitValue(), Files.readString(dir.resolve("rank-0-" + port + ".log")));
            }
            final String log0 = Files.readString(dir.resolve("rank-0-" + port + ".log"));
            assertEquals(expected, result(log0), launcher.get(0).keySet().toString());
            assertTrue(log0.contains("2 partitions (TCP via coordinator 127.0.0.1:" + port + ")"), log0);
        }
    }

    @Test
    @Timeout(120)
    void shouldEndTheJobWithAnErrorNamingAJvmThatDied(@TempDir final Path dir) throws Exception
    {
        final String key = HexFormat.of().formatHex(new byte[16]);
        final int port = freePort();
        final String[] longPing = {"-n", "2", "-B", "7", "--dim", "2", "--coordinator", "127.0.0.1:" + port,
            "org.qsnet.bench.examples.ElanPing", "100", "100000000"};
        final File log0 = dir.resolve("rank-0.log").toFile();
        final Process p0 = start(log0, Map.of("PMI_RANK", "0", "PMI_SIZE", "2", "QSNET_JOB_KEY", key), longPing);
        final Process p1 = start(dir.resolve("rank-1.log").toFile(), Map.of("PMI_RANK", "1", "PMI_SIZE", "2",
            "QSNET_JOB_KEY", key), longPing);
        // the job runs once partition 0 has connected to every other (after the rendezvous)
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(log0.toPath()).contains("connected") && System.nanoTime() < until)
        {
            Thread.sleep(100);
        }
        Thread.sleep(1_000);
        assertTrue(p0.isAlive() && p1.isAlive(), "the job is running: " + Files.readString(log0.toPath()));
        p1.destroyForcibly();
        final long killed = System.nanoTime();
        assertTrue(p0.waitFor(30, TimeUnit.SECONDS), "partition 0 ended after partition 1 died");
        final long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killed);
        final String out = Files.readString(log0.toPath());
        assertEquals(1, p0.exitValue(), out + "\n--- partition 1:\n" + Files.readString(dir.resolve("rank-1.log")));
        assertTrue(out.contains("peer 1") || out.contains("partition 1"), "the error names the dead JVM: " + out
            + "\n--- partition 1:\n" + Files.readString(dir.resolve("rank-1.log")));
        assertTrue(seconds < 15, "reported after " + seconds + " s");
    }

    @Test
    @Timeout(90)
    void shouldEndAJobWhoseOtherJvmStopsAnsweringAndKillIt(@TempDir final Path dir) throws Exception
    {
        // prun --jvms 2 as a user starts it; its second JVM is stopped (SIGSTOP): it neither answers
        // nor exits. The first must report it, end, and not wait for it for ever.
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(Path.of("/usr/bin/kill")),
            "needs kill");
        final File log = dir.resolve("prun.log").toFile();
        final Process p0 = start(log, Map.of(), "-n", "2", "--jvms", "2", "org.qsnet.bench.examples.ElanPing", "100",
            "100000000");
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        ProcessHandle child = null;
        while (child == null && System.nanoTime() < until)
        {
            child = p0.toHandle().children().findFirst().orElse(null);
            Thread.sleep(100);
        }
        assertTrue(child != null, "prun started its second JVM");
        Thread.sleep(3_000);
        assertTrue(p0.isAlive() && child.isAlive(), "the job is running: " + Files.readString(log.toPath()));
        assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(child.pid())).start().waitFor());
        final long stopped = System.nanoTime();
        try
        {
            assertTrue(p0.waitFor(40, TimeUnit.SECONDS), "prun ended after its second JVM stopped answering: "
                + Files.readString(log.toPath()));
            final long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - stopped);
            final String out = Files.readString(log.toPath());
            assertEquals(1, p0.exitValue(), out);
            assertTrue(out.contains("peer 1 stopped answering"), "the error names the silent JVM: " + out);
            assertTrue(out.contains("the JVM of partition 1 (pid " + child.pid() + ") has not ended"), out);
            assertTrue(!child.isAlive(), "the stopped JVM was killed");
            assertTrue(seconds < 25, "ended after " + seconds + " s");
        }
        finally
        {
            child.destroyForcibly();
        }
    }

    /** A port nothing listens on now (the coordinator binds it a moment later). */
    private static int freePort() throws java.io.IOException
    {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
        {
            return s.getLocalPort();
        }
    }

    private static Process start(final File log, final Map<String, String> env, final String... args) throws Exception
    {
        final List<String> cmd = org.qsnet.fabric.distributed.ChildJvm.command(false, PrunCommand.class.getName(), List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log);
        for (final String v : List.of("SLURM_PROCID", "SLURM_NTASKS", "SLURM_NODEID", "OMPI_COMM_WORLD_RANK",
            "OMPI_COMM_WORLD_SIZE", "PMI_RANK", "PMI_SIZE", "RMS_RANK", "RMS_NPROCS"))
        {
            pb.environment().remove(v);
        }
        pb.environment().putAll(env);
        return pb.start();
    }
}
