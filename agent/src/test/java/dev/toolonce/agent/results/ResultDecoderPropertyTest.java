package dev.toolonce.agent.results;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.messaging.IsolatingBatchProcessor.Decoded;
import dev.toolonce.schemas.InputBounds;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.testsupport.HostileJson;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Whatever bytes arrive on the results topic, the decoder answers without throwing, and accepts only storable text. */
class ResultDecoderPropertyTest {
    private final ResultDecoder decoder = new ResultDecoder();

    @Provide
    Arbitrary<byte[]> hostile() {
        return Arbitraries.oneOf(Stream.of(HostileJson.result("acme"), HostileJson.garbage()).toList());
    }

    @Property(tries = 400)
    void everyRecordIsDecodedSafelyOrRefusedWithACode(@ForAll("hostile") byte[] value) {
        Decoded<ResultDecoder.Readable> d = decoder.decode(new ConsumerRecord<>("results", 0, 7L, new byte[0], value));

        assertThat(d).isNotNull();
        if (d instanceof Decoded.Refused<ResultDecoder.Readable> refused) {
            assertThat(refused.code()).isNotBlank();
            return;
        }
        ToolResult r = ((Decoded.Item<ResultDecoder.Readable>) d).item().result();
        assertThat(Stream.of(r.messageId(), r.intentMessageId(), r.tenantId(), r.tool(), r.operation(),
                r.idempotencyKey(), r.taskId(), r.stepId(), r.externalObjectId()))
                .allMatch(s -> s == null || !InputBounds.hasControl(s));
        assertThat(r.error() == null || r.error().message().indexOf('\0') < 0).isTrue();
    }

    @Test
    void aNulInTheTaskIdIsRefusedByTheSchema() {
        byte[] value = HostileJson.resultWith("acme", "k1", "taskId", "\"task\\u0000-1\"").getBytes(StandardCharsets.UTF_8);

        Decoded<ResultDecoder.Readable> d = decoder.decode(new ConsumerRecord<>("results", 0, 7L, new byte[0], value));

        assertThat(d).isInstanceOfSatisfying(Decoded.Refused.class, r -> {
            assertThat(r.code()).isEqualTo("SCHEMA_INVALID");
            assertThat(r.message()).contains("/taskId");
        });
    }

    @Test
    void aHugeExponentIsRefusedBeforeAnythingExpandsIt() {
        byte[] value = HostileJson.resultWith("acme", "k1", "callVersion", "1e1000000000").getBytes(StandardCharsets.UTF_8);

        Decoded<ResultDecoder.Readable> d = decoder.decode(new ConsumerRecord<>("results", 0, 7L, new byte[0], value));

        assertThat(d).isInstanceOfSatisfying(Decoded.Refused.class,
                r -> assertThat(r.code()).isEqualTo("INPUT_OUT_OF_BOUNDS"));
    }
}
