package dev.toolonce.chaos.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.chaos.oracle.RoundResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChaosReportTest {

    private static RoundResult round(int injections, long duplicates, long lost, long stuck, List<Long> recovery) {
        return new RoundResult("f", 1, "t", injections, "", 10, 1, 12, 2, duplicates, lost, stuck, 0, 1, 1, 0, 2, 1, 1, 1,
                recovery, 0, Map.of(), null);
    }

    private static FaultSummary summary(List<RoundResult> rounds) {
        return FaultSummary.of("f", "d", rounds, Map.of("toolonce_intake_total{disposition=\"PLANNED\"}", 12.0));
    }

    @Test
    void aCleanRunWhereEveryFaultFiredPasses() {
        FaultSummary f = summary(List.of(round(1, 0, 0, 0, List.of(30L)), round(2, 0, 0, 0, List.of(10L, 20L))));
        ChaosReport r = ChaosReport.of("toolonce", "run", 2, List.of(f), List.of(), 1);
        assertThat(r.passed()).isTrue();
        assertThat(f.injections()).isEqualTo(3);
        assertThat(f.recoveryP50()).isEqualTo(20);
        assertThat(f.recoveryP99()).isEqualTo(30);
        assertThat(r.reconciliationSuccessRate()).isEqualTo(1.0);
        assertThat(r.compensationSuccessRate()).as("1 of 2 compensations per round reached COMPENSATED").isEqualTo(0.5);
    }

    @Test
    void aRoundWithoutAnInjectionFailsTheExperimentEvenWhenNothingWentWrong() {
        FaultSummary f = summary(List.of(round(1, 0, 0, 0, List.of()), round(0, 0, 0, 0, List.of())));
        ChaosReport r = ChaosReport.of("toolonce", "run", 2, List.of(f), List.of(), 1);
        assertThat(r.problems()).containsExactly("f: the fault never fired in 1 of 2 rounds");
    }

    @Test
    void aRoundThatCouldNotBeJudgedFailsTheExperimentButKeepsItsInjection() {
        RoundResult unjudged = RoundResult.notJudged("f", 2, "t", 1, "SIGKILL", "java.io.IOException: reset");
        FaultSummary f = summary(List.of(round(1, 0, 0, 0, List.of()), unjudged));
        ChaosReport r = ChaosReport.of("toolonce", "run", 2, List.of(f), List.of(), 1);
        assertThat(unjudged.clean()).isFalse();
        assertThat(f.injections()).isEqualTo(2);
        assertThat(f.missedRounds()).isZero();
        assertThat(r.problems()).containsExactly("f: 1 of 2 rounds could not be judged");
    }

    @Test
    void duplicatesLostAndStuckEachFailAToolOnceRun() {
        FaultSummary f = summary(List.of(round(1, 2, 3, 4, List.of())));
        ChaosReport r = ChaosReport.of("toolonce", "run", 1, List.of(f), List.of(), 1);
        assertThat(r.problems()).containsExactly("2 duplicate side effects", "3 lost calls", "4 stuck calls or sagas");
        assertThat(r.duplicateSideEffectRate()).isEqualTo(0.2);
    }

    @Test
    void theUnsafeBaselineFailsWhenItShowsNoDuplicateAndPassesWhenItDoes() {
        FaultSummary clean = summary(List.of(round(1, 0, 0, 0, List.of())));
        FaultSummary dup = summary(List.of(round(1, 5, 0, 0, List.of())));
        assertThat(ChaosReport.of("unsafe-baseline", "run", 1, List.of(clean), List.of(), 1).problems())
                .singleElement().asString().contains("not sharp enough");
        assertThat(ChaosReport.of("unsafe-baseline", "run", 1, List.of(dup), List.of(), 1).passed()).isTrue();
    }

    @Test
    void percentilesOfNothingAreAbsent() {
        assertThat(FaultSummary.percentile(List.of(), 50)).isNull();
        assertThat(FaultSummary.percentile(List.of(5L), 99)).isEqualTo(5);
    }

    @Test
    void theTableSumsEachFaultsMetersByName() {
        assertThat(TableReport.byName(Map.of(
                "toolonce_intake_total{disposition=\"PLANNED\"}", 10.0,
                "toolonce_intake_total{disposition=\"REPLAYED\"}", 2.0,
                "toolonce_reconciliations_total{outcome=\"applied\"}", 1.0)))
                .isEqualTo("toolonce_intake_total=12 toolonce_reconciliations_total=1");
        assertThat(TableReport.byName(Map.of())).isEqualTo("(none)");
    }
}
