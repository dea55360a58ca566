package org.qsnet.bench.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code qsnet jmh}: runs the JMH suites of the emulator's own speed.
 */
@Command(name = "jmh", mixinStandardHelpOptions = false,
    description = {"Runs the JMH benchmarks of the emulator's own cost (wall clock); arguments go to JMH.",
        "Example: qsnet jmh -f 1 -wi 3 -i 5 KernelBenchmark. 'qsnet jmh -h' shows JMH's options."})
public final class BenchCommand implements Callable<Integer>
{
    /** Everything after {@code jmh}, passed to JMH unchanged. */
    @Unmatched
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception
    {
        org.openjdk.jmh.Main.main(args.toArray(new String[0]));
        return 0;
    }
}
