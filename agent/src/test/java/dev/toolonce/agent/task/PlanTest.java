package dev.toolonce.agent.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class PlanTest {
    private static StepSpec step(String id, String tool, String op) {
        return StepSpec.of(id, tool, op, JsonNodeFactory.instance.objectNode());
    }

    @Test
    void anIrreversibleStepBeforeACompensableOneIsRefusedNamingBoth() {
        Plan plan = Plan.of("acme", "t1", step("reserve", "tickets", "create").withCompensation(),
                step("email", "email", "send").asIrreversible(), step("charge", "payments", "charge").withCompensation());
        assertThatThrownBy(plan::check).isInstanceOf(PlanRefusedException.class)
                .hasMessageContaining("irreversible step 'email'").hasMessageContaining("compensable step 'charge'");
    }

    @Test
    void irreversibleStepsLastAreAccepted() {
        Plan plan = Plan.of("acme", "t1", step("reserve", "tickets", "create").withCompensation(),
                step("charge", "payments", "charge").withCompensation(), step("email", "email", "send").asIrreversible());
        assertThatCode(plan::check).doesNotThrowAnyException();
    }

    @Test
    void duplicateAndReservedStepIdsAreRefused() {
        assertThatThrownBy(Plan.of("acme", "t1", step("a", "x", "y"), step("a", "x", "y"))::check)
                .hasMessageContaining("'a' appears twice");
        assertThatThrownBy(Plan.of("acme", "t1", step("a.compensate", "x", "y"))::check)
                .hasMessageContaining("not end in .compensate");
        assertThatThrownBy(Plan.of("acme", "t1", step("a", "x", "y").withCompensation().asIrreversible())::check)
                .hasMessageContaining("both compensable and irreversible");
    }

    @Test
    void stepKeysAreDerivedFromTenantTaskStepAndVersion() {
        assertThat(StepKeys.key("acme", "order-7", "charge", 1)).isEqualTo("acme:order-7:charge:1");
        assertThat(StepKeys.key("acme", "order-7", "charge", 2)).isNotEqualTo(StepKeys.key("acme", "order-7", "charge", 1));
        assertThatThrownBy(() -> StepKeys.key("acme", "t".repeat(200), "s".repeat(60), 1))
                .isInstanceOf(PlanRefusedException.class);
    }
}
