package org.qsnet.bench.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./mpirun}: MPI's option names become prun's (run against a stand-in prun that prints its arguments). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MpirunScriptTest
{
    private static final Path SCRIPT = Path.of("..", "mpirun").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private String[] run(final Map<String, String> env, final String... args) throws Exception
    {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash");
        Files.copy(SCRIPT, dir.resolve("mpirun"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        final Path prun = dir.resolve("prun");
        Files.writeString(prun, "#!/bin/bash\nprintf '%s|' \"$@\"\n");
        Files.setPosixFilePermissions(prun, PosixFilePermissions.fromString("rwxr-xr-x"));
        final String[] cmd = new String[args.length + 2];
        cmd[0] = "/bin/bash";
        cmd[1] = dir.resolve("mpirun").toString();
        System.arraycopy(args, 0, cmd, 2, args.length);
        final ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("OMPI_") || k.startsWith("PMI_") || k.startsWith("SLURM_"));
        pb.environment().putAll(env);
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return new String[] {Integer.toString(p.exitValue()), out, err};
    }

    @Test
    void shouldTranslateMpiOptionsToPrunOptions() throws Exception
    {
        final String[] r = run(Map.of("HOME_VAR", "x"), "-np", "6", "--npernode", "4", "--map-by", "node", "-x",
            "A=1", "--tag-output", "--profile", "alpha-es40", "my.Prog", "-np", "3");
        assertEquals("0", r[0], r[2]);
        assertEquals("-n|6|-m|cyclic|-e|A=1|-t|--profile|alpha-es40|-N|2|my.Prog|-np|3|", r[1]);
    }

    @Test
    void shouldPassPrunsDistributionAndTimingOptionsThrough() throws Exception
    {
        final String[] r = run(Map.of(), "-np", "4", "--jvms", "2", "--timing", "analytic", "--coordinator", "h:7000",
            "my.Prog");
        assertEquals("0", r[0], r[2]);
        assertEquals("-n|4|--jvms|2|--timing|analytic|--coordinator|h:7000|my.Prog|", r[1]);
        final String[] help = run(Map.of(), "--help");
        assertEquals("0", help[0], help[2]);
        assertTrue(help[1].contains("--timing exact|analytic") && !help[1].contains("set -euo"), help[1]);
    }

    @Test
    void shouldTakeTheSizeFromTheLaunchersVariables() throws Exception
    {
        assertEquals("-n|5|P|", run(Map.of("OMPI_COMM_WORLD_SIZE", "5", "PMI_SIZE", "7"), "P")[1]);
        assertEquals("-n|7|P|", run(Map.of("PMI_SIZE", "7", "SLURM_NTASKS", "9"), "P")[1]);
        assertEquals("-n|9|P|", run(Map.of("SLURM_NTASKS", "9"), "P")[1]);
        assertEquals("-n|1|P|", run(Map.of(), "P")[1]);
    }

    @Test
    void shouldRefuseWhatItDoesNotKnow() throws Exception
    {
        final String[] bad = run(Map.of(), "--bogus", "P");
        assertEquals("2", bad[0]);
        assertTrue(bad[2].contains("unknown option --bogus"), bad[2]);
        final String[] count = run(Map.of(), "-np", "x", "P");
        assertEquals("2", count[0]);
        assertTrue(count[2].contains("-np x must be a positive number"), count[2]);
    }
}
