package org.qsnet.bench.cli;

import org.qsnet.fabric.QsnetException;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code qsnet}: the emulator's command-line tool.
 */
@Command(name = "qsnet", mixinStandardHelpOptions = true, versionProvider = QsnetCommand.Version.class,
    description = "QsNet emulator: experiments on an emulated Quadrics Elan3 / Elite fat tree.",
    subcommands = {TrafficCommand.class, PingCommand.class, CalibrateCommand.class, OsuCommand.class, HotspotCommand.class, ElanlibCommand.class, CongestionCommand.class, TopologyCommand.class, PerfCommand.class,
        BenchCommand.class, CommandLine.HelpCommand.class})
public final class QsnetCommand implements Runnable
{
    @Override
    public void run()
    {
        new CommandLine(this).usage(System.out);
    }

    /**
     * Runs the tool.
     *
     * @param args command line.
     */
    public static void main(final String[] args)
    {
        System.exit(execute(args));
    }

    /**
     * Runs the tool without exiting the JVM.
     *
     * @param args command line.
     * @return the exit code: 0 success, 2 bad input.
     */
    public static int execute(final String... args)
    {
        // a command without --partitions runs in one partition, whatever an earlier one in this JVM asked
        org.qsnet.elan3.Prun.partitionsByDefault(1);
        org.qsnet.elan3.Prun.jvmPartitionsByDefault(null);
        JvmJob.argv = args.clone();
        final CommandLine cl = new CommandLine(new QsnetCommand());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) ->
        {
            if (ex instanceof QsnetException)
            {
                cmd.getErr().println("qsnet " + cmd.getCommandName() + ": " + ex.getMessage());
                return 2;
            }
            throw ex;
        });
        return cl.execute(args);
    }

    /** Version from the build. */
    public static final class Version implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            return new String[] {"qsnet " + BuildInfo.version(), "JVM flags: " + BuildInfo.jvmFlags()};
        }
    }
}
