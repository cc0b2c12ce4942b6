package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 7: {@code MESSAGE_ID_REUSED} is answered to the intent that reused the id and never applied to the
 * original's step — even while that step is still pending, which is when a rejection (call version 0) would
 * otherwise win over the step's -1.
 */
class MessageIdReuseIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private Fixtures f;
    private ResultWatcher results;

    @BeforeEach
    void setUp() {
        f = new Fixtures(SystemStack.get());
        results = f.results();
    }

    @AfterEach
    void tearDown() throws Exception {
        f.clearFaults();
        results.close();
        f.close();
    }

    @Test
    void aReusedMessageIdIsRejectedToItsSenderAndTheOriginalPendingStepIsNotTouched() throws Exception {
        f.faults("counter", "{\"latencyMs\":4000}"); // the original stays in flight while the reuse is answered
        String id = f.publish(f.counter("reuse-1", "task-reuse", "1", 1));
        await().atMost(WAIT).until(() -> callState(f.tenant, "reuse-1") != null);

        ToolIntent other = f.counter("reuse-2", "task-reuse", "1", 2); // another payload under the same message id
        f.sendRecord(null, other.recordKey(), new dev.toolonce.schemas.EventCodec().write(other.withMessageId(id))
                .getBytes(StandardCharsets.UTF_8), id);

        results.awaitRecords(w -> w.byIntent.getOrDefault(id, List.of()).size() >= 2, WAIT);
        List<ToolResult> answers = results.byIntent.getOrDefault(id, List.of());
        assertThat(answers).as("the original's result and the rejection of the reuse").hasSize(2);
        ToolResult rejection = answers.stream().filter(r -> r.status() == ResultStatus.REJECTED).findFirst().orElseThrow();
        assertThat(rejection.error().code()).isEqualTo("MESSAGE_ID_REUSED");
        assertThat(answers).anySatisfy(r -> assertThat(r.status()).isEqualTo(ResultStatus.COMMITTED));

        await().atMost(WAIT).until(() -> "COMMITTED".equals(f.step("task-reuse", "1").get("status")));
        Map<String, String> log = logged(rejection.messageId());
        assertThat(log).containsEntry("applied", "f");
        assertThat(log.get("reason")).contains("MESSAGE_ID_REUSED");
        assertThat(f.effect(f.tenant + ":reuse-1").path("count").asLong()).isEqualTo(1);
        assertThat(f.effect(f.tenant + ":reuse-2")).as("the reused id's payload never ran").isNull();
    }

    private String callState(String tenant, String key) throws Exception {
        return f.row("SELECT state FROM executor.tool_call WHERE tenant_id = ? AND idempotency_key = ?", tenant, key)
                .get("state");
    }

    private Map<String, String> logged(String resultMessageId) throws Exception {
        return f.row("SELECT applied, reason FROM agent.step_result_log WHERE result_message_id = ?", resultMessageId);
    }
}
