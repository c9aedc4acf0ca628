package io.quire.bench.drill;

import io.quire.bench.drill.History.Op;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** A drill's report: the summary and anomalies (report.md), every operation (history.tsv), a timeline (timeline.png). */
final class Report {

    private Report() {
    }

    static void write(Path out, History history, List<String> anomalies, Checker checker, int seconds, long seed)
            throws IOException {
        StringBuilder md = new StringBuilder("# Partition drill\n\n");
        md.append(String.format("Seed %d, %d s, %d operations, %d faults.%n%n", seed, seconds, history.ops().size(),
                history.faults().size()));
        md.append("| what | count |\n|---|---:|\n");
        for (Map.Entry<String, Integer> e : checker.counts.entrySet()) {
            md.append("| ").append(e.getKey()).append(" | ").append(String.format("%,d", e.getValue())).append(" |\n");
        }
        md.append("\n## Faults\n\n| from (s) | to (s) | fault |\n|---:|---:|---|\n");
        for (History.Fault f : history.faults()) {
            md.append(String.format("| %.1f | %.1f | %s |%n", f.start() / 1e3, f.end() / 1e3, f.name()));
        }
        md.append("\n## Anomalies: ").append(anomalies.size()).append("\n\n");
        for (String a : anomalies) {
            md.append("* ").append(a).append('\n');
        }
        Files.writeString(out.resolve("report.md"), md.toString());
        List<String> lines = new ArrayList<>();
        lines.add("client\tkind\tnode\tsubject\tstart_ms\tend_ms\toutcome\tid\toffset\terror");
        for (Op op : history.ops()) {
            lines.add(op.client() + "\t" + op.kind() + "\t" + (op.node() + 1) + "\t" + op.subject() + "\t" + op.start() + "\t"
                    + op.end() + "\t" + op.outcome() + "\t" + op.id() + "\t" + op.offset() + "\t"
                    + (op.error() == null ? "" : op.error().replace('\t', ' ')));
        }
        Files.write(out.resolve("history.tsv"), lines);
        timeline(out.resolve("timeline.png"), history);
    }

    /** Each operation's latency against when it started, one series per node and outcome; fault windows shaded. */
    static void timeline(Path file, History history) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        for (int node = 0; node < 3; node++) {
            for (History.Outcome o : History.Outcome.values()) {
                XYSeries s = new XYSeries("node " + (node + 1) + " " + o.name().toLowerCase(), false, true);
                for (Op op : history.ops()) {
                    if (op.node() == node && op.outcome() == o) {
                        s.add(op.start() / 1e3, Math.max(1, op.end() - op.start()));
                    }
                }
                if (s.getItemCount() > 0) {
                    data.addSeries(s);
                }
            }
        }
        JFreeChart chart = ChartFactory.createScatterPlot("Partition drill: latency of each operation by node",
                "seconds since the drill began", "latency (ms)", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setRangeAxis(new LogAxis("latency (ms)"));
        plot.setBackgroundPaint(Color.WHITE);
        for (History.Fault f : history.faults()) {
            IntervalMarker m = new IntervalMarker(f.start() / 1e3, f.end() / 1e3);
            m.setPaint(new Color(255, 200, 120, 90));
            m.setLabel(f.name().length() > 28 ? f.name().substring(0, 28) + "…" : f.name());
            plot.addDomainMarker(m, Layer.BACKGROUND);
        }
        XYLineAndShapeRenderer r = (XYLineAndShapeRenderer) plot.getRenderer();
        for (int i = 0; i < data.getSeriesCount(); i++) {
            r.setSeriesShape(i, new java.awt.geom.Ellipse2D.Double(-1.5, -1.5, 3, 3));
        }
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 1400, 700);
    }
}
