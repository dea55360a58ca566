package org.qsnet.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import javax.imageio.ImageIO;

import org.qsnet.fabric.QsnetException;

/**
 * Figures drawn directly with Java2D where XChart cannot draw what they need: a heat map whose
 * zero cells differ from small values and whose colour bar carries a title, and a labelled
 * k-ary n-tree.
 */
public final class Drawing
{
    static
    {
        // figures are written to files, never shown: no display needed
        System.setProperty("java.awt.headless", "true");
    }

    /** Sequential colours from small to large (ColorBrewer YlOrRd). */
    private static final Color[] RAMP = {new Color(0xffffb2), new Color(0xfecc5c), new Color(0xfd8d3c), new Color(0xf03b20),
        new Color(0xbd0026)};
    private static final Color GRID = new Color(0xc8c8c8);
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 15);
    private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font AXIS = new Font(Font.SANS_SERIF, Font.BOLD, 13);

    private Drawing()
    {
    }

    /**
     * Draws a heat map: one cell per value, its value written in it when there is room; exactly
     * zero is white, any positive value at least the palest colour of the bar.
     *
     * @param file        PNG file.
     * @param title       first title line.
     * @param subtitle    second title line (version, seed), may be empty.
     * @param xTitle      the x axis's title.
     * @param yTitle      the y axis's title.
     * @param colourTitle the colour bar's title (short, written above it).
     * @param footnote    a line under the figure saying what the values are, may be empty.
     * @param xLabels     labels of the columns.
     * @param yLabels     labels of the rows, top row first.
     * @param values      {@code values[row][column]}, each at least 0.
     */
    public static void heatMap(final Path file, final String title, final String subtitle, final String xTitle,
        final String yTitle, final String colourTitle, final String footnote, final List<String> xLabels,
        final List<String> yLabels, final double[][] values)
    {
        final int cols = xLabels.size();
        final int rows = yLabels.size();
        double max = 0;
        for (final double[] r : values)
        {
            for (final double v : r)
            {
                max = Math.max(max, v);
            }
        }
        final double top = max > 0 ? max : 1;
        final int cw = Math.max(6, Math.min(64, 1000 / Math.max(1, cols)));
        final int ch = rows > 24 ? 16 : 30;
        final int left = 150;
        final int head = 80;
        final int width = Math.max(left + cols * cw + 190, 900);
        final int height = head + rows * ch + 100;
        final BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = graphics(img);
        titles(g, width, title, subtitle);
        final boolean showValues = cw >= 40 && ch >= 24;
        g.setFont(LABEL);
        final FontMetrics fm = g.getFontMetrics();
        for (int r = 0; r < rows; r++)
        {
            final int y = head + r * ch;
            g.setColor(Color.BLACK);
            g.drawString(yLabels.get(r), left - 8 - fm.stringWidth(yLabels.get(r)), y + ch / 2 + fm.getAscent() / 2 - 2);
            for (int c = 0; c < cols; c++)
            {
                final int x = left + c * cw;
                final double v = values[r][c];
                final Color fill = colour(v, top);
                g.setColor(fill);
                g.fillRect(x, y, cw, ch);
                g.setColor(GRID);
                g.drawRect(x, y, cw, ch);
                if (showValues)
                {
                    final String s = value(v);
                    g.setColor(v > 0 && v / top > 0.6 ? Color.WHITE : v == 0 ? Color.GRAY : Color.BLACK);
                    g.drawString(s, x + (cw - fm.stringWidth(s)) / 2, y + ch / 2 + fm.getAscent() / 2 - 2);
                }
            }
        }
        // column labels, thinned to fit
        final int every = Math.max(1, (int)Math.ceil(fm.stringWidth("0000") / (double)cw));
        g.setColor(Color.BLACK);
        for (int c = 0; c < cols; c += every)
        {
            final String s = xLabels.get(c);
            g.drawString(s, left + c * cw + (cw - fm.stringWidth(s)) / 2, head + rows * ch + fm.getAscent() + 4);
        }
        g.setFont(AXIS);
        final FontMetrics am = g.getFontMetrics();
        g.drawString(xTitle, left + (cols * cw - am.stringWidth(xTitle)) / 2, head + rows * ch + 44);
        vertical(g, yTitle, 22, head + rows * ch / 2);
        g.setFont(LABEL);
        g.drawString(footnote, left, head + rows * ch + 72);
        colourBar(g, left + cols * cw + 40, head, Math.max(120, rows * ch), top, colourTitle);
        write(img, file);
    }

    private static void colourBar(final Graphics2D g, final int x, final int y, final int h, final double max,
        final String title)
    {
        final int w = 22;
        final int barH = h - 40;
        for (int i = 0; i < barH; i++)
        {
            // top = max, bottom = the smallest positive value
            g.setColor(colour(max * Math.max(1e-9, 1 - (double)i / barH), max));
            g.fillRect(x, y + i, w, 1);
        }
        g.setColor(Color.GRAY);
        g.drawRect(x, y, w, barH);
        g.setFont(LABEL);
        final FontMetrics fm = g.getFontMetrics();
        g.setColor(Color.BLACK);
        for (int t = 0; t <= 4; t++)
        {
            final double v = max * (4 - t) / 4;
            final int ty = y + barH * t / 4;
            g.drawLine(x + w, ty, x + w + 4, ty);
            g.drawString(t == 4 ? "> 0" : String.format(Locale.ROOT, "%.2f", v), x + w + 7, ty + fm.getAscent() / 2 - 1);
        }
        // exactly zero: its own swatch below the bar
        final int zy = y + barH + 14;
        g.setColor(Color.WHITE);
        g.fillRect(x, zy, w, 16);
        g.setColor(Color.GRAY);
        g.drawRect(x, zy, w, 16);
        g.setColor(Color.BLACK);
        g.drawString("0 (none)", x + w + 7, zy + 12);
        g.setFont(AXIS);
        g.drawString(title, x - 10, y - 10);
    }

    /**
     * Draws a k-ary n-tree: nodes at the bottom, one row of switches per level, every node and
     * switch labelled when there is room.
     *
     * @param file     PNG file.
     * @param title    title.
     * @param k        arity.
     * @param dim      levels.
     * @param upLinks  {@code upLinks[level - 1][word]}: the words of the switches one level up that
     *                 switch {@code <word, level>} links to (empty at the top level).
     */
    public static void tree(final Path file, final String title, final int k, final int dim, final int[][][] upLinks)
    {
        int nodes = 1;
        for (int i = 0; i < dim; i++)
        {
            nodes *= k;
        }
        final int perLevel = nodes / k;
        final int nodeGap = Math.max(6, Math.min(60, 1400 / nodes));
        final int left = 110;
        final int width = left + nodes * nodeGap + 60;
        final int levelGap = 150;
        final int head = 70;
        final int height = head + dim * levelGap + 80;
        final BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = graphics(img);
        titles(g, width, title, "nodes (black, numbered) and Elite switches <word,level> (blue); lines are links");
        final int nodeY = head + dim * levelGap;
        final double step = (double)nodes / perLevel;
        g.setStroke(new BasicStroke(1f));
        g.setColor(Color.GRAY);
        for (int n = 0; n < nodes; n++)
        {
            g.drawLine(nodeX(left, nodeGap, n), nodeY, switchX(left, nodeGap, step, n / k), levelY(head, levelGap, dim, 1));
        }
        for (int level = 1; level < dim; level++)
        {
            for (int w = 0; w < perLevel; w++)
            {
                for (final int up : upLinks[level - 1][w])
                {
                    g.drawLine(switchX(left, nodeGap, step, w), levelY(head, levelGap, dim, level), switchX(left, nodeGap, step, up),
                        levelY(head, levelGap, dim, level + 1));
                }
            }
        }
        g.setFont(LABEL);
        final FontMetrics fm = g.getFontMetrics();
        final boolean nodeLabels = fm.stringWidth(Integer.toString(nodes - 1)) + 2 <= nodeGap;
        for (int n = 0; n < nodes; n++)
        {
            final int x = nodeX(left, nodeGap, n);
            g.setColor(Color.BLACK);
            g.fillRect(x - 3, nodeY - 3, 7, 7);
            if (nodeLabels || n % k == 0)
            {
                final String s = Integer.toString(n);
                g.drawString(s, x - fm.stringWidth(s) / 2, nodeY + 18);
            }
        }
        final Color blue = new Color(0, 90, 200);
        final boolean switchLabels = fm.stringWidth("<00,0>") + 4 <= step * nodeGap;
        for (int level = 1; level <= dim; level++)
        {
            final int y = levelY(head, levelGap, dim, level);
            for (int w = 0; w < perLevel; w++)
            {
                final int x = switchX(left, nodeGap, step, w);
                g.setColor(blue);
                g.fillRect(x - 5, y - 5, 11, 11);
                if (switchLabels)
                {
                    final String s = "<" + w + "," + level + ">";
                    g.setColor(Color.WHITE);
                    g.fillRect(x - fm.stringWidth(s) / 2 - 1, y - 10 - fm.getAscent(), fm.stringWidth(s) + 2, fm.getAscent() + 2);
                    g.setColor(Color.BLACK);
                    g.drawString(s, x - fm.stringWidth(s) / 2, y - 10);
                }
            }
            g.setFont(AXIS);
            g.setColor(Color.BLACK);
            g.drawString("level " + level, 12, y + 5);
            g.setFont(LABEL);
        }
        g.setFont(AXIS);
        g.drawString("nodes", 12, nodeY + 5);
        write(img, file);
    }

    private static int nodeX(final int left, final int gap, final int n)
    {
        return left + n * gap + gap / 2;
    }

    private static int switchX(final int left, final int gap, final double step, final int word)
    {
        return (int)Math.round(left + ((word + 0.5) * step) * gap);
    }

    private static int levelY(final int head, final int gap, final int dim, final int level)
    {
        return head + (dim - level) * gap + 30;
    }

    static Color colour(final double v, final double max)
    {
        if (v <= 0)
        {
            return Color.WHITE;
        }
        final double t = Math.min(1, v / max) * (RAMP.length - 1);
        final int i = Math.min(RAMP.length - 2, (int)t);
        final double f = t - i;
        final Color a = RAMP[i];
        final Color b = RAMP[i + 1];
        return new Color((int)Math.round(a.getRed() + f * (b.getRed() - a.getRed())),
            (int)Math.round(a.getGreen() + f * (b.getGreen() - a.getGreen())),
            (int)Math.round(a.getBlue() + f * (b.getBlue() - a.getBlue())));
    }

    private static String value(final double v)
    {
        if (v == 0)
        {
            return "0";
        }
        if (v < 0.01)
        {
            return "<.01";
        }
        return String.format(Locale.ROOT, v < 10 ? "%.2f" : "%.1f", v);
    }

    private static Graphics2D graphics(final BufferedImage img)
    {
        final Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        return g;
    }

    private static void titles(final Graphics2D g, final int width, final String title, final String subtitle)
    {
        g.setColor(Color.BLACK);
        g.setFont(TITLE);
        g.drawString(title, (width - g.getFontMetrics().stringWidth(title)) / 2, 24);
        if (!subtitle.isEmpty())
        {
            g.setFont(LABEL);
            g.drawString(subtitle, (width - g.getFontMetrics().stringWidth(subtitle)) / 2, 44);
        }
    }

    private static void vertical(final Graphics2D g, final String s, final int x, final int centreY)
    {
        final AffineTransform saved = g.getTransform();
        g.rotate(-Math.PI / 2, x, centreY);
        g.drawString(s, x - g.getFontMetrics().stringWidth(s) / 2, centreY);
        g.setTransform(saved);
    }

    private static void write(final BufferedImage img, final Path file)
    {
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            if (parent != null)
            {
                Files.createDirectories(parent);
            }
            ImageIO.write(img, "png", file.toFile());
        }
        catch (final IOException e)
        {
            throw new QsnetException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
