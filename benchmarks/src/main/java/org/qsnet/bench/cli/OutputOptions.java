package org.qsnet.bench.cli;

import java.io.PrintStream;
import java.nio.file.Path;

import org.qsnet.bench.report.Table;

import picocli.CommandLine.Option;

/**
 * Where results go: stdout in a format, plus optional CSV, JSON and PNG files.
 */
public final class OutputOptions
{
    @Option(names = "--format", defaultValue = "text", description = "What stdout gets: text, csv or json. Default: ${DEFAULT-VALUE}.")
    String format;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write the results as CSV to FILE.")
    Path csv;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON to FILE.")
    Path json;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Draw the figure as a PNG file.")
    Path plot;

    /**
     * Prints the table to stdout in the chosen format and writes the requested files.
     *
     * @param table the results.
     * @param out   stdout.
     */
    public void emit(final Table table, final PrintStream out)
    {
        table.print(Table.Format.parse(format), out);
        if (csv != null)
        {
            table.write(Table.Format.CSV, csv);
        }
        if (json != null)
        {
            table.write(Table.Format.JSON, json);
        }
    }
}
