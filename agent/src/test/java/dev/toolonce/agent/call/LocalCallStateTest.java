package dev.toolonce.agent.call;

import static dev.toolonce.agent.call.LocalCallState.DONE;
import static dev.toolonce.agent.call.LocalCallState.FAILED;
import static dev.toolonce.agent.call.LocalCallState.NEEDS_REVIEW;
import static dev.toolonce.agent.call.LocalCallState.RUNNING;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every (from, to) pair of {@link LocalCallState}: the moves the table allows, and no other. */
class LocalCallStateTest {
    private static final Set<String> ALLOWED = Set.of("RUNNING>DONE", "RUNNING>FAILED", "RUNNING>NEEDS_REVIEW",
            "NEEDS_REVIEW>DONE", "NEEDS_REVIEW>FAILED");

    @Test
    void onlyTheDrawnMovesAreAllowed() {
        for (LocalCallState from : LocalCallState.values()) {
            for (LocalCallState to : LocalCallState.values()) {
                assertThat(from.canMoveTo(to)).as(from + " > " + to).isEqualTo(ALLOWED.contains(from + ">" + to));
            }
        }
    }

    @Test
    void theGuardOfAMoveIsEveryStateThatMayMakeIt() {
        assertThat(LocalCallState.from(DONE)).containsExactly(RUNNING, NEEDS_REVIEW);
        assertThat(LocalCallState.from(FAILED)).containsExactly(RUNNING, NEEDS_REVIEW);
        assertThat(LocalCallState.from(NEEDS_REVIEW)).containsExactly(RUNNING);
        assertThat(LocalCallState.from(RUNNING)).as("nothing moves back to running").isEmpty();
    }
}
