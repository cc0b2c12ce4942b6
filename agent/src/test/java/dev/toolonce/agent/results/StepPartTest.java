package dev.toolonce.agent.results;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The contract's names of a step's parts, made and read in one place (docs/contract.md, docs/agent-tasks.md). */
class StepPartTest {

    @Test
    void theWireNamesOfEachPartAreTheContracts() {
        assertThat(StepPart.ACTION.operation("charge")).isEqualTo("charge");
        assertThat(StepPart.ACTION.stepId("pay")).isEqualTo("pay");
        assertThat(StepPart.DRY_RUN.operation("charge")).isEqualTo("charge.dry-run");
        assertThat(StepPart.DRY_RUN.stepId("pay")).isEqualTo("pay.dry-run");
        assertThat(StepPart.COMPENSATION.operation("charge")).isEqualTo("charge.compensate");
        assertThat(StepPart.COMPENSATION.stepId("pay")).isEqualTo("pay.compensate");
    }

    @ParameterizedTest
    @EnumSource(StepPart.class)
    void aPartIsReadBackFromTheNamesItMakes(StepPart part) {
        assertThat(StepPart.of(part.operation("charge"))).isEqualTo(part);
        assertThat(part.taskStepId(part.stepId("pay"))).isEqualTo("pay");
    }

    @Test
    void anOperationIsAPartOnlyWhenItEndsInTheSuffixAfterAName() {
        assertThat(StepPart.of("compensate")).isEqualTo(StepPart.ACTION);
        assertThat(StepPart.of(".compensate")).isEqualTo(StepPart.ACTION);
        assertThat(StepPart.of(".dry-run")).isEqualTo(StepPart.ACTION);
        assertThat(StepPart.of("dry-run.check")).isEqualTo(StepPart.ACTION);
    }

    @Test
    void aStepIdWithoutThePartsSuffixIsTakenAsItIs() {
        // As the engine always did: the executor echoes the intent's step id, which the agent suffixed.
        assertThat(StepPart.COMPENSATION.taskStepId("pay")).isEqualTo("pay");
        assertThat(StepPart.DRY_RUN.taskStepId("pay.compensate")).isEqualTo("pay.compensate");
        assertThat(StepPart.ACTION.taskStepId("pay.dry-run")).isEqualTo("pay.dry-run");
    }

    @Test
    void aPlansStepIdMayNotEndInAPartsSuffix() {
        assertThat(StepPart.reserved("pay.compensate")).isTrue();
        assertThat(StepPart.reserved("pay.dry-run")).isTrue();
        assertThat(StepPart.reserved("pay")).isFalse();
        assertThat(StepPart.reserved("compensate")).isFalse();
    }
}
