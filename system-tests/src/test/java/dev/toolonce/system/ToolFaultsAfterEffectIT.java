package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.PrometheusText;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * Issue 7, protocol gaps against the real sandbox: the tool applies the effect and then answers 5xx or 409
 * ({@code failStatusAfterApply}), and lookups fail transiently ({@code lookupFailStatus}). Judged at the
 * sandbox's ledger: exactly one effect, and never FAILED_FINAL without evidence — a tool that can be asked
 * ends COMMITTED, one that cannot ends in review. One executor process for all cases.
 */
class ToolFaultsAfterEffectIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static Fixtures f;
    private static LoneExecutor lone;

    @BeforeAll
    static void startExecutor() throws Exception {
        f = new Fixtures(SystemStack.get());
        f.clearFaults();
        lone = new LoneExecutor(f.stack);
    }

    @AfterEach
    void clear() throws Exception {
        f.clearFaults();
    }

    @AfterAll
    static void stop() {
        if (lone != null) {
            lone.close();
        }
        if (f != null) {
            f.close();
        }
    }

    private static ToolIntent intent(String tool, String key) {
        return switch (tool) {
            case "payments" -> f.payments(key, 1000);
            case "tickets" -> f.tickets(key);
            case "email" -> f.email(key);
            default -> f.counter(key, "task-" + key, "1", 1);
        };
    }

    private static CallScope scope(ToolIntent i) {
        return new CallScope(i.tenantId(), i.tool(), i.operation(), i.idempotencyKey());
    }

    private static List<String> states(ToolIntent i) throws Exception {
        return lone.history(scope(i)).stream().map(a -> a.get("to_state")).toList();
    }

    @ParameterizedTest(name = "{0} answers {1} after applying, {2} time(s) -> {3}")
    @CsvSource({
            "payments, 503, 1, COMMITTED",
            "payments, 500, 5, COMMITTED",
            "payments, 409, 1, COMMITTED",
            "tickets,  503, 1, COMMITTED",
            "tickets,  409, 1, COMMITTED",
            "counter,  503, 1, NEEDS_REVIEW",
            "email,    409, 1, NEEDS_REVIEW"})
    void aFailureAfterTheEffectAppliedEndsWithOneEffectAndNeverFailedFinal(String tool, int status, int times,
                                                                           String expected) throws Exception {
        f.faults(tool, "{\"failStatus\":" + status + ",\"failStatusNext\":" + times + ",\"failStatusAfterApply\":true}");
        ToolIntent i = intent(tool, tool + "-after-" + status + "-x" + times);
        double arrivedInReview = meter("toolonce_review_arrivals_total", Map.of());
        lone.send(i);

        Map<String, String> call = lone.awaitState(scope(i), WAIT, "COMMITTED", "NEEDS_REVIEW", "FAILED_FINAL");
        assertThat(call.get("state")).as("transitions " + states(i)).isEqualTo(expected);
        assertThat(states(i)).doesNotContain("FAILED_FINAL");
        JsonNode effect = f.effect(i.arguments().path("opId").asString());
        assertThat(effect.path("count").asInt()).as("effects at the sandbox").isEqualTo(1);
        assertThat(f.injected(tool, "statusAfterApply")).as("the fault fired after applying").isGreaterThanOrEqualTo(1);
        if (expected.equals("COMMITTED")) {
            assertThat(call.get("external_object_id")).isEqualTo(effect.path("externalObjectId").asString());
        }
        // What an operator sees on /actuator/prometheus: an arrival in review for the tools that cannot be asked.
        assertThat(meter("toolonce_review_arrivals_total", Map.of()))
                .as("arrivals in review").isEqualTo(arrivedInReview + (expected.equals("NEEDS_REVIEW") ? 1 : 0));
    }

    @ParameterizedTest(name = "{0}: lost response, then lookups answer {1} twice -> COMMITTED")
    @CsvSource({"payments, 503", "payments, 429", "tickets, 500"})
    void aTransientLookupFailureIsRetriedAndTheCallCommitsWithoutReview(String tool, int status) throws Exception {
        f.faults(tool, "{\"failNext\":1,\"lookupFailStatus\":" + status + ",\"lookupFailStatusNext\":2}");
        ToolIntent i = intent(tool, tool + "-lookup-" + status);
        double recovered = meter("toolonce_recovery_seconds_count", Map.of("to", "COMMITTED"));
        double unavailable = meter("toolonce_reconciliations_total", Map.of("outcome", "unavailable"));
        lone.send(i);

        Map<String, String> call = lone.awaitState(scope(i), WAIT, "COMMITTED", "NEEDS_REVIEW", "FAILED_FINAL");
        assertThat(call.get("state")).as("transitions " + states(i)).isEqualTo("COMMITTED");
        assertThat(states(i)).doesNotContain("NEEDS_REVIEW")
                .containsSubsequence("UNKNOWN", "RECONCILING", "UNKNOWN", "RECONCILING", "UNKNOWN", "RECONCILING",
                        "COMMITTED");
        assertThat(f.injected(tool, "lookupStatus")).isEqualTo(2);
        JsonNode effect = f.effect(i.arguments().path("opId").asString());
        assertThat(effect.path("count").asInt()).isEqualTo(1);
        assertThat(effect.path("requests").asInt()).as("nothing resent").isEqualTo(1);
        assertThat(meter("toolonce_reconciliations_total", Map.of("outcome", "unavailable")))
                .as("lookups that could not answer").isEqualTo(unavailable + 2);
        assertThat(meter("toolonce_recovery_seconds_count", Map.of("to", "COMMITTED")))
                .as("one recovery, timed from the first UNKNOWN").isEqualTo(recovered + 1);
    }

    /** The executor's meter on {@code /actuator/prometheus}, summed over the series with these labels. */
    private static double meter(String name, Map<String, String> labels) throws Exception {
        HttpResponse<String> r = f.get(lone.url + "/actuator/prometheus");
        assertThat(r.statusCode()).isEqualTo(200);
        return PrometheusText.sum(r.body(), name, labels);
    }
}
