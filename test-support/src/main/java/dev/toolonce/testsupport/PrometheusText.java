package dev.toolonce.testsupport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the samples of a Prometheus text exposition ({@code /actuator/prometheus}), so that tests can
 * assert that a meter exists and moved. Comments ({@code # HELP}, {@code # TYPE}) are skipped.
 */
public final class PrometheusText {
  private static final Pattern LINE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+).*");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** One sample: metric name, labels, value ({@code NaN} and {@code ±Inf} as Java doubles). */
  public record Sample(String name, Map<String, String> labels, double value) {
  }

  private PrometheusText() {
  }

  /** Every sample of {@code body}, in order. */
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

  private static double value(String text) {
    return switch (text) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> Double.parseDouble(text);
    };
  }
}
