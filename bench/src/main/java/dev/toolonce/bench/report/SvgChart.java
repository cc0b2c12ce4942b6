package dev.toolonce.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart as inline SVG, drawn here so that the HTML report needs no script and no network: axes with
 * ticks, one polyline (with point markers when a series is short) per series, and a legend. The x axis may be
 * logarithmic (latency CDFs span three decades); the y axis starts at zero.
 */
final class SvgChart {
    private static final int W = 640;
    private static final int H = 340;
    private static final int LEFT = 60;
    private static final int RIGHT = 20;
    private static final int TOP = 30;
    private static final int BOTTOM = 45;
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};

    /** @param points {@code [x, y]} pairs, ascending in x */
    record Series(String name, List<double[]> points) {
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final List<Series> series = new ArrayList<>();

    SvgChart(String title, String xLabel, String yLabel, boolean logX) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
    }

    SvgChart add(String name, List<double[]> points) {
        if (!points.isEmpty()) {
            series.add(new Series(name, points));
        }
        return this;
    }

    String svg() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
                + "viewBox='0 0 %d %d' font-family='sans-serif' font-size='11'>", W, H, W, H));
        s.append(text(W / 2.0, 16, "middle", "bold", title));
        if (series.isEmpty()) {
            return s.append(text(W / 2.0, H / 2.0, "middle", "normal", "no data")).append("</svg>").toString();
        }
        double[] xr = xRange();
        double yMax = niceCeil(series.stream().flatMap(x -> x.points().stream()).mapToDouble(p -> p[1]).max().orElse(1));
        axes(s, xr, yMax);
        for (int i = 0; i < series.size(); i++) {
            plot(s, series.get(i), COLORS[i % COLORS.length], xr, yMax, i);
        }
        return s.append("</svg>").toString();
    }

    private double[] xRange() {
        double min = series.stream().flatMap(x -> x.points().stream()).mapToDouble(p -> p[0]).min().orElse(0);
        double max = series.stream().flatMap(x -> x.points().stream()).mapToDouble(p -> p[0]).max().orElse(1);
        if (logX) {
            return new double[] {Math.floor(Math.log10(Math.max(0.1, min))), Math.ceil(Math.log10(Math.max(1, max)))};
        }
        return new double[] {0, niceCeil(max)};
    }

    private void axes(StringBuilder s, double[] xr, double yMax) {
        int x0 = LEFT;
        int y0 = H - BOTTOM;
        s.append(line(x0, TOP, x0, y0)).append(line(x0, y0, W - RIGHT, y0));
        for (int i = 0; i <= 5; i++) {
            double v = yMax * i / 5;
            double y = py(v, yMax);
            s.append(grid(x0, y, W - RIGHT, y)).append(text(x0 - 5, y + 4, "end", "normal", fmt(v)));
        }
        if (logX) {
            for (double d = xr[0]; d <= xr[1]; d++) {
                double x = px(Math.pow(10, d), xr);
                s.append(grid(x, TOP, x, y0)).append(text(x, y0 + 15, "middle", "normal", fmt(Math.pow(10, d))));
            }
        } else {
            for (int i = 0; i <= 5; i++) {
                double v = xr[1] * i / 5;
                double x = px(v, xr);
                s.append(grid(x, TOP, x, y0)).append(text(x, y0 + 15, "middle", "normal", fmt(v)));
            }
        }
        s.append(text((LEFT + W - RIGHT) / 2.0, H - 8, "middle", "normal", xLabel));
        s.append(String.format(Locale.ROOT, "<text x='14' y='%.1f' text-anchor='middle' transform='rotate(-90 14 %.1f)'>%s</text>",
                (TOP + y0) / 2.0, (TOP + y0) / 2.0, HtmlReport.escape(yLabel)));
    }

    private void plot(StringBuilder s, Series series, String color, double[] xr, double yMax, int index) {
        StringBuilder pts = new StringBuilder();
        for (double[] p : series.points()) {
            pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px(p[0], xr), py(p[1], yMax)));
        }
        s.append(String.format("<polyline fill='none' stroke='%s' stroke-width='2' points='%s'/>", color, pts));
        if (series.points().size() <= 12) {
            for (double[] p : series.points()) {
                s.append(String.format(Locale.ROOT, "<circle cx='%.1f' cy='%.1f' r='3' fill='%s'/>",
                        px(p[0], xr), py(p[1], yMax), color));
            }
        }
        double ly = TOP + 8 + 15 * index;
        s.append(String.format(Locale.ROOT, "<rect x='%d' y='%.1f' width='12' height='3' fill='%s'/>", LEFT + 10, ly, color));
        s.append(text(LEFT + 28, ly + 4, "start", "normal", series.name()));
    }

    private double px(double v, double[] xr) {
        double t = logX ? (Math.log10(Math.max(Math.pow(10, xr[0]), v)) - xr[0]) / (xr[1] - xr[0]) : v / xr[1];
        return LEFT + t * (W - LEFT - RIGHT);
    }

    private static double py(double v, double yMax) {
        return H - BOTTOM - v / yMax * (H - TOP - BOTTOM);
    }

    /** The smallest 1, 2 or 5 × 10^k at or above {@code v}. */
    static double niceCeil(double v) {
        if (v <= 0) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 2, 5, 10}) {
            if (step * magnitude >= v) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2g", v);
    }

    private static String line(double x1, double y1, double x2, double y2) {
        return String.format(Locale.ROOT, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#333'/>", x1, y1, x2, y2);
    }

    private static String grid(double x1, double y1, double x2, double y2) {
        return String.format(Locale.ROOT, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ddd'/>", x1, y1, x2, y2);
    }

    private static String text(double x, double y, String anchor, String weight, String text) {
        return String.format(Locale.ROOT, "<text x='%.1f' y='%.1f' text-anchor='%s' font-weight='%s'>%s</text>",
                x, y, anchor, weight, HtmlReport.escape(text));
    }
}
