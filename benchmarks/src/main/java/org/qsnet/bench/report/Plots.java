package org.qsnet.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
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
        final XYChart chart = new XYChartBuilder().width(900).height(600).title(title + " — " + subtitle)
            .xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(13f));
        chart.getStyler().setMarkerSize(6);
        for (final Series s : series)
        {
            final XYSeries xy = chart.addSeries(s.name(), s.x(), s.y());
            xy.setMarker(SeriesMarkers.CIRCLE);
        }
        save(chart, file);
    }

    /**
     * Draws a heat map.
     *
     * @param file    PNG file.
     * @param title   chart title.
     * @param xLabels labels of the columns.
     * @param yLabels labels of the rows.
     * @param values  {@code values[row][column]}.
     */
    public static void heatMap(final Path file, final String title, final List<String> xLabels, final List<String> yLabels,
        final double[][] values)
    {
        final HeatMapChart chart = new HeatMapChartBuilder().width(Math.max(700, 40 * xLabels.size() + 200))
            .height(Math.max(400, 28 * yLabels.size() + 160)).title(title).build();
        chart.getStyler().setPlotContentSize(1);
        chart.getStyler().setShowValue(xLabels.size() <= 16);
        chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(13f));
        final List<Number[]> heat = new java.util.ArrayList<>();
        for (int r = 0; r < yLabels.size(); r++)
        {
            for (int c = 0; c < xLabels.size(); c++)
            {
                heat.add(new Number[] {c, r, Math.round(values[r][c] * 1000) / 1000.0});
            }
        }
        chart.addSeries("normalised waiting time", xLabels, yLabels, heat);
        chart.getStyler().setMin(0);
        save(chart, file);
    }

    /**
     * Draws line segments between labelled points, e.g. a topology.
     *
     * @param file     PNG file.
     * @param title    chart title.
     * @param segments {@code {x1, y1, x2, y2}} per segment.
     * @param groups   named point sets drawn as markers (x[], y[]).
     */
    public static void segments(final Path file, final String title, final List<double[]> segments,
        final Map<String, double[][]> groups)
    {
        final XYChart chart = new XYChartBuilder().width(1200).height(600).title(title).build();
        chart.getStyler().setLegendVisible(true);
        chart.getStyler().setAxisTicksVisible(false);
        chart.getStyler().setPlotGridLinesVisible(false);
        int i = 0;
        for (final double[] s : segments)
        {
            final XYSeries xy = chart.addSeries("l" + i++, new double[] {s[0], s[2]}, new double[] {s[1], s[3]});
            xy.setMarker(SeriesMarkers.NONE);
            xy.setLineColor(java.awt.Color.GRAY);
            xy.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.SOLID);
            xy.setShowInLegend(false);
        }
        final java.awt.Color[] colours = {java.awt.Color.BLACK, new java.awt.Color(0, 90, 200), java.awt.Color.RED};
        int g = 0;
        for (final Map.Entry<String, double[][]> e : groups.entrySet())
        {
            final XYSeries xy = chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]);
            xy.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            xy.setMarker(SeriesMarkers.SQUARE);
            xy.setMarkerColor(colours[g++ % colours.length]);
        }
        save(chart, file);
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
