package org.qsnet.bench.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The emulator's version and JVM flags, filtered into a resource at build time from the pom.
 */
public final class BuildInfo
{
    private static final Properties PROPS = new Properties();

    static
    {
        try (InputStream in = BuildInfo.class.getResourceAsStream("/qsnet-build.properties"))
        {
            if (in != null)
            {
                PROPS.load(in);
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    private BuildInfo()
    {
    }

    /**
     * @return the emulator version, e.g. {@code 0.1.0-SNAPSHOT}.
     */
    public static String version()
    {
        return PROPS.getProperty("version", "unknown");
    }

    /**
     * @return the JVM flags every JVM of the project runs with.
     */
    public static String jvmFlags()
    {
        return PROPS.getProperty("jvm.flags", "");
    }
}
