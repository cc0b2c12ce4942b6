package dev.toolonce.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.bench.report.LoadStepResult;
import dev.toolonce.bench.stats.LatencySummary;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadLadderTest {
    @Test
    void aLoadIsTheKneeWhenAchievedFallsBelow95PercentOrP99ExceedsTheLimit() {
        assertThat(LoadLadder.kneeReason(step(1000, 960, 240))).isNull();
        assertThat(LoadLadder.kneeReason(step(1000, 940, 100))).contains("95 %");
        assertThat(LoadLadder.kneeReason(step(1000, 1000, 251))).contains("p99 251.0 ms");
    }

    private static LoadStepResult step(double offered, double achieved, double p99) {
        return new LoadStepResult(offered, 20, 0, offered, 0, 0, 0, achieved,
                new LatencySummary(1, 1, 1, p99, p99), List.of(), null, List.of(), null);
    }
}
