package dev.toolonce.executor.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link PausedToolStore} for any database with the executor's DDL (docs/adapters.md §6): a pause belongs to one
 * tenant or to every tenant ('*'); the first pause's reason stays; of two resumes one wins, and a resume lifts its own
 * pause only; the claims skip a call whose tool is paused for its tenant or for '*', and only such a call; every
 * resume is audited with its tenant; the lists show a tenant's pauses and resumes and those of '*'.
 */
abstract class PausedToolStoreContract {
    private static final String EVERY = PausedToolStore.EVERY_TENANT;
    private static final Duration LEASE = Duration.ofSeconds(60);
    private DataSource db;
    private PausedToolStore pauses;
    private ToolCallStore calls;
    private ToolCallClaims claims;

    /** A new database holding the executor's empty tables in {@link #schema()}. */
    protected abstract DataSource newLedger();

    protected String schema() {
        return PostgresLedgers.SCHEMA;
    }

    @BeforeEach
    void fresh() {
        db = newLedger();
        pauses = new PausedToolStore(new JdbcTemplate(db), schema());
        calls = new ToolCallStore(new JdbcTemplate(db), schema());
        claims = new ToolCallClaims(new JdbcTemplate(db), schema());
    }

    private void plan(String tenant, String tool, String key) {
        CallScope scope = new CallScope(tenant, tool, "charge", key);
        calls.insertPlanned(new ToolCallStore.NewCall(scope, ProviderKey.of(scope),
                new RequestHash("sha256:" + "d".repeat(64)), "{}", null, null, "m-" + tenant + key, null)).orElseThrow();
    }

    private List<String> claimed() {
        return claims.claim("w-1", 10, LEASE).stream().map(c -> c.scope().tenantId() + "/" + c.scope().tool()).toList();
    }

    @Test
    void aSecondPauseKeepsTheFirstReasonAndOneOfTwoResumesWins() {
        pauses.pause("payments", EVERY, "HTTP 401");
        pauses.pause("payments", EVERY, "HTTP 403");

        assertThat(pauses.paused(null)).singleElement().satisfies(row -> {
            assertThat(row).containsEntry("tool", "payments").containsEntry("tenant_id", "*")
                    .containsEntry("reason", "HTTP 401");
            assertThat(row.get("paused_at")).isNotNull();
        });
        assertThat(pauses.resume("payments", EVERY, "alice")).isTrue();
        assertThat(new PausedToolStore(new JdbcTemplate(db), schema()).resume("payments", EVERY, "bob"))
                .as("the loser").isFalse();
        assertThat(pauses.paused(null)).isEmpty();
    }

    @Test
    void aToolIsPausedPerTenantAndAResumeLiftsOnlyItsOwnPause() {
        pauses.pause("payments", "acme", "HTTP 401 acme");
        pauses.pause("payments", "acme", "HTTP 403 acme");
        pauses.pause("payments", "globex", "HTTP 401 globex");
        pauses.pause("payments", EVERY, "HTTP 401 shared");

        assertThat(pauses.paused(null)).extracting(r -> r.get("tenant_id"), r -> r.get("reason"))
                .containsExactly(tuple("*", "HTTP 401 shared"), tuple("acme", "HTTP 401 acme"),
                        tuple("globex", "HTTP 401 globex"));
        assertThat(pauses.resume("payments", "acme", "alice")).isTrue();
        assertThat(pauses.resume("payments", "acme", "alice")).as("resumed already").isFalse();
        assertThat(pauses.resume("payments", "initech", "alice")).as("never paused for initech").isFalse();
        assertThat(pauses.paused(null)).extracting(r -> r.get("tenant_id")).containsExactly("*", "globex");
        assertThat(pauses.resume("payments", EVERY, "root")).isTrue();
        assertThat(pauses.paused(null)).extracting(r -> r.get("tenant_id")).as("globex's own pause stays")
                .containsExactly("globex");
    }

    @Test
    void aTenantSeesItsOwnPausesAndThoseOfEveryTenantNeverAnotherTenants() {
        pauses.pause("payments", "acme", "acme's key refused");
        pauses.pause("payments", "globex", "globex's key refused");
        pauses.pause("email", EVERY, "shared key refused");

        assertThat(pauses.paused(new String[] {"acme"})).extracting(r -> r.get("tool"), r -> r.get("tenant_id"))
                .containsExactly(tuple("email", "*"), tuple("payments", "acme"));
        assertThat(pauses.paused(new String[] {})).extracting(r -> r.get("tenant_id")).containsExactly("*");
        assertThat(pauses.paused(new String[] {"acme", "globex"})).hasSize(3);
    }

    @Test
    void everyResumeIsAuditedUnderItsPrincipalWithTheTenantAndTheReasonItEnded() {
        pauses.pause("payments", EVERY, "HTTP 401");
        pauses.pause("payments", "acme", "HTTP 401 acme");
        pauses.resume("payments", EVERY, "alice");
        pauses.resume("payments", EVERY, "bob");
        pauses.resume("payments", "acme", "carol");
        pauses.resume("payments", "globex", "dave");

        assertThat(pauses.resumes(null, 10)).extracting(r -> r.get("tenant_id"), r -> r.get("principal"),
                        r -> r.get("was_paused"), r -> r.get("reason"))
                .containsExactly(tuple("globex", "dave", false, null), tuple("acme", "carol", true, "HTTP 401 acme"),
                        tuple("*", "bob", false, null), tuple("*", "alice", true, "HTTP 401"));
        assertThat(pauses.resumes(new String[] {"acme"}, 10)).extracting(r -> r.get("principal"))
                .as("acme's and every tenant's, not globex's").containsExactly("carol", "bob", "alice");
        assertThat(pauses.resumes(null, 2)).hasSize(2);
    }

    @Test
    void theClaimsSkipAPausedToolsCallsUntilItIsResumed() {
        plan("acme", "payments", "k-1");
        pauses.pause("payments", EVERY, "HTTP 401");

        assertThat(claims.claim("w-1", 10, LEASE)).isEmpty();
        pauses.resume("payments", EVERY, "operator");
        assertThat(claims.claim("w-1", 10, LEASE)).hasSize(1);
    }

    @Test
    void aPauseOfOneTenantHoldsThatTenantsCallsOfThatToolOnly() {
        plan("acme", "payments", "k-1");
        plan("globex", "payments", "k-1");
        plan("acme", "email", "k-1");
        pauses.pause("payments", "acme", "HTTP 401 acme's key");

        assertThat(claimed()).as("globex's payments and acme's email go on")
                .containsExactlyInAnyOrder("globex/payments", "acme/email");
        assertThat(claimed()).isEmpty();
        pauses.resume("payments", "acme", "acme-admin");
        assertThat(claimed()).containsExactly("acme/payments");
    }

    @Test
    void aTenantsResumeDoesNotLiftAPauseOfEveryTenant() {
        plan("acme", "payments", "k-1");
        pauses.pause("payments", "acme", "HTTP 401 acme's key");
        pauses.pause("payments", EVERY, "HTTP 401 shared key");

        pauses.resume("payments", "acme", "acme-admin");
        assertThat(claimed()).as("still held by the pause of every tenant").isEmpty();
        pauses.resume("payments", EVERY, "root");
        assertThat(claimed()).containsExactly("acme/payments");
    }

    @Test
    void theReconcilersClaimSkipsTheUnknownCallsOfAToolPausedForTheirTenantOnly() {
        plan("acme", "payments", "k-1");
        plan("globex", "payments", "k-1");
        assertThat(claims.claim("w-1", 10, Duration.ofMillis(1))).hasSize(2);
        Map<String, CallState> swept = new java.util.HashMap<>();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            claims.sweepExpiredLeases(10, Duration.ZERO).forEach(c -> swept.put(c.scope().tenantId(), c.state()));
            return swept.size() == 2;
        });
        pauses.pause("payments", "globex", "HTTP 401 globex's key");

        assertThat(claims.claimForReconciliation("r-1", 10, LEASE)).extracting(c -> c.scope().tenantId())
                .containsExactly("acme");
        assertThat(claims.claimForReconciliation("r-1", 10, LEASE)).isEmpty();
        pauses.resume("payments", "globex", "globex-admin");
        assertThat(claims.claimForReconciliation("r-1", 10, LEASE)).extracting(ToolCall::state)
                .containsExactly(CallState.RECONCILING);
    }

    @Test
    void aTenantThatIsNeitherAnIdNorEveryTenantIsRefused() {
        assertThatThrownBy(() -> pauses.pause("payments", "acme/x", "r")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tenant must be '*' or 1-64 characters");
        assertThatThrownBy(() -> pauses.resume("payments", "", "alice")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new JdbcTemplate(db).update("INSERT INTO " + schema()
                + ".paused_tool (tool, tenant_id, reason) VALUES ('payments', 'a b', 'r')"))
                .as("the table refuses it too").hasMessageContaining("paused_tool_tenant_id");
    }
}
