package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.publish.IntentRecords;
import dev.toolonce.agent.publish.TraceContext;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ResultStatus;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.testsupport.TestKeys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * docs/contract.md §14: the agent's trace travels with its intent (outbox row or Kafka header), through the executor
 * and back on the answer to that intent — each intent message answered with its own trace, a replayed answer
 * included — and a value that is not a traceparent is dropped, never a reason to refuse the intent.
 */
class TraceParentIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String T1 = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String T2 = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    private static final String T3 = "00-11111111111111111111111111111111-2222222222222222-00";
    private Fixtures f;
    private ResultWatcher results;
    private final EventCodec codec = new EventCodec();

    @BeforeEach
    void setUp() {
        f = new Fixtures(SystemStack.get());
        results = f.results();
    }

    @AfterEach
    void tearDown() {
        results.close();
        f.close();
    }

    @Test
    void anIntentPublishedThroughTheOutboxIsAnsweredWithItsTrace() throws Exception {
        IntentPublisher traced = new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/test/agent", TraceContext.of(T1), TestKeys.keyring());

        String id = f.publish(traced, f.counter("t1", "task-t1", "1", 1));

        assertThat(results.awaitResult(id, WAIT)).first().extracting(ToolResult::status).isEqualTo(ResultStatus.COMMITTED);
        assertThat(traceOfAnswerTo(id)).isEqualTo(T1);
    }

    @Test
    void theDefaultTraceContextTakesTheTraceFromTheLoggingContextLikeATracerLeavesIt() throws Exception {
        MDC.put("traceId", "0af7651916cd43dd8448eb211c80319c");
        MDC.put("spanId", "b7ad6b7169203331");
        String id;
        try {
            id = f.publish(f.counter("t2", "task-t2", "1", 1)); // Fixtures' publisher: the default TraceContext
        } finally {
            MDC.remove("traceId");
            MDC.remove("spanId");
        }

        results.awaitResult(id, WAIT);
        assertThat(traceOfAnswerTo(id)).isEqualTo(T2);
    }

    @Test
    void everyIntentMessageIsAnsweredWithItsOwnTraceAReplayIncluded() throws Exception {
        ToolIntent intent = f.counter("t3", null, null, 1);
        String first = UUID.randomUUID().toString();
        f.produce(new IntentRecords("/test/agent", TraceContext.of(T2), TestKeys.keyring()).record(intent, first));
        assertThat(results.awaitResult(first, WAIT)).first().extracting(ToolResult::status).isEqualTo(ResultStatus.COMMITTED);

        String retry = UUID.randomUUID().toString(); // a client retry of the same call, under another trace
        f.produce(new IntentRecords("/test/agent", TraceContext.of(T3), TestKeys.keyring()).record(intent, retry));
        List<ToolResult> replayed = results.awaitResult(retry, WAIT);

        assertThat(replayed).first().satisfies(r -> assertThat(r.replayed()).isTrue());
        assertThat(traceOfAnswerTo(first)).isEqualTo(T2);
        assertThat(traceOfAnswerTo(retry)).isEqualTo(T3);
        assertThat(f.effect(f.tenant + ":t3").path("count").asLong()).isEqualTo(1);
    }

    @Test
    void anIntentWithoutATraceOrWithAnInvalidOneIsAnsweredWithoutATrace() throws Exception {
        String none = UUID.randomUUID().toString();
        f.produce(new IntentRecords("/test/agent", TraceContext.NONE, TestKeys.keyring()).record(f.counter("t4", null, null, 1), none));
        String garbage = UUID.randomUUID().toString();
        ProducerRecord<byte[], byte[]> r = new IntentRecords("/test/agent", TraceContext.NONE, TestKeys.keyring())
                .record(f.counter("t5", null, null, 1), garbage);
        r.headers().add(Contract.TRACEPARENT, "00-not-a-trace\u0000-01".getBytes(StandardCharsets.UTF_8));
        f.produce(r);

        for (String id : List.of(none, garbage)) {
            assertThat(results.awaitResult(id, WAIT)).as(id).first()
                    .extracting(ToolResult::status).isEqualTo(ResultStatus.COMMITTED);
            assertThat(answerTo(id).headers().lastHeader(Contract.TRACEPARENT)).as("no trace on the answer").isNull();
        }
    }

    private String traceOfAnswerTo(String intentMessageId) {
        Header h = answerTo(intentMessageId).headers().lastHeader(Contract.TRACEPARENT);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private ConsumerRecord<byte[], byte[]> answerTo(String intentMessageId) {
        return results.records.stream().filter(r -> {
            try {
                return intentMessageId.equals(codec.result(codec.parse(r.value())).intentMessageId());
            } catch (RuntimeException notAResult) {
                return false;
            }
        }).findFirst().orElseThrow(() -> new AssertionError("no answer to " + intentMessageId + " was seen"));
    }
}
