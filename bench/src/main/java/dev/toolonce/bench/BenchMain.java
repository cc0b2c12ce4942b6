package dev.toolonce.bench;

import dev.toolonce.bench.report.BenchReport;
import dev.toolonce.bench.report.Comparison;
import dev.toolonce.bench.report.HtmlReport;
import dev.toolonce.bench.report.JsonReport;
import dev.toolonce.bench.report.TableReport;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

/**
 * {@code ./toolonce bench}: runs the bench against the running stack, prints the table, writes the JSON and
 * HTML reports asked for. Exits 0 when nothing was lost, 1 when a call or event never came out, 2 on a usage
 * error.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        // Not logback.xml: the system tests put this module on the services' classpath too.
        System.setProperty("logback.configurationFile", "bench-logback.xml");
        List<String> arguments = List.of(args);
        if (arguments.contains("--help") || arguments.contains("-h")) {
            System.out.print(BenchOptions.USAGE);
            return;
        }
        BenchOptions options;
        try {
            options = BenchOptions.parse(arguments, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(BenchOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options.compare() != null && !Files.isReadable(options.compare())) {
            System.err.println("--compare: cannot read " + options.compare()); // before the run, not after it
            System.exit(2);
            return;
        }
        BenchReport report = Bench.run(options);
        System.out.println();
        new TableReport(report).print(System.out);
        Comparison comparison = null;
        if (options.compare() != null) {
            try {
                comparison = Comparison.of(report, options.compare());
                comparison.lines().forEach(System.out::println);
            } catch (IOException e) {
                System.out.println("compare: " + e.getMessage()); // the run's own figures stand; say why none beside
            }
        }
        if (options.json() != null) {
            JsonReport.write(report, options.json());
            System.out.println("json: " + options.json().toAbsolutePath());
        }
        if (options.html() != null) {
            HtmlReport.write(report, comparison, options.html());
            System.out.println("html: " + options.html().toAbsolutePath());
        }
        System.exit(report.lost() == 0 ? 0 : 1);
    }
}
