package dev.toolonce.executor.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.core.lifecycle.Move;
import dev.toolonce.executor.ledger.ToolCallCompensations.HeldCompensation;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The compensation holds of {@link ToolCallStore} for any database with the ledger's DDL (docs/protocol.md §17): a
 * held compensation is invisible to claims until one release makes it due; a second release, or a hold of a claimed
 * call, loses.
 */
abstract class ToolCallStoreCompensationContract {
    private static final Duration LEASE = Duration.ofSeconds(60);

    private DataSource db;
    private ToolCallStore calls;
    private ToolCallCompensations holds;
    private ToolCallClaims claims;

    /** A new database holding an empty ledger in {@link #schema()}. */
    protected abstract DataSource newLedger();

    protected String schema() {
        return PostgresLedgers.SCHEMA;
    }

    @BeforeEach
    void freshLedger() {
        db = newLedger();
        calls = new ToolCallStore(new JdbcTemplate(db), schema());
        claims = new ToolCallClaims(new JdbcTemplate(db), schema());
        holds = new ToolCallCompensations(new JdbcTemplate(db), schema());
    }

    private ToolCall plan(String operation) {
        CallScope scope = new CallScope("acme", "payments", operation, "k-1");
        return calls.insertPlanned(new ToolCallStore.NewCall(scope, ProviderKey.of(scope),
                new RequestHash("sha256:" + "c".repeat(64)), "{}", "task", "1", "m-" + operation, null)).orElseThrow();
    }

    @Test
    void aHeldCompensationIsNotClaimedUntilReleasedAndIsReleasedOnce() {
        ToolCall compensation = plan("charge.compensate");

        assertThat(holds.holdCompensation(compensation.id())).isTrue();
        assertThat(holds.heldCompensations(10)).extracting(HeldCompensation::id).containsExactly(compensation.id());
        assertThat(claims.claim("w-1", 10, LEASE)).as("held back from the dispatcher").isEmpty();

        assertThat(holds.releaseCompensation(compensation.id())).isTrue();
        assertThat(holds.releaseCompensation(compensation.id())).as("the second release loses").isFalse();
        assertThat(holds.heldCompensations(10)).isEmpty();
        assertThat(claims.claim("w-1", 10, LEASE)).extracting(ToolCall::id).containsExactly(compensation.id());
    }

    @Test
    void aCallAlreadyClaimedCannotBeHeld() {
        ToolCall compensation = plan("charge.compensate");
        claims.claim("w-1", 10, LEASE);

        assertThat(holds.holdCompensation(compensation.id())).isFalse();
        assertThat(calls.findById(compensation.id())).get().extracting(ToolCall::state).isEqualTo(CallState.STARTED);
    }

    @Test
    void anOriginalUnderCompensationIsSettledOnlyOnceItsCompensationHasAFinalOutcome() {
        ToolCall original = plan("charge");
        ToolCall started = claims.claim("w-1", 1, LEASE).get(0);
        ToolCall committed = calls.finish(started, CallState.STARTED, new Move.Commit("ch_1", "{}")).orElseThrow();
        calls.finish(committed, CallState.COMMITTED, new Move.Compensate(null, null, null)).orElseThrow();
        ToolCall compensation = plan("charge.compensate");

        assertThat(holds.settledCompensations(10)).as("its compensation is still planned").isEmpty();

        ToolCall running = claims.claim("w-2", 1, LEASE).get(0);
        assertThat(running.id()).isEqualTo(compensation.id());
        calls.finish(running, CallState.STARTED, new Move.Commit("rf_1", "{}")).orElseThrow();

        assertThat(holds.settledCompensations(10)).singleElement().satisfies(p -> {
            assertThat(p.original()).isEqualTo(original.scope());
            assertThat(p.compensationState()).isEqualTo(CallState.COMMITTED);
        });
    }
}
