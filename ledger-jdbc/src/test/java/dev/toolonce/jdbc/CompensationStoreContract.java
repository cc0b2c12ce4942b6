package dev.toolonce.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.jdbc.CompensationStore.Held;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link CompensationStore} for any database with the ledger's DDL (docs/protocol.md §17): a held compensation
 * is invisible to claims until one release makes it due; a second release, or a hold of a claimed call, loses.
 */
abstract class CompensationStoreContract {
    private static final Duration LEASE = Duration.ofSeconds(60);

    private DataSource db;
    private ToolCallStore calls;
    private CompensationStore compensations;

    /** A new database holding an empty ledger in {@link #schema()}. */
    protected abstract DataSource newLedger();

    protected String schema() {
        return PostgresLedgers.SCHEMA;
    }

    @BeforeEach
    void freshLedger() {
        db = newLedger();
        calls = new ToolCallStore(new JdbcTemplate(db), schema());
        compensations = new CompensationStore(new JdbcTemplate(db), schema());
    }

    private ToolCall plan(String operation) {
        CallScope scope = new CallScope("acme", "payments", operation, "k-1");
        return calls.insertPlanned(new ToolCallStore.NewCall(scope, ProviderKey.of(scope),
                new RequestHash("sha256:" + "c".repeat(64)), "{}", "task", "1", "m-" + operation)).orElseThrow();
    }

    @Test
    void aHeldCompensationIsNotClaimedUntilReleasedAndIsReleasedOnce() {
        ToolCall compensation = plan("charge.compensate");

        assertThat(compensations.hold(compensation.id())).isTrue();
        assertThat(compensations.held(10)).extracting(Held::id).containsExactly(compensation.id());
        assertThat(calls.claim("w-1", 10, LEASE)).as("held back from the dispatcher").isEmpty();

        assertThat(compensations.release(compensation.id())).isTrue();
        assertThat(compensations.release(compensation.id())).as("the second release loses").isFalse();
        assertThat(compensations.held(10)).isEmpty();
        assertThat(calls.claim("w-1", 10, LEASE)).extracting(ToolCall::id).containsExactly(compensation.id());
    }

    @Test
    void aCallAlreadyClaimedCannotBeHeld() {
        ToolCall compensation = plan("charge.compensate");
        calls.claim("w-1", 10, LEASE);

        assertThat(compensations.hold(compensation.id())).isFalse();
        assertThat(calls.findById(compensation.id())).get().extracting(ToolCall::state).isEqualTo(CallState.STARTED);
    }

    @Test
    void anOriginalUnderCompensationIsSettledOnlyOnceItsCompensationHasAFinalOutcome() {
        ToolCall original = plan("charge");
        ToolCall started = calls.claim("w-1", 1, LEASE).get(0);
        ToolCall committed = calls.finish(started, CallState.STARTED, new ToolCallStore.Finish(CallState.COMMITTED,
                "ch_1", "{}", null, null, null, null, true)).orElseThrow();
        calls.finish(committed, CallState.COMMITTED, new ToolCallStore.Finish(CallState.COMPENSATING, null, null, null,
                null, null, null, false)).orElseThrow();
        ToolCall compensation = plan("charge.compensate");

        assertThat(compensations.settled(10)).as("its compensation is still planned").isEmpty();

        ToolCall running = calls.claim("w-2", 1, LEASE).get(0);
        assertThat(running.id()).isEqualTo(compensation.id());
        calls.finish(running, CallState.STARTED, new ToolCallStore.Finish(CallState.COMMITTED, "rf_1", "{}", null,
                null, null, null, true)).orElseThrow();

        assertThat(compensations.settled(10)).singleElement().satisfies(p -> {
            assertThat(p.original()).isEqualTo(original.scope());
            assertThat(p.compensationState()).isEqualTo(CallState.COMMITTED);
        });
    }
}
