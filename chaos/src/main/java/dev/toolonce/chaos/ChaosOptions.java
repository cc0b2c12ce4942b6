package dev.toolonce.chaos;

import dev.toolonce.chaos.faults.Catalogue;
import dev.toolonce.chaos.stack.Ports;
import dev.toolonce.security.kafka.KafkaClientSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The command line of {@code ./toolonce chaos}.
 *
 * @param perFault       rounds per fault, each injecting it at least once ({@code --per-fault}, default 20)
 * @param faults         the faults to run, in catalogue order ({@code --faults a,b}; default all, or the smoke set)
 * @param unsafeBaseline run against the naive executor instead of ToolOnce's ({@code --unsafe-baseline})
 * @param json           where to write the figures, or null
 * @param html           where to write the self-contained report, or null
 * @param compare        a baseline's JSON to show beside this run in the HTML report, or null
 * @param home           the experiment's TOOLONCE_HOME ({@code --home}, default {@code <repo>/.local/chaos})
 * @param repo           the repository root holding the jars and deploy/local/stack.sh
 * @param ports          the experiment's ports ({@code --port-base}, default 22400)
 * @param rate           calls started per second by the workload ({@code --rate}, default 8)
 * @param quiesce        how long a round may take to quiesce before what is missing counts ({@code --quiesce-timeout})
 * @param keep           leave the stack running afterwards ({@code --keep})
 * @param kafka          what the experiment's own Kafka clients (workload, results watch, naive executor) add to their
 *                       settings ({@code --kafka-config FILE}, default the file {@code TOOLONCE_KAFKA_CONFIG} names)
 * @param jvmOptions     added to the command line of every service JVM of the stack ({@code --jvm-option OPT},
 *                       repeatable; none by default). The test command's smoke round passes
 *                       {@code -XX:TieredStopAtLevel=1}: the services then start on about half the CPU and run slower,
 *                       which changes no outcome but makes the round's timings unfit as figures.
 */
public record ChaosOptions(int perFault, List<String> faults, boolean unsafeBaseline, Path json, Path html,
                           Path compare, Path home, Path repo, Ports ports, int rate, Duration quiesce, boolean keep,
                           KafkaClientSettings kafka, List<String> jvmOptions) {

    static final String USAGE = """
            usage: ./toolonce chaos [--per-fault N] [--faults a,b,c] [--smoke] [--unsafe-baseline]
                                    [--json FILE] [--html FILE] [--compare BASELINE.json] [--rate CALLS_PER_S]
                                    [--port-base P] [--home DIR] [--quiesce-timeout SECONDS] [--keep]
                                    [--kafka-config FILE] [--jvm-option OPT]...
              --per-fault N      rounds per fault, each injecting it (default 20)
              --faults a,b       run only these faults (default: all); --faults list prints them
              --smoke            1 round of a few faults (%s), about 3 minutes
              --unsafe-baseline  the same workload and faults against a naive executor (unique key + blind retry):
                                 its report must show duplicate side effects
              --compare FILE     a baseline's --json, drawn beside this run in --html
              --kafka-config F   a Kafka client .properties file (security.protocol, sasl.*, ssl.*) added to the
                                 experiment's own Kafka clients (default: TOOLONCE_KAFKA_CONFIG; none)
              --jvm-option OPT   added to every service JVM of the stack, e.g. -XX:TieredStopAtLevel=1 for a quicker
                                 start (repeatable; the timings then are not figures to compare)
            Exit status: 1 on any duplicate side effect, lost or stuck call, or a fault that never fired
            (with --unsafe-baseline: 1 when it shows no duplicate, i.e. the faults were not sharp enough).
            """.formatted(String.join(",", Catalogue.smoke()));

    /** {@link #parse(List, Path, Map)} with this process's environment. */
    public static ChaosOptions parse(List<String> args, Path repo) {
        return parse(args, repo, System.getenv());
    }

    /**
     * @param env the environment ({@code TOOLONCE_KAFKA_CONFIG})
     * @throws IllegalArgumentException naming the bad option
     */
    public static ChaosOptions parse(List<String> args, Path repo, Map<String, String> env) {
        int perFault = 20;
        List<String> faults = null;
        boolean smoke = false;
        boolean baseline = false;
        Path json = null;
        Path html = null;
        Path compare = null;
        Path home = repo.resolve(".local").resolve("chaos");
        int portBase = Ports.DEFAULT_BASE;
        int rate = 8;
        Duration quiesce = Duration.ofSeconds(180);
        boolean keep = false;
        String kafkaConfig = env.get(KafkaClientSettings.ENV);
        String kafkaConfigFrom = KafkaClientSettings.ENV;
        List<String> jvmOptions = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--per-fault" -> perFault = positive(a, value(args, ++i, a));
                case "--faults" -> faults = List.of(value(args, ++i, a).split(","));
                case "--smoke" -> smoke = true;
                case "--unsafe-baseline" -> baseline = true;
                case "--json" -> json = Path.of(value(args, ++i, a));
                case "--html" -> html = Path.of(value(args, ++i, a));
                case "--compare" -> compare = Path.of(value(args, ++i, a));
                case "--home" -> home = Path.of(value(args, ++i, a)).toAbsolutePath();
                case "--port-base" -> portBase = positive(a, value(args, ++i, a));
                case "--rate" -> rate = positive(a, value(args, ++i, a));
                case "--quiesce-timeout" -> quiesce = Duration.ofSeconds(positive(a, value(args, ++i, a)));
                case "--keep" -> keep = true;
                case "--jvm-option" -> jvmOptions.add(jvmOption(value(args, ++i, a)));
                case "--kafka-config" -> {
                    kafkaConfig = value(args, ++i, a);
                    kafkaConfigFrom = a;
                }
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (smoke) {
            perFault = 1;
        }
        if (faults == null) {
            faults = smoke ? Catalogue.smoke() : baseline ? Catalogue.baseline() : new ArrayList<>(Catalogue.all().keySet());
        }
        Map<String, ?> known = Catalogue.all();
        for (String f : faults) {
            if (!known.containsKey(f)) {
                throw new IllegalArgumentException("unknown fault '" + f + "'; known: " + String.join(",", known.keySet()));
            }
        }
        List<String> ordered = known.keySet().stream().filter(faults::contains).toList();
        return new ChaosOptions(perFault, ordered, baseline, json, html, compare, home, repo, Ports.from(portBase),
                rate, quiesce, keep, kafkaSettings(kafkaConfig, kafkaConfigFrom), List.copyOf(jvmOptions));
    }

    /** A JVM option, never a program argument: it goes before {@code -jar}, where anything else would change the jar. */
    private static String jvmOption(String value) {
        if (!value.startsWith("-X") && !value.startsWith("-D")) {
            throw new IllegalArgumentException("--jvm-option takes a -X or -D option, was '" + value + "'");
        }
        return value;
    }

    private static KafkaClientSettings kafkaSettings(String file, String from) {
        try {
            return KafkaClientSettings.fromEnvironment(file == null ? Map.of() : Map.of(KafkaClientSettings.ENV, file));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(from + ": " + e.getMessage(), e);
        }
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }

    private static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(option + " must be a positive integer, was '" + value + "'");
    }
}
