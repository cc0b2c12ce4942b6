package dev.toolonce.chaos.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The samples of a Prometheus text exposition ({@code /actuator/prometheus}): series ({@code name{labels}}
 * exactly as written) → value. Comment lines ({@code # HELP}, {@code # TYPE}) are skipped; a sample's
 * optional timestamp is ignored; a line that is not a sample is skipped rather than failing the scrape.
 */
public final class PrometheusText {
    private PrometheusText() {
    }

    public static Map<String, Double> parse(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            // The series ends at the closing brace of its labels (label values may hold spaces), else at a space.
            int close = line.indexOf('{') >= 0 ? line.lastIndexOf('}') : -1;
            int split = line.indexOf(' ', close + 1);
            if (split <= 0) {
                continue;
            }
            String series = line.substring(0, split);
            String[] rest = line.substring(split + 1).strip().split("\\s+");
            try {
                samples.put(series, Double.parseDouble(rest[0]));
            } catch (NumberFormatException e) {
                // not a sample line: skip it
            }
        }
        return samples;
    }

    /** The metric name of a series: what precedes its labels. */
    public static String name(String series) {
        int brace = series.indexOf('{');
        return brace < 0 ? series : series.substring(0, brace);
    }
}
