package org.qsnet.bench.traffic;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.qsnet.bench.report.Drawing;
import org.qsnet.bench.report.Table;
import org.qsnet.fabric.network.EliteSwitch;
import org.qsnet.fabric.network.Fabric;
import org.qsnet.fabric.network.LinkOutput;
import org.qsnet.fabric.network.Topology;

/**
 * The congestion matrix of a run, as the literature draws it: one row per switch level (top
 * first), each switch showing three normalised waiting times over the measurement window.
 * <ul>
 *   <li>{@code up}: total time headers waited for the switch's up links, divided by
 *       {@code window x k} (the mean number of headers waiting per up link);</li>
 *   <li>{@code down}: the same for its down links;</li>
 *   <li>{@code sw}: fraction of the window during which at least one header waited inside the
 *       switch.</li>
 * </ul>
 * A hot spot shows as a cone of waiting that grows from the hot node's leaf up the tree (tree
 * saturation).
 */
public final class CongestionMatrix
{
    /**
     * One switch's cell.
     *
     * @param level 1 (leaves) .. n (top).
     * @param word  the switch word.
     * @param up    normalised waiting for the up links.
     * @param self  fraction of time with a waiting header in the switch.
     * @param down  normalised waiting for the down links.
     */
    public record Cell(int level, int word, double up, double self, double down)
    {
    }

    private final Topology topology;
    private final List<Cell> cells;

    private CongestionMatrix(final Topology topology, final List<Cell> cells)
    {
        this.topology = topology;
        this.cells = cells;
    }

    /**
     * Reads the matrix from a fabric's statistics.
     *
     * @param fabric   the fabric after its run.
     * @param windowNs the time its statistics cover.
     * @return the matrix.
     */
    public static CongestionMatrix of(final Fabric fabric, final long windowNs)
    {
        final Topology t = fabric.topology();
        final List<Cell> cells = new ArrayList<>();
        final long now = fabric.kernel().nowNs();
        for (int level = t.dim(); level >= 1; level--)
        {
            for (int w = 0; w < t.switchesPerLevel(); w++)
            {
                final EliteSwitch s = fabric.switchAt(t.switchId(level, w));
                cells.add(new Cell(level, w, (double)s.upWaitNs() / windowNs / t.k(),
                    (double)s.occupiedNs(now) / windowNs, (double)s.downWaitNs() / windowNs / t.k()));
            }
        }
        return new CongestionMatrix(t, cells);
    }

    /**
     * @return every cell, top level first.
     */
    public List<Cell> cells()
    {
        return cells;
    }

    /**
     * @param level a level.
     * @param word  a switch word.
     * @return its cell.
     */
    public Cell cell(final int level, final int word)
    {
        return cells.get((topology.dim() - level) * topology.switchesPerLevel() + word);
    }

    /**
     * @return the matrix as text: per level, three lines (up, sw, down), one column per switch.
     */
    public String text()
    {
        final StringBuilder sb = new StringBuilder();
        final int per = topology.switchesPerLevel();
        sb.append(String.format(Locale.ROOT, "%-9s", "switch"));
        for (int w = 0; w < per; w++)
        {
            sb.append(String.format(Locale.ROOT, " %5d", w));
        }
        sb.append('\n');
        for (int level = topology.dim(); level >= 1; level--)
        {
            for (final String part : new String[] {"up", "sw", "down"})
            {
                if (level == topology.dim() && part.equals("up"))
                {
                    continue;
                }
                sb.append(String.format(Locale.ROOT, "L%d %-6s", level, part));
                for (int w = 0; w < per; w++)
                {
                    final Cell c = cell(level, w);
                    final double v = part.equals("up") ? c.up : part.equals("sw") ? c.self : c.down;
                    sb.append(String.format(Locale.ROOT, " %5.2f", v));
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * @param title the table's title.
     * @return the cells as a table (for CSV/JSON).
     */
    public Table table(final String title)
    {
        final Table t = new Table(title).column("level", "%d").column("switch", "%d").column("up", "%.4f")
            .column("sw", "%.4f").column("down", "%.4f");
        for (final Cell c : cells)
        {
            t.row(c.level, c.word, c.up, c.self, c.down);
        }
        return t;
    }

    /**
     * Draws the matrix as a heat map, rows as {@link #text()} prints them (top level first).
     *
     * @param file     PNG file.
     * @param title    chart title.
     * @param subtitle second title line (version, seed, profile).
     */
    public void png(final Path file, final String title, final String subtitle)
    {
        final int per = topology.switchesPerLevel();
        final List<String> x = new ArrayList<>();
        for (int w = 0; w < per; w++)
        {
            x.add(Integer.toString(w));
        }
        final List<String> y = new ArrayList<>();
        final List<double[]> rows = new ArrayList<>();
        for (int level = topology.dim(); level >= 1; level--)
        {
            for (final String part : new String[] {"up", "sw", "down"})
            {
                if (level == topology.dim() && part.equals("up"))
                {
                    continue;
                }
                y.add("L" + level + " " + part);
                final double[] r = new double[per];
                for (int w = 0; w < per; w++)
                {
                    final Cell c = cell(level, w);
                    r[w] = part.equals("up") ? c.up : part.equals("sw") ? c.self : c.down;
                }
                rows.add(r);
            }
        }
        Drawing.heatMap(file, title, subtitle, "switch word within its level (0 .. " + (per - 1) + ")",
            "switch level and part", "waiting",
            "up / down: mean number of headers waiting per up / down link of the switch; sw: fraction of the window "
                + "with a header waiting in it; white: no waiting at all", x, y, rows.toArray(new double[0][]));
    }

    /**
     * One link direction of one switch, as the journal paper draws them: each switch's up links and
     * down links, one cell each.
     *
     * @param level       the switch's level.
     * @param word        the switch's word.
     * @param up          an up link (towards the top) or a down link.
     * @param port        the port, 0..k-1.
     * @param name        the link's name.
     * @param waiting     total header waiting for the link / window: the mean number of headers waiting.
     * @param utilisation fraction of the window the link carried data.
     * @param inService   false for an up link removed by thinning.
     */
    public record LinkCell(int level, int word, boolean up, int port, String name, double waiting, double utilisation,
        boolean inService)
    {
    }

    /**
     * Reads every switch's up and down links from a fabric's statistics, top level first; within a
     * level the down links, then (below the top) the up links, port by port.
     *
     * @param fabric   the fabric after its run.
     * @param windowNs the time its statistics cover.
     * @return the cells.
     */
    public static List<LinkCell> perLink(final Fabric fabric, final long windowNs)
    {
        final Topology t = fabric.topology();
        final List<LinkCell> out = new ArrayList<>();
        for (int level = t.dim(); level >= 1; level--)
        {
            for (final boolean up : new boolean[] {false, true})
            {
                if (up && level == t.dim())
                {
                    continue;
                }
                for (int port = 0; port < t.k(); port++)
                {
                    for (int w = 0; w < t.switchesPerLevel(); w++)
                    {
                        final EliteSwitch s = fabric.switchAt(t.switchId(level, w));
                        final LinkOutput l = up ? s.up(port) : s.down(port);
                        out.add(new LinkCell(level, w, up, port, l.name(), (double)l.waitNs() / windowNs,
                            (double)l.busyNs() / windowNs, !up || port < s.upInService()));
                    }
                }
            }
        }
        return out;
    }

    private static String rowLabel(final LinkCell c)
    {
        return "L" + c.level() + " " + (c.up() ? "up" : "down") + c.port();
    }

    /**
     * @param cells the cells of {@link #perLink}.
     * @return the per-link matrix as text: one line per level, direction and port, one column per switch.
     */
    public static String linkText(final List<LinkCell> cells)
    {
        final StringBuilder sb = new StringBuilder();
        int per = 0;
        while (per < cells.size() && cells.get(per).word() == per)
        {
            per++;
        }
        sb.append(String.format(Locale.ROOT, "%-9s", "switch"));
        for (int w = 0; w < per; w++)
        {
            sb.append(String.format(Locale.ROOT, " %5d", w));
        }
        sb.append('\n');
        for (int i = 0; i < cells.size(); i += per)
        {
            sb.append(String.format(Locale.ROOT, "%-9s", rowLabel(cells.get(i))));
            for (int w = 0; w < per; w++)
            {
                final LinkCell c = cells.get(i + w);
                sb.append(c.inService() ? String.format(Locale.ROOT, " %5.2f", c.waiting()) : "     -");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * @param cells the cells of {@link #perLink}.
     * @param title the table's title.
     * @return the cells as a table (for CSV/JSON).
     */
    public static Table linkTable(final List<LinkCell> cells, final String title)
    {
        final Table t = new Table(title).column("level", "%d").column("switch", "%d").column("direction", "%s")
            .column("port", "%d").column("link", "%s").column("in_service", "%s").column("waiting", "%.4f")
            .column("utilisation", "%.4f");
        for (final LinkCell c : cells)
        {
            t.row(c.level(), c.word(), c.up() ? "up" : "down", c.port(), c.name(), c.inService() ? "yes" : "no", c.waiting(),
                c.utilisation());
        }
        return t;
    }

    /**
     * Draws the per-link matrix as a heat map, rows as {@link #linkText} prints them.
     *
     * @param cells    the cells of {@link #perLink}.
     * @param file     PNG file.
     * @param title    chart title.
     * @param subtitle second title line.
     */
    public static void linkPng(final List<LinkCell> cells, final Path file, final String title, final String subtitle)
    {
        int per = 0;
        while (per < cells.size() && cells.get(per).word() == per)
        {
            per++;
        }
        final List<String> x = new ArrayList<>();
        for (int w = 0; w < per; w++)
        {
            x.add(Integer.toString(w));
        }
        final List<String> y = new ArrayList<>();
        final List<double[]> rows = new ArrayList<>();
        for (int i = 0; i < cells.size(); i += per)
        {
            y.add(rowLabel(cells.get(i)));
            final double[] r = new double[per];
            for (int w = 0; w < per; w++)
            {
                r[w] = cells.get(i + w).waiting();
            }
            rows.add(r);
        }
        Drawing.heatMap(file, title, subtitle, "switch word within its level (0 .. " + (per - 1) + ")",
            "switch level, link direction and port", "waiting",
            "mean number of headers waiting for the link over the window; white: no waiting (or a link out of service)",
            x, y, rows.toArray(new double[0][]));
    }
}
