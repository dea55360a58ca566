package org.qsnet.bench.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code qsnet jmh}: runs the JMH suites of the emulator's own speed.
 */
@Command(name = "jmh", mixinStandardHelpOptions = false,
    description = {"Runs the JMH benchmarks of the emulator's own cost (wall clock); arguments go to JMH.",
        "Example: qsnet jmh -f 1 -wi 3 -i 5 KernelBenchmark. 'qsnet jmh --help' (or -h) shows JMH's options; "
            + "'qsnet jmh -l' lists the benchmarks."})
public final class BenchCommand implements Callable<Integer>
{
    /** Everything after {@code jmh}, passed to JMH unchanged. */
    @Unmatched
    List<String> args = new ArrayList<>();

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception
    {
        if (args.contains("--help") || args.contains("-h"))
        {
            // JMH knows only -h; its parser exits the JVM on an option it does not know
            spec.commandLine().usage(System.out);
            System.out.println();
            System.out.println("JMH's options:");
            System.out.flush();
            org.openjdk.jmh.Main.main(new String[] {"-h"});
            return 0;
        }
        org.openjdk.jmh.Main.main(args.toArray(new String[0]));
        return 0;
    }
}
