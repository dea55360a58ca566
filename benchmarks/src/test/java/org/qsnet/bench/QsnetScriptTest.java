package org.qsnet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./qsnet} (which {@code ./prun} and {@code ./mpirun} run): the project's JVM flags, then the
 * caller's {@code QSNET_JAVA_OPTS}. Run from a copy of the script beside a built-looking jar (so
 * that it builds nothing) with a main class that prints what it was given.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QsnetScriptTest
{
    private static final Path SCRIPT = Path.of("..", "qsnet").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    /** The stand-in main class: prints a system property and the heap limit. */
    public static final class PrintOptions
    {
        private PrintOptions()
        {
        }

        /**
         * @param args printed after the options.
         */
        public static void main(final String[] args)
        {
            System.out.println(System.getProperty("qsnet.scriptTest") + " " + Runtime.getRuntime().maxMemory() / (1 << 20)
                + " " + String.join(",", args));
        }
    }

    private String[] run(final String javaOpts) throws Exception
    {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash");
        Files.copy(SCRIPT, dir.resolve("qsnet"), StandardCopyOption.REPLACE_EXISTING);
        final Path target = Files.createDirectories(dir.resolve("benchmarks/target/classes"));
        Files.writeString(target.resolve("qsnet-build.properties"), "jvm.flags=-Dqsnet.scriptTest=fromFlags\n");
        Files.writeString(dir.resolve("benchmarks/target/qsnet.jar"), "");
        final ProcessBuilder pb = new ProcessBuilder("/bin/bash", dir.resolve("qsnet").toString(), "a", "b");
        pb.environment().put("CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().put("QSNET_MAIN", PrintOptions.class.getName());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        if (javaOpts == null)
        {
            pb.environment().remove("QSNET_JAVA_OPTS");
        }
        else
        {
            pb.environment().put("QSNET_JAVA_OPTS", javaOpts);
        }
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return new String[] {Integer.toString(p.exitValue()), out, err};
    }

    @Test
    void shouldStartTheJvmWithTheProjectsFlagsThenTheCallersOptions() throws Exception
    {
        final String[] plain = run(null);
        assertEquals("0", plain[0], plain[2]);
        assertTrue(plain[1].startsWith("fromFlags ") && plain[1].endsWith(" a,b"), plain[1]);
        // the caller's options come after the project's: a property given again wins, -Xmx applies
        final String[] opts = run("-Dqsnet.scriptTest=fromCaller -Xmx300m");
        assertEquals("0", opts[0], opts[2]);
        final String[] f = opts[1].split(" ");
        assertEquals("fromCaller", f[0], opts[1]);
        assertTrue(Long.parseLong(f[1]) <= 300 && Long.parseLong(f[1]) > 200, "heap limit " + f[1] + " MB: " + opts[1]);
        assertEquals("a,b", f[2]);
    }
}
