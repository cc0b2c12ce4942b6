package dev.toolonce.bench;

import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.security.kafka.KafkaClientSettings;
import dev.toolonce.security.token.ClientToken;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one bench run does and where the stack is. Defaults are the full bench; {@code --smoke} shrinks every
 * size so that each phase runs in seconds (proof that it works, not a measurement); options given after it
 * still apply.
 *
 * @param phases     the phases to run
 * @param clients    commit-probe clients
 * @param seconds    duration of the commit probe, of each relay rate and of each offered load
 * @param relayRates relay-alone rates, events per second
 * @param backlog    rows of the relay backlog drain; 0 skips it
 * @param burst      intents of the end-to-end burst
 * @param loads      offered loads through the agent outbox, calls per second
 * @param perTx      intents each agent transaction of the loads publishes ({@code IntentPublisher.publishAll}); 1 is
 *                   the one-call transaction of an agent that calls one tool at a time
 * @param warmup     intents of the untimed warm-up burst before the first timed phase (then a few seconds at the
 *                   first offered load through the agent outbox); 0 skips the warm-up
 * @param awaitable  awaitable calls (ToolCalls) of the awaitable phase, one after the other
 * @param callsPoll  how often those calls' waits read their rows
 * @param timeout    longest wait for results after a run before the missing ones count as lost
 * @param json       where to write the JSON report; null for none
 * @param html       where to write the HTML report; null for none
 * @param compare    an earlier run's JSON report to show this run's figures beside; null for none
 * @param target     the stack under test
 */
public record BenchOptions(Set<Phase> phases, int clients, Duration seconds, List<Double> relayRates, int backlog,
                           int burst, List<Double> loads, int perTx, int warmup, String tool, int awaitable,
                           Duration callsPoll, Duration timeout, Path json, Path html, Path compare,
                           BenchTarget target) {

    public static final String USAGE = """
            usage: ./toolonce bench [options]
              --only PHASES       comma-separated: commit, relay, burst, loads, awaitable (e2e = burst,loads;
                                  default all)
              --smoke             tiny sizes, about a minute: proves every phase works, measures nothing
              --seconds N         duration of the commit probe, of each relay rate and of each load (20)
              --clients N         commit-probe clients (16)
              --relay-rates LIST  relay-alone rates in events/s (1000,5000)
              --backlog N         rows of the relay backlog drain, 0 to skip (50000)
              --burst N           intents of the end-to-end burst (20000)
              --loads LIST        offered loads through the agent outbox, calls/s (250,500,1000,1200,2000)
              --per-tx N          intents per agent transaction of the loads, published together with
                                  IntentPublisher.publishAll (1)
              --warmup N          intents of the untimed warm-up before the first timed phase, then up to 20 s at
                                  the first load through the agent outbox; 0 skips it (30000)
              --awaitable N       awaitable calls (ToolCalls) one after the other, each timed to its answer (200)
              --calls-poll MS     how often those calls' waits read their rows (200)
              --tool NAME         tool of the burst and the loads, operation apply: counter (writes its effect
                                  ledger into PostgreSQL) or noop (answers from memory, ToolOnce alone) (counter)
              --timeout N         seconds to wait for the last results of a run (180)
              --json FILE         write the figures as JSON
              --html FILE         write a self-contained HTML report with charts
              --compare FILE      an earlier run's --json: its figures printed (and drawn in --html) beside this run's
              --pg-url URL --kafka HOST:PORT --relay-url URL   the stack (default: PG_URL, KAFKA_BOOTSTRAP, RELAY_URL)
              --kafka-config FILE a Kafka client .properties file (security.protocol, sasl.*, ssl.*) added to every
                                  Kafka client of the bench (default: TOOLONCE_KAFKA_CONFIG; none)
              --run-dir DIR       PID files of the stack (default: $TOOLONCE_HOME/run)
              --token TOKEN       an admin API token for the relay's statistics (default: TOOLONCE_TOKEN,
                                  TOOLONCE_TOKEN_FILE or $TOOLONCE_HOME/admin.token)
              --keyring FILE      the signing keys its intents are signed with (default: TOOLONCE_SIGNING_KEYRINGFILE
                                  or $TOOLONCE_HOME/keyring)
              --pid NAME=PID      PID of a component (postgres, kafka, sandbox-tools, tool-executor,
                                  inbox-consumer, outbox-relay), overriding its PID file; repeatable
            """;

    /**
     * @param env the environment ({@code PG_URL}, {@code KAFKA_BOOTSTRAP}, {@code RELAY_URL}, {@code TOOLONCE_HOME},
     *            {@code TOOLONCE_KAFKA_CONFIG})
     * @throws IllegalArgumentException naming the option that is wrong
     */
    public static BenchOptions parse(List<String> args, Map<String, String> env) {
        Builder b = new Builder(env);
        if (args.contains("--smoke")) {
            b.smoke();
        }
        for (int i = 0; i < args.size(); i++) {
            String option = args.get(i);
            if (option.equals("--smoke")) {
                continue;
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException("unknown option or missing value: " + option);
            }
            b.set(option, args.get(++i));
        }
        return b.build();
    }

    /** The settings as one line, for the report. */
    public String describe() {
        return String.format("phases=%s clients=%d seconds=%d relayRates=%s backlog=%d burst=%d loads=%s perTx=%d warmup=%d "
                        + "tool=%s awaitable=%d callsPoll=%dms timeout=%ds", phases, clients, seconds.toSeconds(), relayRates,
                backlog, burst, loads, perTx, warmup, tool, awaitable, callsPoll.toMillis(), timeout.toSeconds());
    }

    private static final class Builder {
        Set<Phase> phases = EnumSet.allOf(Phase.class);
        int clients = 16;
        Duration seconds = Duration.ofSeconds(20);
        List<Double> relayRates = List.of(1000.0, 5000.0);
        int backlog = 50_000;
        int burst = 20_000;
        // 1,200: the knee target (docs/performance.md); the knee is the first load that fails
        List<Double> loads = List.of(250.0, 500.0, 1000.0, 1200.0, 2000.0);
        int perTx = 1;
        int warmup = 30_000;
        String tool = "counter";
        int awaitable = 200;
        Duration callsPoll = Duration.ofMillis(200);
        Duration timeout = Duration.ofSeconds(180);
        Path json;
        Path html;
        Path compare;
        String pgUrl;
        String kafka;
        String relayUrl;
        Path runDir;
        String authorization;
        Path keyring;
        String kafkaConfig;
        String kafkaConfigFrom = KafkaClientSettings.ENV;
        final Map<String, Long> pids = new HashMap<>();

        Builder(Map<String, String> env) {
            pgUrl = env.getOrDefault("PG_URL", "jdbc:postgresql://127.0.0.1:25432/toolonce");
            kafka = env.getOrDefault("KAFKA_BOOTSTRAP", "127.0.0.1:29092");
            relayUrl = env.getOrDefault("RELAY_URL", "http://127.0.0.1:18082");
            runDir = Path.of(env.getOrDefault("TOOLONCE_HOME", ".local"), "run");
            authorization = ClientToken.header(env).orElse(null);
            keyring = Path.of(env.getOrDefault(Keyring.ENVIRONMENT,
                    Path.of(env.getOrDefault("TOOLONCE_HOME", ".local"), "keyring").toString()));
            kafkaConfig = env.get(KafkaClientSettings.ENV);
        }

        void smoke() {
            seconds = Duration.ofSeconds(3);
            relayRates = List.of(100.0, 300.0);
            backlog = 2_000;
            burst = 300;
            loads = List.of(50.0, 100.0);
            warmup = 100;
            awaitable = 10;
            timeout = Duration.ofSeconds(60);
        }

        void set(String option, String value) {
            switch (option) {
                case "--only" -> phases = Phase.parse(value);
                case "--seconds" -> seconds = Duration.ofSeconds(positive(option, value));
                case "--clients" -> clients = (int) positive(option, value);
                case "--relay-rates" -> relayRates = rates(option, value);
                case "--backlog" -> backlog = (int) nonNegative(option, value);
                case "--burst" -> burst = (int) positive(option, value);
                case "--loads" -> loads = rates(option, value);
                case "--per-tx" -> perTx = (int) positive(option, value);
                case "--warmup" -> warmup = (int) nonNegative(option, value);
                case "--tool" -> tool = value;
                case "--awaitable" -> awaitable = (int) positive(option, value);
                case "--calls-poll" -> callsPoll = Duration.ofMillis(positive(option, value));
                case "--timeout" -> timeout = Duration.ofSeconds(positive(option, value));
                case "--json" -> json = Path.of(value);
                case "--html" -> html = Path.of(value);
                case "--compare" -> compare = Path.of(value);
                case "--pg-url" -> pgUrl = value;
                case "--kafka" -> kafka = value;
                case "--kafka-config" -> {
                    kafkaConfig = value;
                    kafkaConfigFrom = option;
                }
                case "--relay-url" -> relayUrl = value;
                case "--run-dir" -> runDir = Path.of(value);
                case "--token" -> authorization = "Bearer " + value;
                case "--keyring" -> keyring = Path.of(value);
                case "--pid" -> pid(value);
                default -> throw new IllegalArgumentException("unknown option " + option);
            }
        }

        private void pid(String value) {
            String[] nameAndPid = value.split("=", 2);
            if (nameAndPid.length != 2) {
                throw new IllegalArgumentException("--pid wants NAME=PID, got '" + value + "'");
            }
            pids.put(nameAndPid[0], positive("--pid " + nameAndPid[0], nameAndPid[1]));
        }

        private static long positive(String option, String value) {
            long n = nonNegative(option, value);
            if (n == 0) {
                throw new IllegalArgumentException(option + " must be above 0");
            }
            return n;
        }

        private static long nonNegative(String option, String value) {
            try {
                long n = Long.parseLong(value.trim());
                if (n < 0) {
                    throw new IllegalArgumentException(option + " must not be negative, got " + value);
                }
                return n;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " wants a whole number, got '" + value + "'");
            }
        }

        private static List<Double> rates(String option, String value) {
            return Arrays.stream(value.split(",")).map(v -> (double) positive(option, v)).toList();
        }

        BenchOptions build() {
            return new BenchOptions(phases, clients, seconds, relayRates, backlog, burst, loads, perTx, warmup, tool,
                    awaitable, callsPoll, timeout, json, html, compare,
                    new BenchTarget(pgUrl, kafka, relayUrl, runDir, Map.copyOf(pids), authorization, kafkaSettings(), keyring));
        }

        private KafkaClientSettings kafkaSettings() {
            try {
                return KafkaClientSettings.fromEnvironment(kafkaConfig == null ? Map.of()
                        : Map.of(KafkaClientSettings.ENV, kafkaConfig));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(kafkaConfigFrom + ": " + e.getMessage(), e);
            }
        }
    }
}
