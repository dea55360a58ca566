package org.qsnet.bench.traffic;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.qsnet.bench.report.Drawing;
import org.qsnet.bench.report.Table;
import org.qsnet.fabric.model.EliteSwitch;
import org.qsnet.fabric.model.Fabric;
import org.qsnet.fabric.model.Topology;

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
}
