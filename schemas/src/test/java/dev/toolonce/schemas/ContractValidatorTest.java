package dev.toolonce.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The contract's JSON Schemas as the validator applies them: violations name the field. */
class ContractValidatorTest {
    private final EventCodec codec = new EventCodec();
    private final ContractValidator validator = new ContractValidator();

    private JsonNode parse(String json) {
        return codec.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String intent(String tenant, String key) {
        return "{\"tenantId\":\"" + tenant + "\",\"tool\":\"payments\",\"operation\":\"charge\","
                + "\"idempotencyKey\":\"" + key + "\",\"arguments\":{\"amount\":1}}";
    }

    @Test
    void aMinimalIntentIsValid() {
        assertThat(validator.validateIntent(parse(intent("acme", "k/1 with space")))).isEmpty();
    }

    @Test
    void aMissingRequiredFieldIsNamed() {
        assertThat(validator.validateIntent(parse("{\"tenantId\":\"acme\",\"tool\":\"payments\",\"operation\":\"charge\","
                + "\"idempotencyKey\":\"k\"}"))).singleElement().asString().contains("arguments");
    }

    @Test
    void aScopeFieldOutsideItsPatternIsNamed() {
        assertThat(validator.validateIntent(parse(intent("acme/evil", "k")))).isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("tenantId"));
        assertThat(validator.validateIntent(parse(intent("acme", "")))).isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("idempotencyKey"));
    }

    @Test
    void aResultWithAStatusOutsideTheContractIsInvalid() {
        String json = "{\"messageId\":\"r\",\"intentMessageId\":\"m\",\"tenantId\":\"acme\",\"tool\":\"payments\","
                + "\"operation\":\"charge\",\"idempotencyKey\":\"k\",\"callVersion\":1,\"status\":\"%s\","
                + "\"attempts\":1,\"replayed\":false,\"completedAt\":\"2026-01-01T00:00:00Z\"}";
        assertThat(validator.validateResult(parse(json.formatted("COMMITTED")))).isEmpty();
        assertThat(validator.validateResult(parse(json.formatted("STARTED")))).singleElement().asString()
                .contains("status");
    }
}
