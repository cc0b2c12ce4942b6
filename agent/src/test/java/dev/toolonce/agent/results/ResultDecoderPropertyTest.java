package dev.toolonce.agent.results;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.messaging.IsolatingBatchProcessor.Decoded;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.InputBounds;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.SigningKey;
import dev.toolonce.testsupport.HostileJson;
import dev.toolonce.testsupport.TestKeys;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;
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
    private final ResultDecoder decoder = new ResultDecoder(TestKeys.keyring());

    private static ConsumerRecord<byte[], byte[]> signed(byte[] value) {
        return TestKeys.sign(new ConsumerRecord<>("results", 0, 7L, new byte[0], value), TestKeys.executor());
    }

    @Provide
    Arbitrary<byte[]> hostile() {
        return Arbitraries.oneOf(Stream.of(HostileJson.result("acme"), HostileJson.garbage()).toList());
    }

    @Property(tries = 400)
    void everyRecordIsDecodedSafelyOrRefusedWithACode(@ForAll("hostile") byte[] value) {
        Decoded<ResultDecoder.Readable> d = decoder.decode(signed(value));

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
    void onlyTheExecutorsResultKeyCanAnswer() {
        byte[] value = HostileJson.resultWith("acme", "k1", "taskId", "\"task-1\"").getBytes(StandardCharsets.UTF_8);
        assertThat(decoder.decode(signed(value))).isInstanceOf(Decoded.Item.class);
        assertThat(code(new ConsumerRecord<>("results", 0, 7L, new byte[0], value))).isEqualTo("UNSIGNED_RECORD");
        assertThat(code(TestKeys.sign(new ConsumerRecord<>("results", 0, 7L, new byte[0], value), TestKeys.agents())))
                .as("an agent's key, right scope, wrong signer").isEqualTo("SIGNER_NOT_ALLOWED");
        SigningKey stranger = SigningKey.generate(EnumSet.of(Power.RESULT), Set.of("*"), "stranger");
        assertThat(code(TestKeys.sign(new ConsumerRecord<>("results", 0, 7L, new byte[0], value), stranger)))
                .isEqualTo("UNKNOWN_SIGNING_KEY");
        ConsumerRecord<byte[], byte[]> swapped = new ConsumerRecord<>("results", 0, 7L, new byte[0],
                HostileJson.resultWith("acme", "k1", "taskId", "\"task-2\"").getBytes(StandardCharsets.UTF_8));
        swapped.headers().add(signed(value).headers().lastHeader(Contract.SIGNATURE));
        assertThat(code(swapped)).isEqualTo("BAD_SIGNATURE");
        assertThat(ResultDecoder.NOT_AUTHENTIC).contains("UNSIGNED_RECORD", "SIGNER_NOT_ALLOWED", "UNKNOWN_SIGNING_KEY",
                "BAD_SIGNATURE");
    }

    private String code(ConsumerRecord<byte[], byte[]> r) {
        return decoder.decode(r) instanceof Decoded.Refused<ResultDecoder.Readable> refused ? refused.code() : "ACCEPTED";
    }

    @Test
    void aNulInTheTaskIdIsRefusedByTheSchema() {
        byte[] value = HostileJson.resultWith("acme", "k1", "taskId", "\"task\\u0000-1\"").getBytes(StandardCharsets.UTF_8);

        Decoded<ResultDecoder.Readable> d = decoder.decode(signed(value));

        assertThat(d).isInstanceOfSatisfying(Decoded.Refused.class, r -> {
            assertThat(r.code()).isEqualTo("SCHEMA_INVALID");
            assertThat(r.message()).contains("/taskId");
        });
    }

    @Test
    void aHugeExponentIsRefusedBeforeAnythingExpandsIt() {
        byte[] value = HostileJson.resultWith("acme", "k1", "callVersion", "1e1000000000").getBytes(StandardCharsets.UTF_8);

        Decoded<ResultDecoder.Readable> d = decoder.decode(signed(value));

        assertThat(d).isInstanceOfSatisfying(Decoded.Refused.class,
                r -> assertThat(r.code()).isEqualTo("INPUT_OUT_OF_BOUNDS"));
    }
}
