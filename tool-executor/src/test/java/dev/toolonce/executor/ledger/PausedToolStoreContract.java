package dev.toolonce.executor.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link PausedToolStore} for any database with the executor's DDL (docs/adapters.md §6): the first pause's reason
 * stays; of two resumes one wins; a paused tool's calls are not claimed.
 */
abstract class PausedToolStoreContract {
    private DataSource db;
    private PausedToolStore pauses;

    /** A new database holding the executor's empty tables in {@link #schema()}. */
    protected abstract DataSource newLedger();

    protected String schema() {
        return PostgresLedgers.SCHEMA;
    }

    @BeforeEach
    void fresh() {
        db = newLedger();
        pauses = new PausedToolStore(new JdbcTemplate(db), schema());
    }

    @Test
    void aSecondPauseKeepsTheFirstReasonAndOneOfTwoResumesWins() {
        pauses.pause("payments", "HTTP 401");
        pauses.pause("payments", "HTTP 403");

        assertThat(pauses.paused()).singleElement().satisfies(row -> {
            assertThat(row).containsEntry("tool", "payments").containsEntry("reason", "HTTP 401");
            assertThat(row.get("paused_at")).isNotNull();
        });
        assertThat(pauses.resume("payments", "alice")).isTrue();
        assertThat(new PausedToolStore(new JdbcTemplate(db), schema()).resume("payments", "bob")).as("the loser")
                .isFalse();
        assertThat(pauses.paused()).isEmpty();
    }

    @Test
    void everyResumeIsAuditedUnderItsPrincipalWithTheReasonItEnded() {
        pauses.pause("payments", "HTTP 401");
        pauses.resume("payments", "alice");
        pauses.resume("payments", "bob");

        assertThat(pauses.resumes(10)).extracting(r -> r.get("principal"), r -> r.get("was_paused"), r -> r.get("reason"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple("bob", false, null),
                        org.assertj.core.groups.Tuple.tuple("alice", true, "HTTP 401"));
    }

    @Test
    void theClaimsSkipAPausedToolsCallsUntilItIsResumed() {
        ToolCallStore calls = new ToolCallStore(new JdbcTemplate(db), schema());
        CallScope scope = new CallScope("acme", "payments", "charge", "k-1");
        calls.insertPlanned(new ToolCallStore.NewCall(scope, ProviderKey.of(scope),
                new RequestHash("sha256:" + "d".repeat(64)), "{}", null, null, "m-1", null))
                .orElseThrow();
        pauses.pause("payments", "HTTP 401");

        assertThat(calls.claim("w-1", 10, Duration.ofSeconds(60))).isEmpty();
        pauses.resume("payments", "operator");
        assertThat(calls.claim("w-1", 10, Duration.ofSeconds(60))).hasSize(1);
    }
}
