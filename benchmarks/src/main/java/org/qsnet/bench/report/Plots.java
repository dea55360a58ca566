package org.qsnet.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.qsnet.fabric.QsnetException;

/**
 * PNG figures drawn with XChart.
 */
public final class Plots
{
    static
    {
        // figures are written to files, never shown: no display needed
        System.setProperty("java.awt.headless", "true");
    }

    private Plots()
    {
    }

    /**
     * A series of points for a line chart.
     *
     * @param name legend entry.
     * @param x    x values.
     * @param y    y values.
     */
    public record Series(String name, double[] x, double[] y)
    {
    }

    /**
     * Draws lines with markers, e.g. accepted vs offered load.
     *
     * @param file     PNG file.
     * @param title    chart title.
     * @param subtitle second line (profile, seed).
     * @param xLabel   x axis label.
     * @param yLabel   y axis label.
     * @param series   the series.
     */
    public static void lines(final Path file, final String title, final String subtitle, final String xLabel,
        final String yLabel, final List<Series> series)
    {
        lines(file, title, subtitle, xLabel, yLabel, series, false, false);
    }

    /**
     * Draws lines with markers on logarithmic or linear axes.
     *
     * @param file     PNG file.
     * @param title    chart title.
     * @param subtitle second part of the title (version, profile, seed).
     * @param xLabel   x axis label.
     * @param yLabel   y axis label.
     * @param series   the series (on a logarithmic axis, points at 0 or below are left out).
     * @param logX     logarithmic x axis.
     * @param logY     logarithmic y axis (a linear one starts at 0, so a flat curve looks flat).
     */
    public static void lines(final Path file, final String title, final String subtitle, final String xLabel,
        final String yLabel, final List<Series> series, final boolean logX, final boolean logY)
    {
        final XYChart chart = chart(title, subtitle, xLabel, yLabel);
        chart.getStyler().setXAxisLogarithmic(logX).setYAxisLogarithmic(logY);
        if (!logY)
        {
            chart.getStyler().setYAxisMin(0.0);
        }
        for (final Series s : series)
        {
            add(chart, logX || logY ? positive(s, logX, logY) : s);
        }
        save(chart, file);
    }

    /**
     * Draws two quantities against one x axis, the first on the left y axis, the second on the
     * right, e.g. latency and bandwidth against message size.
     *
     * @param file     PNG file.
     * @param title    chart title.
     * @param subtitle second part of the title.
     * @param xLabel   x axis label.
     * @param left     the left axis's series.
     * @param leftY    its label.
     * @param right    the right axis's series.
     * @param rightY   its label.
     * @param logX     logarithmic x axis (points at x = 0 are left out).
     * @param logY     logarithmic y axes (points at y = 0 are left out).
     */
    public static void twoAxes(final Path file, final String title, final String subtitle, final String xLabel,
        final Series left, final String leftY, final Series right, final String rightY, final boolean logX, final boolean logY)
    {
        final XYChart chart = chart(title, subtitle, xLabel, leftY);
        chart.getStyler().setXAxisLogarithmic(logX).setYAxisLogarithmic(logY);
        add(chart, positive(left, logX, logY));
        final XYSeries r = add(chart, positive(right, logX, logY));
        r.setYAxisGroup(1);
        chart.setYAxisGroupTitle(1, rightY);
        chart.getStyler().setYAxisGroupPosition(1, org.knowm.xchart.style.Styler.YAxisPosition.Right);
        save(chart, file);
    }

    /**
     * Draws one bar per category, e.g. the difference of each calibration figure.
     *
     * @param file       PNG file.
     * @param title      chart title.
     * @param subtitle   second part of the title.
     * @param yLabel     y axis label.
     * @param categories the bars' labels.
     * @param values     the bars' values.
     */
    public static void bars(final Path file, final String title, final String subtitle, final String yLabel,
        final List<String> categories, final List<Double> values)
    {
        final org.knowm.xchart.CategoryChart chart = new org.knowm.xchart.CategoryChartBuilder().width(1100)
            .height(Math.max(600, 300 + 9 * categories.size())).title(title + " — " + subtitle).yAxisTitle(yLabel).build();
        chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(13f));
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisLabelRotation(70);
        chart.getStyler().setAxisTickLabelsFont(chart.getStyler().getAxisTickLabelsFont().deriveFont(10f));
        chart.addSeries(yLabel, categories, values);
        save(chart, file);
    }

    private static XYChart chart(final String title, final String subtitle, final String xLabel, final String yLabel)
    {
        final XYChart chart = new XYChartBuilder().width(900).height(600).title(title + " — " + subtitle)
            .xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(13f));
        chart.getStyler().setMarkerSize(6);
        return chart;
    }

    private static XYSeries add(final XYChart chart, final Series s)
    {
        final XYSeries xy = chart.addSeries(s.name(), s.x(), s.y());
        xy.setMarker(SeriesMarkers.CIRCLE);
        return xy;
    }

    private static Series positive(final Series s, final boolean logX, final boolean logY)
    {
        final java.util.List<double[]> kept = new java.util.ArrayList<>();
        for (int i = 0; i < s.x().length; i++)
        {
            if ((!logX || s.x()[i] > 0) && (!logY || s.y()[i] > 0) && Double.isFinite(s.y()[i]))
            {
                kept.add(new double[] {s.x()[i], s.y()[i]});
            }
        }
        final double[] x = new double[kept.size()];
        final double[] y = new double[kept.size()];
        for (int i = 0; i < x.length; i++)
        {
            x[i] = kept.get(i)[0];
            y[i] = kept.get(i)[1];
        }
        return new Series(s.name(), x, y);
    }

    private static void save(final Chart<?, ?> chart, final Path file)
    {
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            if (parent != null)
            {
                Files.createDirectories(parent);
            }
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        catch (final IOException e)
        {
            throw new QsnetException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
