package dev.toolonce.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link Event.Action#of}: the one reading of an operator's action, for every door that takes one. */
class ActionTest {
    @Test
    void anActionIsReadInAnyCaseAndAnythingElseIsRefusedNamingTheFour() {
        assertThat(Event.Action.of("commit")).isEqualTo(Event.Action.COMMIT);
        assertThat(Event.Action.of("Compensate")).isEqualTo(Event.Action.COMPENSATE);
        assertThat(Event.Action.of("RETRY")).isEqualTo(Event.Action.RETRY);
        assertThatThrownBy(() -> Event.Action.of("undo")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("commit, retry, fail, compensate").hasMessageContaining("undo");
        assertThatThrownBy(() -> Event.Action.of(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
