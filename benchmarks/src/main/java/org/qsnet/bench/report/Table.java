package org.qsnet.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import org.qsnet.fabric.QsnetException;

/**
 * A result table with the facts needed to reproduce it (profile, topology, seed, version),
 * written as aligned text for people, or CSV or JSON for machines. Output depends only on the
 * content: the same run gives the same bytes.
 */
public final class Table
{
    private static final ObjectMapper JSON = new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .addMixIn(org.qsnet.fabric.network.FabricConfig.class, FabricConfigJson.class);

    /** A fabric's analytic timing is written only when on: exact runs' JSON reads as it always did. */
    private abstract static class FabricConfigJson
    {
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT)
        abstract boolean analyticTiming();
    }

    /** Output formats. */
    public enum Format
    {
        /** Aligned columns with a header of facts. */
        TEXT,
        /** Comma-separated, one header line; facts as leading comment lines. */
        CSV,
        /** One object: facts, columns, rows. */
        JSON;

        /**
         * @param s "text", "csv" or "json".
         * @return the format.
         */
        public static Format parse(final String s)
        {
            try
            {
                return valueOf(s.toUpperCase(Locale.ROOT));
            }
            catch (final IllegalArgumentException e)
            {
                throw new QsnetException("format '" + s + "' is not one of: text, csv, json");
            }
        }
    }

    private final String title;
    private final Map<String, Object> facts = new LinkedHashMap<>();
    private final List<String> columns = new ArrayList<>();
    private final List<String> formats = new ArrayList<>();
    private final List<Object[]> rows = new ArrayList<>();

    /**
     * @param title what the table shows.
     */
    public Table(final String title)
    {
        this.title = title;
    }

    /**
     * Adds a fact about the run (profile, seed, topology, version).
     *
     * @param name  its name.
     * @param value its value (a record or map is written as an object in JSON).
     * @return this table.
     */
    public Table fact(final String name, final Object value)
    {
        facts.put(name, value);
        return this;
    }

    /**
     * Adds a column.
     *
     * @param name   header.
     * @param format {@link String#format} pattern for text and CSV, e.g. {@code "%.3f"}.
     * @return this table.
     */
    public Table column(final String name, final String format)
    {
        columns.add(name);
        formats.add(format);
        return this;
    }

    /**
     * Adds a row.
     *
     * @param values one per column.
     * @return this table.
     */
    public Table row(final Object... values)
    {
        QsnetException.require(values.length == columns.size(), "row length", values.length,
            "must equal the column count " + columns.size());
        rows.add(values);
        return this;
    }

    /**
     * @return the rows added so far.
     */
    public List<Object[]> rows()
    {
        return rows;
    }

    private String cell(final int c, final Object v)
    {
        return String.format(Locale.ROOT, formats.get(c), v);
    }

    /**
     * @param format the format.
     * @return the table in that format.
     */
    public String render(final Format format)
    {
        switch (format)
        {
            case CSV:
                return csv();
            case JSON:
                return json();
            default:
                return text();
        }
    }

    /**
     * Writes the table to a stream.
     *
     * @param format the format.
     * @param out    where to.
     */
    public void print(final Format format, final PrintStream out)
    {
        out.print(render(format));
        out.flush();
    }

    /**
     * Writes the table to a file.
     *
     * @param format the format.
     * @param file   where to.
     */
    public void write(final Format format, final Path file)
    {
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            if (parent != null)
            {
                Files.createDirectories(parent);
            }
            Files.writeString(file, render(format), StandardCharsets.UTF_8);
        }
        catch (final IOException e)
        {
            throw new QsnetException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private String text()
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("# ").append(title).append('\n');
        for (final Map.Entry<String, Object> f : facts.entrySet())
        {
            sb.append("# ").append(f.getKey()).append(": ").append(f.getValue()).append('\n');
        }
        final int[] width = new int[columns.size()];
        final List<String[]> cells = new ArrayList<>();
        for (int c = 0; c < width.length; c++)
        {
            width[c] = columns.get(c).length();
        }
        for (final Object[] r : rows)
        {
            final String[] s = new String[r.length];
            for (int c = 0; c < r.length; c++)
            {
                s[c] = cell(c, r[c]);
                width[c] = Math.max(width[c], s[c].length());
            }
            cells.add(s);
        }
        for (int c = 0; c < width.length; c++)
        {
            sb.append(c == 0 ? "" : "  ").append(pad(columns.get(c), width[c]));
        }
        sb.append('\n');
        for (int c = 0; c < width.length; c++)
        {
            sb.append(c == 0 ? "" : "  ").append("-".repeat(width[c]));
        }
        sb.append('\n');
        for (final String[] s : cells)
        {
            for (int c = 0; c < s.length; c++)
            {
                sb.append(c == 0 ? "" : "  ").append(pad(s[c], width[c]));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String pad(final String s, final int width)
    {
        return " ".repeat(width - s.length()) + s;
    }

    private String csv()
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("# ").append(title).append('\n');
        for (final Map.Entry<String, Object> f : facts.entrySet())
        {
            sb.append("# ").append(f.getKey()).append(": ").append(f.getValue()).append('\n');
        }
        sb.append(String.join(",", columns)).append('\n');
        for (final Object[] r : rows)
        {
            for (int c = 0; c < r.length; c++)
            {
                sb.append(c == 0 ? "" : ",").append(cell(c, r[c]).trim());
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private String json()
    {
        try
        {
            return JSON.writeValueAsString(toMap()) + "\n";
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Renders several tables as one document: for JSON one object {@code {"tables": [...]}} (so
     * a machine reads one document), for text and CSV the tables one after the other.
     *
     * @param format the format.
     * @param tables the tables.
     * @return the document.
     */
    public static String renderAll(final Format format, final List<Table> tables)
    {
        if (format != Format.JSON)
        {
            final StringBuilder sb = new StringBuilder();
            for (final Table t : tables)
            {
                sb.append(t.render(format));
            }
            return sb.toString();
        }
        final List<Map<String, Object>> all = new ArrayList<>();
        for (final Table t : tables)
        {
            all.add(t.toMap());
        }
        try
        {
            return JSON.writeValueAsString(Map.of("tables", all)) + "\n";
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return the title and facts as text, each line starting with {@code #}.
     */
    public String header()
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("# ").append(title).append('\n');
        for (final Map.Entry<String, Object> f : facts.entrySet())
        {
            sb.append("# ").append(f.getKey()).append(": ").append(f.getValue()).append('\n');
        }
        return sb.toString();
    }

    private Map<String, Object> toMap()
    {
        final Map<String, Object> root = new LinkedHashMap<>();
        root.put("title", title);
        root.put("facts", facts);
        root.put("columns", columns);
        final List<Map<String, Object>> out = new ArrayList<>();
        for (final Object[] r : rows)
        {
            final Map<String, Object> m = new LinkedHashMap<>();
            for (int c = 0; c < r.length; c++)
            {
                m.put(columns.get(c), r[c]);
            }
            out.add(m);
        }
        root.put("rows", out);
        return root;
    }
}
