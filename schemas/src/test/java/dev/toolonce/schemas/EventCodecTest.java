package dev.toolonce.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Round trips of the contract's events through the codec, and what the codec writes is schema-valid. */
class EventCodecTest {
    private final EventCodec codec = new EventCodec();
    private final ContractValidator validator = new ContractValidator();

    private JsonNode parse(String json) {
        return codec.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private ToolResult result(long callVersion, ToolResult.ResultError error) {
        return new ToolResult("r-1", "m-1", "acme", "payments", "charge", "k/with/slashes", "sha256:" + "a".repeat(64),
                "task", "1", callVersion, error == null ? ResultStatus.COMMITTED : ResultStatus.FAILED_FINAL,
                error == null ? "ch_1" : null, error == null ? parse("{\"id\":\"ch_1\"}") : null, error, 2, true,
                "2026-01-01T00:00:00Z");
    }

    @Test
    void anIntentSurvivesAWriteAndARead() {
        ToolIntent intent = new ToolIntent("m-1", "acme", "payments", "charge", "k-1",
                parse("{\"amount\":12.50,\"big\":9007199254740991}"), "task", "1", "2026-01-01T00:00:00Z");

        String json = codec.write(intent);
        ToolIntent back = codec.intent(parse(json));

        assertThat(back).isEqualTo(intent);
        assertThat(json).as("numbers are kept exactly as sent").contains("12.50").contains("9007199254740991");
        assertThat(validator.validateIntent(parse(json))).isEmpty();
    }

    @Test
    void optionalIntentFieldsAreLeftOutRatherThanWrittenAsNull() {
        ToolIntent minimal = new ToolIntent(null, "acme", "payments", "charge", "k-1", parse("{}"), null, null, null);

        String json = codec.write(minimal);

        assertThat(json).doesNotContain("messageId").doesNotContain("taskId").doesNotContain("null");
        assertThat(codec.intent(parse(json))).isEqualTo(minimal);
        assertThat(validator.validateIntent(parse(json))).isEmpty();
    }

    @Test
    void committedAndFailedResultsSurviveAWriteAndARead() {
        for (ToolResult r : new ToolResult[] {result(3, null),
                result(0, new ToolResult.ResultError("TOOL_REJECTED", "amount must be positive"))}) {
            String json = codec.write(r);
            assertThat(codec.result(parse(json))).isEqualTo(r);
            assertThat(validator.validateResult(parse(json))).as(json).isEmpty();
        }
    }

    @Test
    void aResultWithAVersionThatIsNotASafeWholeNumberIsRefusedNamingTheField() {
        String json = codec.write(result(1, null));
        for (String bad : new String[] {"-1", "1.5", "9007199254740992", "\"1\""}) {
            String edited = json.replace("\"callVersion\":1", "\"callVersion\":" + bad);
            assertThatThrownBy(() -> codec.result(parse(edited))).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("callVersion");
        }
    }

    @Test
    void notJsonIsRefusedAsMalformed() {
        assertThatThrownBy(() -> codec.parse("{\"a\":".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("malformed JSON");
        assertThatThrownBy(() -> codec.parse(new byte[0])).hasMessageStartingWith("malformed JSON");
    }
}
