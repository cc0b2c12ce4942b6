package dev.toolonce.sandbox.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.sandbox.http.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EffectIdentityTest {

    @Test
    void paymentsUseTheIdempotencyKey() {
        assertThat(EffectIdentity.byProviderKey("payments", "charge", "k1", "ch_9").effectKey()).isEqualTo("k1");
    }

    @Test
    void paymentsWithoutKeyUseTheNewCharge() {
        assertThat(EffectIdentity.byProviderKey("payments", "charge", null, "ch_9").effectKey()).isEqualTo("ch_9");
        assertThat(EffectIdentity.byProviderKey("payments", "charge", " ", "ch_9").effectKey()).isEqualTo("ch_9");
    }

    @Test
    void ticketsUseTheReference() {
        assertThat(EffectIdentity.byReference("tickets", "create", "R-1").effectKey()).isEqualTo("R-1");
    }

    @Test
    void unguardedToolsPreferScopeThenOpIdThenNewId() {
        assertThat(EffectIdentity.byCallerIdentity("email", "send", "scope-1", "op-1", "em_1").effectKey())
                .isEqualTo("scope-1");
        assertThat(EffectIdentity.byCallerIdentity("email", "send", null, "op-1", "em_1").effectKey())
                .isEqualTo("op-1");
        assertThat(EffectIdentity.byCallerIdentity("email", "send", null, null, "em_1").effectKey())
                .isEqualTo("em_1");
    }

    @Test
    void opIdIsTheTopLevelFieldAsText() {
        assertThat(RequestMarks.opIdOf(body("{\"opId\":\"op-7\"}"))).isEqualTo("op-7");
        assertThat(RequestMarks.opIdOf(body("{\"opId\":42}"))).isEqualTo("42");
        assertThat(RequestMarks.opIdOf(body("{\"opId\":null}"))).isNull();
        assertThat(RequestMarks.opIdOf(body("{\"nested\":{\"opId\":\"x\"}}"))).isNull();
        assertThat(RequestMarks.opIdOf(null)).isNull();
    }

    private static tools.jackson.databind.JsonNode body(String json) {
        return Json.readObject(json.getBytes(StandardCharsets.UTF_8));
    }
}
