package dev.toolonce.schemas;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the samples of a Prometheus text exposition ({@code /actuator/prometheus}). The services' meters are part
 * of what operators rely on (docs/operations.md); this reads them back, for {@code ./toolonce chaos} (which reports
 * the meters each fault moved) and for the tests that assert a meter exists and moved. Comments ({@code # HELP},
 * {@code # TYPE}) are skipped.
 */
public final class PrometheusText {
    private static final Pattern LINE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+).*");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** One sample: metric name, labels, value ({@code NaN} and {@code ±Inf} as Java doubles). */
    public record Sample(String name, Map<String, String> labels, double value) {

        /** The series as {@code name{label="value",...}}, labels in name order ({@code name} alone without labels). */
        public String series() {
            if (labels.isEmpty()) {
                return name;
            }
            StringBuilder s = new StringBuilder(name).append('{');
            new TreeMap<>(labels).forEach((k, v) -> s.append(s.charAt(s.length() - 1) == '{' ? "" : ",")
                    .append(k).append("=\"").append(v).append('"'));
            return s.append('}').toString();
        }
    }

    private PrometheusText() {
    }

    /**
     * Every sample of {@code body}, in order.
     *
     * @throws IllegalArgumentException on a line that is neither a comment nor a sample
     */
    public static List<Sample> parse(String body) {
        List<Sample> samples = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException("not a Prometheus sample: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, value(m.group(4))));
        }
        return samples;
    }

    /** The samples named {@code name} whose labels include every entry of {@code labels}. */
    public static List<Sample> samples(String body, String name, Map<String, String> labels) {
        return parse(body).stream()
                .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .toList();
    }

    /** The sum of {@link #samples}; 0 when there is none. */
    public static double sum(String body, String name, Map<String, String> labels) {
        return samples(body, name, labels).stream().mapToDouble(Sample::value).sum();
    }

    /** The metric name of a series written as {@link Sample#series()}. */
    public static String name(String series) {
        int brace = series.indexOf('{');
        return brace < 0 ? series : series.substring(0, brace);
    }

    private static double value(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }
}
