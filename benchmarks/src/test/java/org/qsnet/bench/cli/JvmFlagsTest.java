package org.qsnet.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The project's JVM flags ({@code qsnet.jvm.flags} in {@code pom.xml}, what {@code ./qsnet},
 * {@code ./prun}, JMH and the children of a distributed run start with) keep the JVM's own
 * warnings off stdout, where the commands print their JSON: a machine without transparent huge
 * pages, or a heap smaller than the flags' young generation, must not corrupt a command's output.
 */
class JvmFlagsTest
{
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldPrintTheJvmsWarningsOnStderrNotIntoACommandsStdout(@TempDir final Path dir) throws Exception
    {
        final String flags = BuildInfo.jvmFlags().trim();
        assertFalse(flags.isEmpty(), "qsnet-build.properties carries the JVM flags");
        final List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        cmd.addAll(Arrays.asList(flags.split("\\s+")));
        // a heap smaller than the flags' 64 MB young generation: the collector warns as the JVM starts
        cmd.add("-Xmx16m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(QsnetCommand.class.getName());
        cmd.add("--version");
        final Path out = dir.resolve("stdout");
        final Path err = dir.resolve("stderr");
        final Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(50, TimeUnit.SECONDS), "the JVM exits");
        final String stdout = Files.readString(out, StandardCharsets.UTF_8);
        final String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), stdout + stderr);
        assertTrue(stdout.startsWith("qsnet "), "stdout holds the command's output only: " + stdout);
        assertFalse(stdout.contains("[warning]"), "no JVM warning on stdout: " + stdout);
        assertTrue(stderr.contains("[warning][gc"), "the collector's warning is on stderr: " + stderr);
    }
}
