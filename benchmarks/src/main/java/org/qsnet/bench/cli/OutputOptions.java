package org.qsnet.bench.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.qsnet.bench.report.Table;
import org.qsnet.fabric.QsnetException;

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
     * Checks the format and that every output file can be written, before anything runs.
     *
     * @return the stdout format.
     * @throws QsnetException naming the option and the value that cannot be used.
     */
    public Table.Format check()
    {
        final Table.Format f = format("--format", format);
        writable("--csv", csv);
        writable("--json", json);
        writable("--plot", plot);
        return f;
    }

    /**
     * Prints the table to stdout in the chosen format and writes the requested files.
     *
     * @param table the results.
     * @param out   stdout.
     */
    public void emit(final Table table, final PrintStream out)
    {
        table.print(format("--format", format), out);
        if (csv != null)
        {
            table.write(Table.Format.CSV, csv);
        }
        if (json != null)
        {
            table.write(Table.Format.JSON, json);
        }
    }

    /**
     * Prints several tables to stdout as one document (one JSON object for JSON) and writes the
     * requested files the same way.
     *
     * @param tables the results.
     * @param out    stdout.
     */
    public void emitAll(final java.util.List<Table> tables, final PrintStream out)
    {
        out.print(Table.renderAll(format("--format", format), tables));
        out.flush();
        writeAll(csv, Table.Format.CSV, tables);
        writeAll(json, Table.Format.JSON, tables);
    }

    private static void writeAll(final Path file, final Table.Format f, final java.util.List<Table> tables)
    {
        if (file == null)
        {
            return;
        }
        try
        {
            final Path abs = file.toAbsolutePath();
            if (abs.getParent() != null)
            {
                Files.createDirectories(abs.getParent());
            }
            Files.writeString(abs, Table.renderAll(f, tables));
        }
        catch (final java.io.IOException e)
        {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * @param option the option's name.
     * @param value  its value.
     * @return the format.
     * @throws QsnetException naming the option when the value is not text, csv or json.
     */
    static Table.Format format(final String option, final String value)
    {
        try
        {
            return Table.Format.parse(value);
        }
        catch (final QsnetException e)
        {
            throw new QsnetException(option + " '" + value + "' is not one of: text, csv, json");
        }
    }

    /**
     * Checks that a file can be written: an existing file must be a writable regular file; a new
     * one needs its nearest existing ancestor to be a writable directory (missing directories are
     * created when the file is written).
     *
     * @param option the option's name.
     * @param file   the file, or null for none.
     * @throws QsnetException naming the option and the path when it cannot be written.
     */
    static void writable(final String option, final Path file)
    {
        if (file == null)
        {
            return;
        }
        final Path abs = file.toAbsolutePath();
        if (Files.exists(abs))
        {
            QsnetException.require(Files.isRegularFile(abs) && Files.isWritable(abs), option, file,
                "cannot be written: it is " + (Files.isDirectory(abs) ? "a directory" : "not a writable file"));
            return;
        }
        Path dir = abs.getParent();
        while (dir != null && !Files.exists(dir))
        {
            dir = dir.getParent();
        }
        QsnetException.require(dir != null && Files.isDirectory(dir) && Files.isWritable(dir), option, file,
            "cannot be written: " + (dir == null ? "no existing parent directory"
                : Files.isDirectory(dir) ? dir + " is not writable" : dir + " is not a directory"));
    }
}
