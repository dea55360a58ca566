package org.qsnet.fabric.distributed;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that starts another JVM like this one, for one more partition of a job:
 * this JVM's {@code java}, its flags, its class path, then a main class and its arguments.
 */
public final class ChildJvm
{
    private ChildJvm()
    {
    }

    /**
     * @param allFlags  true: every flag this JVM was started with; false: only the module and
     *                  option flags the project itself sets ({@code --add-opens} and the like,
     *                  {@code -XX:+IgnoreUnrecognizedVMOptions}, {@code -Djdk.*}, the processes'
     *                  carrier {@code -Dqsnet.carrier}), leaving out
     *                  what a test runner adds (agents, its own properties).
     * @param mainClass the class whose {@code main} the child runs.
     * @param args      its arguments.
     * @return the command.
     */
    public static List<String> command(final boolean allFlags, final String mainClass, final List<String> args)
    {
        final List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        for (final String a : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (allFlags || a.startsWith("--") || a.startsWith("-XX:+IgnoreUnrecognized") || a.startsWith("-Djdk.")
                || a.startsWith("-Dqsnet.carrier="))
            {
                cmd.add(a);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }
}
