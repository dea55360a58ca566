package org.qsnet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code .ci/run}: what it installs comes from Debian's packages or Maven Central only. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CiScriptTest
{
    private static final Path SCRIPT = Path.of("..", ".ci", "run").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void shouldDownloadFromMavenCentralOnly() throws Exception
    {
        final String text = Files.readString(SCRIPT);
        final Matcher m = java.util.regex.Pattern.compile("https?://[^\"' ]+").matcher(text);
        int urls = 0;
        while (m.find())
        {
            urls++;
            assertTrue(m.group().startsWith("https://repo.maven.apache.org/maven2/"), "a download from elsewhere: " + m.group());
        }
        assertEquals(1, urls, "Maven from Maven Central");
        assertTrue(text.contains("openjdk-21-jdk-headless"), "the JDK from Debian's packages");
    }

    @Test
    void shouldSayInOneLineWhenNoJdkCanBeHad() throws Exception
    {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash");
        final ProcessBuilder pb = new ProcessBuilder("/bin/bash", SCRIPT.toString());
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/bin:/bin");
        pb.environment().put("HOME", dir.toString());
        pb.environment().put("XDG_CACHE_HOME", dir.toString());
        pb.environment().put("QSNET_CI_JDK_DIRS", dir.toString());
        pb.environment().put("QSNET_CI_APT", "none");
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertNotEquals(0, p.exitValue(), err);
        assertEquals("", out);
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("ci: no JDK >= 21 here"), err);
        assertFalse(err.contains("mvn"), "it stopped before the build: " + err);
    }
}
