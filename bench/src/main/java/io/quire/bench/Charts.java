package io.quire.bench;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** PNG charts of a suite run, drawn with JFreeChart (headless). */
final class Charts {

    private Charts() {
    }

    /** One line per target: throughput against concurrency. */
    static void throughputVsUsers(Path file, String title, Map<String, List<Result>> byTarget, boolean logY)
            throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        byTarget.forEach((target, results) -> {
            XYSeries s = new XYSeries(target);
            results.forEach(r -> s.add(r.users(), r.throughput()));
            data.addSeries(s);
        });
        JFreeChart chart = ChartFactory.createXYLineChart(title, "concurrent clients", "successful requests / s", data,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        if (logY) {
            LogarithmicAxis axis = new LogarithmicAxis("successful requests / s (log)");
            axis.setAllowNegativesFlag(false);
            plot.setRangeAxis(axis);
        }
        style(chart);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 520);
    }

    /** p50 / p99 / p99.9 per result, in milliseconds. */
    static void latencies(Path file, String title, List<Result> results) throws IOException {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (Result r : results) {
            String key = r.target() + " @" + r.users();
            data.addValue(r.p50() / 1000.0, "p50", key);
            data.addValue(r.p99() / 1000.0, "p99", key);
            data.addValue(r.p999() / 1000.0, "p99.9", key);
        }
        JFreeChart chart = ChartFactory.createBarChart(title, "", "latency (ms)", data, PlotOrientation.HORIZONTAL,
                true, false, false);
        style(chart);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, Math.max(360, 60 + 50 * results.size()));
    }

    /** Successful requests per second across the measured window. */
    static void overTime(Path file, String title, List<Result> results) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        for (Result r : results) {
            XYSeries s = new XYSeries(r.target() + " " + r.scenario() + " @" + r.users());
            long[] ps = r.perSecond();
            for (int i = 0; i < ps.length; i++) {
                s.add(i + 1, ps[i]);
            }
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title, "second of the measured window",
                "successful requests in that second", data, PlotOrientation.VERTICAL, true, false, false);
        style(chart);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 520);
    }

    /** One line per series: a value against the dataset size (schemas), on a log x axis. */
    static void versusDatasetSize(Path file, String title, String yLabel, Map<String, Map<Integer, Double>> series)
            throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        series.forEach((name, points) -> {
            XYSeries s = new XYSeries(name);
            points.forEach(s::add);
            data.addSeries(s);
        });
        JFreeChart chart = ChartFactory.createXYLineChart(title, "schemas in the registry", yLabel, data,
                PlotOrientation.VERTICAL, true, false, false);
        LogarithmicAxis x = new LogarithmicAxis("schemas in the registry (log)");
        x.setAllowNegativesFlag(false);
        chart.getXYPlot().setDomainAxis(x);
        style(chart);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 520);
    }

    private static void style(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getPlot().setBackgroundPaint(new Color(248, 248, 248));
    }
}
