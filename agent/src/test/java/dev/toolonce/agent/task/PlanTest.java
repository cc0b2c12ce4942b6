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
    void aDryRunIsAcceptedOnlyWhereTheToolDeclaresOneAndTheRefusalNamesTheStep() {
        DryRunCatalog catalog = DryRunCatalog.of(java.util.List.of("payments/charge"));
        Plan ok = Plan.of("acme", "t1", step("reserve", "tickets", "create").withCompensation(),
                step("charge", "payments", "charge").withDryRun().withCompensation());
        assertThatCode(() -> ok.check(catalog)).doesNotThrowAnyException();
        assertThatThrownBy(() -> ok.check()).isInstanceOf(PlanRefusedException.class)
                .hasMessageContaining("step 'charge' asks for a dry run")
                .hasMessageContaining("tool 'payments' declares no dry run of operation 'charge'");
        Plan other = Plan.of("acme", "t1", step("reserve", "tickets", "create").withDryRun());
        assertThatThrownBy(() -> other.check(catalog)).isInstanceOf(PlanRefusedException.class)
                .hasMessageContaining("step 'reserve'").hasMessageContaining("tool 'tickets'");
        assertThatThrownBy(() -> Plan.of("acme", "t1", step("a.dry-run", "payments", "charge")).check(catalog))
                .hasMessageContaining("not end in .compensate or .dry-run");
        String longOp = "o".repeat(60);
        assertThatThrownBy(() -> Plan.of("acme", "t1", step("a", "x", longOp).withDryRun())
                .check(DryRunCatalog.of(java.util.List.of("x/" + longOp))))
                .isInstanceOf(PlanRefusedException.class).hasMessageStartingWith("step 'a': its dry run cannot be named");
    }

    @Test
    void aDryRunCatalogTakesToolSlashOperationEntriesOnly() {
        assertThat(DryRunCatalog.of(java.util.List.of("payments/charge")).declares("payments", "charge")).isTrue();
        assertThat(DryRunCatalog.of(java.util.List.of("payments/charge")).declares("payments", "refund")).isFalse();
        assertThat(DryRunCatalog.NONE.declares("payments", "charge")).isFalse();
        assertThatThrownBy(() -> DryRunCatalog.of(java.util.List.of("payments.charge")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tool/operation");
        assertThatThrownBy(() -> DryRunCatalog.of(java.util.List.of("a/b/c"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theDryRunKeyIsTheKeyOfItsOwnStepIdAtTheSameVersion() {
        assertThat(StepKeys.dryRunKey("acme", "order-7", "charge", 2)).isEqualTo("acme:order-7:charge.dry-run:2");
    }

    @Test
    void stepKeysAreDerivedFromTenantTaskStepAndVersion() {
        assertThat(StepKeys.key("acme", "order-7", "charge", 1)).isEqualTo("acme:order-7:charge:1");
        assertThat(StepKeys.key("acme", "order-7", "charge", 2)).isNotEqualTo(StepKeys.key("acme", "order-7", "charge", 1));
        assertThatThrownBy(() -> StepKeys.key("acme", "t".repeat(200), "s".repeat(60), 1))
                .isInstanceOf(PlanRefusedException.class);
    }
}
