package dev.toolonce.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ComparisonTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final String EARLIER = """
            {"runId": "before", "commit": {"commitsPerSecond": 2000.0},
             "burst": {"callsPerSecond": 400.0,
                       "resources": [{"component": "postgres", "cpuSecondsPer1000": 1.5, "part": false},
                                     {"component": "walsenders", "cpuSecondsPer1000": 0.25, "part": true},
                                     {"component": "tool-executor", "cpuSecondsPer1000": 2.5, "part": false}],
                       "statements": {"statementsPerCall": 2.0, "commitsPerCall": 0.6}},
             "loads": {"steps": [{"offeredPerSecond": 500.0, "achievedPerSecond": 350.0,
                                  "latency": {"p50": 6000.0, "p99": 8000.0}}], "kneePerSecond": null}}
            """;
    private static final String NOW = """
            {"runId": "after", "commit": {"commitsPerSecond": 2000.0},
             "burst": {"callsPerSecond": 1600.0,
                       "resources": [{"component": "postgres", "cpuSecondsPer1000": 0.3, "part": false},
                                     {"component": "walsenders", "cpuSecondsPer1000": 0.05, "part": true},
                                     {"component": "tool-executor", "cpuSecondsPer1000": 0.5, "part": false}],
                       "statements": {"statementsPerCall": 0.5, "commitsPerCall": 0.1}},
             "loads": {"steps": [{"offeredPerSecond": 500.0, "achievedPerSecond": 500.0,
                                  "latency": {"p50": 300.0, "p99": 1200.0},
                                  "resources": [{"component": "postgres", "cpuSecondsPer1000": 1.25, "part": false},
                                                {"component": "walsenders", "cpuSecondsPer1000": 0.5, "part": true},
                                                {"component": "kafka", "cpuSecondsPer1000": 0.75, "part": false}],
                                  "statements": {"statementsPerCall": 7.5, "commitsPerCall": 2.5}}],
                       "kneePerSecond": 250.0},
             "awaitable": {"callsPerSecond": 180.0, "latency": {"p99": 90.0}}}
            """;

    private static Map<String, Comparison.Row> rows(String earlier, String now) {
        JsonNode e = JSON.readTree(earlier);
        JsonNode n = JSON.readTree(now);
        return Comparison.of(n, e).rows().stream()
                .collect(Collectors.toMap(Comparison.Row::figure, Function.identity()));
    }

    @Test
    void figuresOfBothRunsStandSideBySideWithTheirRatio() {
        Map<String, Comparison.Row> rows = rows(EARLIER, NOW);

        assertThat(rows.get("burst, calls/s").ratio()).isEqualTo(4.0);
        // the walsenders are a part of postgres: counted on their own line, not twice in the sum
        assertThat(rows.get("burst, CPU-ms per call, all components").earlier()).isEqualTo(4.0);
        assertThat(rows.get("burst, CPU-ms per call, all components").now()).isEqualTo(0.8);
        assertThat(rows.get("burst, CPU-ms per call: walsenders").now()).isEqualTo(0.05);
        assertThat(rows.get("loads 500/s offered, p50 ms").ratio()).isEqualTo(0.05);
        assertThat(rows.get("burst, SQL statements per call").ratio()).isEqualTo(0.25);
        assertThat(rows.get("loads 500/s offered, CPU-ms per call, all components").now()).isEqualTo(2.0);
        assertThat(rows.get("loads 500/s offered, commits per call").now()).isEqualTo(2.5);
    }

    @Test
    void aFigureOneRunLacksIsShownAsMissingNeverGuessed() {
        Map<String, Comparison.Row> rows = rows(EARLIER, NOW);

        assertThat(rows.get("awaitable calls/s").earlier()).isNull();
        assertThat(rows.get("awaitable calls/s").ratio()).isNull();
        assertThat(rows.get("loads, knee calls/s").earlier()).isNull(); // null in the earlier JSON
        // a run from before the loads measured their cost
        assertThat(rows.get("loads 500/s offered, CPU-ms per call, all components").earlier()).isNull();
        assertThat(rows).doesNotContainKey("relay backlog drained, events/s"); // neither run has it
    }

    @Test
    void aBurstWithAComponentUnmeasuredHasNoTotalButKeepsTheComponentsMeasured() {
        String restarted = NOW.replace("{\"component\": \"tool-executor\", \"cpuSecondsPer1000\": 0.5, \"part\": false}",
                "{\"component\": \"tool-executor\", \"cpuSecondsPer1000\": null, \"part\": false}");
        assertThat(restarted).isNotEqualTo(NOW);
        Map<String, Comparison.Row> rows = rows(EARLIER, restarted);

        assertThat(rows.get("burst, CPU-ms per call, all components").now()).isNull();
        assertThat(rows.get("burst, CPU-ms per call, all components").earlier()).isEqualTo(4.0);
        assertThat(rows.get("burst, CPU-ms per call: postgres").now()).isEqualTo(0.3);
        assertThat(rows.get("burst, CPU-ms per call: tool-executor").now()).isNull();
    }

    @Test
    void theMarkSaysWhetherARatioIsAnImprovement() {
        JsonNode e = JSON.readTree(EARLIER);
        JsonNode n = JSON.readTree(NOW);
        Map<String, String> ratio = Comparison.of(n, e).cells().stream()
                .collect(Collectors.toMap(c -> c[0], c -> c[3]));

        assertThat(ratio.get("burst, calls/s")).isEqualTo("4.00 +"); // a rate that rose
        assertThat(ratio.get("loads 500/s offered, p99 ms")).isEqualTo("0.15 +"); // a latency that fell
        assertThat(ratio.get("commit probe (the ceiling), commits/s")).isEqualTo("1.00");
        assertThat(Comparison.of(e, n).cells().stream().filter(c -> c[0].equals("burst, calls/s")).findFirst()
                .orElseThrow()[3]).isEqualTo("0.25 -"); // the other way round: worse
        assertThat(ratio.get("awaitable calls/s")).isEqualTo("-");
    }
}
