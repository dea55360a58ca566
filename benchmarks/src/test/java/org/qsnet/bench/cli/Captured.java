package org.qsnet.bench.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.ToIntFunction;

/**
 * Runs a command-line entry point in-process with its standard output and error captured, as a
 * user would see them: the tests of {@code qsnet} and {@code prun} share it.
 */
public final class Captured
{
    private Captured()
    {
    }

    /**
     * @param command the entry point ({@code QsnetCommand::execute}, {@code PrunCommand::execute}).
     * @param args    its arguments.
     * @return exit status, stdout, stderr.
     */
    public static synchronized String[] run(final ToIntFunction<String[]> command, final String... args)
    {
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        final ByteArrayOutputStream e = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            final int code = command.applyAsInt(args);
            return new String[] {Integer.toString(code), o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8)};
        }
        finally
        {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
