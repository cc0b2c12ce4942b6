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

    private static final String TASK = "{\"messageId\":\"e1\",\"at\":\"2026-12-01T10:00:00Z\",\"tenantId\":\"acme\","
            + "\"taskId\":\"order-7\",\"state\":\"%s\",\"open\":%s,\"version\":3,\"failedStep\":null,"
            + "\"steps\":[{\"stepId\":\"charge\",\"tool\":\"payments\",\"operation\":\"charge\","
            + "\"idempotencyKey\":\"acme:order-7:charge:1\",\"state\":\"COMMITTED\",\"compensable\":true,"
            + "\"irreversible\":%s,\"needsApproval\":false,\"publishes\":1,\"externalObjectId\":\"ch_1\"}]}";

    @Test
    void aTaskEventIsValidAndItsOpenFlagMustMatchItsState() {
        assertThat(validator.validateTaskEvent(parse(TASK.formatted("RUNNING", "true", "false")))).isEmpty();
        assertThat(validator.validateTaskEvent(parse(TASK.formatted("SUCCEEDED", "false", "false")))).isEmpty();
        assertThat(validator.validateTaskEvent(parse(TASK.formatted("SUCCEEDED", "true", "false")))).isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("open"));
        assertThat(validator.validateTaskEvent(parse(TASK.formatted("DONE", "false", "false")))).isNotEmpty()
                .anySatisfy(v -> assertThat(v).contains("state"));
    }

    @Test
    void aTaskEventStepBothCompensableAndIrreversibleIsInvalid() {
        assertThat(validator.validateTaskEvent(parse(TASK.formatted("RUNNING", "true", "true")))).isNotEmpty()
                .allSatisfy(v -> assertThat(v).contains("steps"));
    }
}
