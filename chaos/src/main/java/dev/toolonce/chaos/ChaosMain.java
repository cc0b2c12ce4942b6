package dev.toolonce.chaos;

import dev.toolonce.chaos.naive.NaiveExecutor;
import dev.toolonce.chaos.report.ChaosReport;
import dev.toolonce.chaos.report.HtmlReport;
import dev.toolonce.chaos.report.TableReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./toolonce chaos [options]} (see {@link ChaosOptions#USAGE}); {@code naive-executor …} runs the unsafe
 * baseline's executor ({@link NaiveExecutor}) from the same jar.
 */
public final class ChaosMain {
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ChaosMain() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("logback.configurationFile", "chaos-logback.xml");
        List<String> list = Arrays.asList(args);
        if (!list.isEmpty() && list.get(0).equals("naive-executor")) {
            NaiveExecutor.main(list.subList(1, list.size()));
            return;
        }
        if (list.contains("--help") || list.contains("-h")) {
            System.out.print(ChaosOptions.USAGE);
            return;
        }
        ChaosOptions options;
        try {
            options = ChaosOptions.parse(list, repoRoot());
        } catch (IllegalArgumentException e) {
            System.err.println("chaos: " + e.getMessage());
            System.err.print(ChaosOptions.USAGE);
            System.exit(2);
            return;
        }
        ChaosReport report = Chaos.run(options);
        write(report, options);
        System.exit(report.passed() ? 0 : 1);
    }

    /** Prints the table and writes {@code --json} and {@code --html}. */
    public static void write(ChaosReport report, ChaosOptions options) throws Exception {
        TableReport.print(report, System.out);
        if (options.json() != null) {
            Files.writeString(options.json(), JSON.writeValueAsString(report));
            System.out.println("[chaos] figures written to " + options.json());
        }
        if (options.html() != null) {
            JsonNode baseline = options.compare() == null ? null : JSON.readTree(Files.readString(options.compare()));
            HtmlReport.write(report, baseline, options.html());
            System.out.println("[chaos] report written to " + options.html());
        }
    }

    /** {@code TOOLONCE_ROOT}, else the nearest directory above the working directory holding {@code ./toolonce}. */
    static Path repoRoot() {
        String env = System.getenv("TOOLONCE_ROOT");
        if (env != null && !env.isBlank()) {
            return Path.of(env).toAbsolutePath();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("toolonce"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no ./toolonce above " + Path.of("").toAbsolutePath() + "; set TOOLONCE_ROOT");
    }
}
