package dev.toolonce.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.bench.stats.LatencySummary;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadStepResultTest {
    @Test
    void aLoadsCostLineSumsWholeComponentsAndShowsTheWalsendersWithinPostgres() {
        LatencySummary l = new LatencySummary(1, 1, 1, 1, 1);
        LoadStepResult measured = new LoadStepResult(150, 20, 3000, 150, 3000, 0, 0, 150, l, List.of(), null,
                List.of(new ResourceUse("postgres", 9, 6.0, 2.0, 100, 100.0, null),
                        new ResourceUse("postgres walsenders", 2, 1.5, 0.5, 10, 10.0, null),
                        new ResourceUse("tool-executor", 1, 3.0, 1.0, 300, 300.0, null)),
                new StatementUse(12.0, 4.06, 0.0, List.of(), null));

        assertThat(measured.cpuMillisPerCall()).isEqualTo(3.0);
        assertThat(measured.costLine()).isEqualTo("per answered call: 3.00 CPU-ms (postgres 2.00, of which"
                + " walsenders 0.50, tool-executor 1.00); 12.0 statements, 4.06 commits");

        LoadStepResult restarted = new LoadStepResult(150, 20, 3000, 150, 3000, 0, 0, 150, l, List.of(), null,
                List.of(ResourceUse.gone("tool-executor", 300)), StatementUse.unavailable("no extension"));
        assertThat(restarted.cpuMillisPerCall()).as("a component not measured leaves no total").isNull();
        assertThat(restarted.costLine()).isEqualTo("per answered call: CPU not measured");
    }
}
