package dev.toolonce.executor.intake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ContractValidator;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.SigningKey;
import dev.toolonce.testsupport.TestKeys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class IntentParserTest {
    private static final String VALID = """
            {"tenantId":"acme","tool":"payments","operation":"charge","idempotencyKey":"order-1",
             "arguments":{"amount":1000,"currency":"EUR"}%s}""";
    private final IntentParser parser = new IntentParser(new EventCodec(), new ContractValidator(), 1024,
            TestKeys.keyring());

    private static ConsumerRecord<byte[], byte[]> record(String value, String ceId) {
        return TestKeys.sign(unsigned(value, ceId, null), TestKeys.agents());
    }

    private static ConsumerRecord<byte[], byte[]> unsigned(String value, String ceId, String type) {
        ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>("intents", 3, 42L, "k".getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
        if (ceId != null) {
            r.headers().add("ce_id", ceId.getBytes(StandardCharsets.UTF_8));
        }
        if (type != null) {
            r.headers().add("ce_type", type.getBytes(StandardCharsets.UTF_8));
        }
        return r;
    }

    private String code(ConsumerRecord<byte[], byte[]> r) {
        return parser.parse(r) instanceof ParsedIntent.Refused refused ? refused.code() : "ACCEPTED";
    }

    @Test
    void onlyASignatureByAKeyOfTheKeyringIsRead() {
        String valid = VALID.formatted("");
        assertThat(code(unsigned(valid, "m-1", null))).isEqualTo("UNSIGNED_RECORD");
        SigningKey stranger = SigningKey.generate(EnumSet.of(Power.INTENT), Set.of("*"), "stranger");
        assertThat(code(TestKeys.sign(unsigned(valid, "m-1", null), stranger))).isEqualTo("UNKNOWN_SIGNING_KEY");
        ConsumerRecord<byte[], byte[]> tampered = record(valid, "m-1");
        ConsumerRecord<byte[], byte[]> swapped = unsigned(valid.replace("1000", "9000"), "m-1", null);
        swapped.headers().add(tampered.headers().lastHeader(Contract.SIGNATURE));
        assertThat(code(swapped)).as("the value changed after signing").isEqualTo("BAD_SIGNATURE");
        ConsumerRecord<byte[], byte[]> otherId = unsigned(valid, "m-2", null);
        otherId.headers().add(tampered.headers().lastHeader(Contract.SIGNATURE));
        assertThat(code(otherId)).as("the message id changed after signing").isEqualTo("BAD_SIGNATURE");
        ConsumerRecord<byte[], byte[]> garbled = unsigned(valid, "m-1", null);
        garbled.headers().add(Contract.SIGNATURE, "v1:x:\u0000".getBytes(StandardCharsets.UTF_8));
        assertThat(code(garbled)).isEqualTo("UNKNOWN_SIGNING_KEY");
        garbled.headers().remove(Contract.SIGNATURE).add(Contract.SIGNATURE, "v9".getBytes(StandardCharsets.UTF_8));
        assertThat(code(garbled)).isEqualTo("BAD_SIGNATURE");
        assertThat(code(record(valid, "m-1"))).isEqualTo("ACCEPTED");
    }

    @Test
    void aKeyActsOnlyForItsTenantsAndItsPowers() {
        SigningKey globex = TestKeys.add(SigningKey.generate(EnumSet.of(Power.INTENT), Set.of("globex"), "globex-agent"));
        SigningKey results = TestKeys.executor();
        String acme = VALID.formatted("");
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !code(TestKeys.sign(unsigned(
                acme.replace("acme", "globex"), null, null), globex)).equals("UNKNOWN_SIGNING_KEY"));
        assertThat(code(TestKeys.sign(unsigned(acme.replace("acme", "globex"), null, null), globex))).isEqualTo("ACCEPTED");
        assertThat(code(TestKeys.sign(unsigned(acme, null, null), globex))).isEqualTo("SIGNER_NOT_ALLOWED");
        assertThat(code(TestKeys.sign(unsigned(acme, null, null), results))).as("the executor's key requests nothing")
                .isEqualTo("SIGNER_NOT_ALLOWED");
    }

    @Test
    void aCompensationCanBeAskedForOnlyByItsOwnRecordTypeAndPower() {
        String refund = VALID.formatted("").replace("\"charge\"", "\"charge.compensate\"");
        assertThat(code(record(refund, "m-3"))).as("an intent naming .compensate").isEqualTo("OPERATION_NOT_REQUESTABLE");
        assertThat(code(TestKeys.sign(unsigned(refund, "m-3", Contract.INTENT_TYPE), TestKeys.agents())))
                .isEqualTo("OPERATION_NOT_REQUESTABLE");
        assertThat(code(TestKeys.sign(unsigned(refund, "m-3", Contract.COMPENSATION_TYPE), TestKeys.agents())))
                .isEqualTo("ACCEPTED");
        assertThat(code(TestKeys.sign(unsigned(VALID.formatted(""), "m-3", Contract.COMPENSATION_TYPE),
                TestKeys.agents()))).as("a compensation type naming a plain operation").isEqualTo("OPERATION_NOT_REQUESTABLE");
        SigningKey noRefunds = TestKeys.add(SigningKey.generate(EnumSet.of(Power.INTENT), Set.of("*"), "no-refunds"));
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !code(TestKeys.sign(unsigned(
                VALID.formatted(""), null, null), noRefunds)).equals("UNKNOWN_SIGNING_KEY"));
        assertThat(code(TestKeys.sign(unsigned(refund, "m-3", Contract.COMPENSATION_TYPE), noRefunds)))
                .isEqualTo("SIGNER_NOT_ALLOWED");
        assertThat(code(TestKeys.sign(unsigned(VALID.formatted(""), "m-4", "dev.toolonce.something-else.v1"),
                TestKeys.agents()))).isEqualTo("SCHEMA_INVALID");
    }

    private ParsedIntent.Refused refused(String value, String ceId) {
        return (ParsedIntent.Refused) parser.parse(record(value, ceId));
    }

    @Test
    void malformedJsonAndEmptyValuesAreRefused() {
        assertThat(refused("{\"tenantId\":", null).code()).isEqualTo("MALFORMED_JSON");
        assertThat(refused("{} trailing", null).code()).isEqualTo("MALFORMED_JSON");
        assertThat(refused(null, null).code()).isEqualTo("MALFORMED_JSON");
    }

    @Test
    void schemaViolationsNameTheField() {
        ParsedIntent.Refused r = refused("{\"tenantId\":\"acme\",\"tool\":\"payments\",\"operation\":\"charge\","
                + "\"idempotencyKey\":\"k\"}", null);
        assertThat(r.code()).isEqualTo("SCHEMA_INVALID");
        assertThat(r.message()).contains("arguments");
    }

    @Test
    void anIntentWhoseOnlyFaultIsItsScopeIsAcceptedToBeAnsweredInvalidArguments() {
        ParsedIntent.Accepted a = (ParsedIntent.Accepted) parser.parse(
                record(VALID.formatted("").replace("\"acme\"", "\"ac/me\""), null));
        assertThat(a.scopeProblem()).contains("tenantId");
        ParsedIntent.Accepted fine = (ParsedIntent.Accepted) parser.parse(record(VALID.formatted(""), null));
        assertThat(fine.scopeProblem()).isNull();
        assertThat(refused(VALID.formatted("").replace("{\"amount\":1000,\"currency\":\"EUR\"}", "[1]"), null).code())
                .isEqualTo("SCHEMA_INVALID");
    }

    @Test
    void oversizedPayloadsAreRefused() {
        String big = VALID.formatted(",\"taskId\":\"" + "x".repeat(2000) + "\"");
        assertThat(refused(big, null).code()).isEqualTo("PAYLOAD_TOO_LARGE");
    }

    @Test
    void messageIdPrefersTheHeaderThenTheBodyThenThePosition() {
        ParsedIntent.Accepted header = (ParsedIntent.Accepted) parser.parse(record(VALID.formatted(""), "m-1"));
        assertThat(header.messageId()).isEqualTo("m-1");
        assertThat(header.intent().messageId()).isEqualTo("m-1");
        ParsedIntent.Accepted body = (ParsedIntent.Accepted) parser.parse(
                record(VALID.formatted(",\"messageId\":\"m-2\""), null));
        assertThat(body.messageId()).isEqualTo("m-2");
        ParsedIntent.Accepted none = (ParsedIntent.Accepted) parser.parse(record(VALID.formatted(""), null));
        assertThat(none.messageId()).isEqualTo("intents-3-42");
    }

    @Test
    void differingHeaderAndBodyIdsAreRefused() {
        assertThat(refused(VALID.formatted(",\"messageId\":\"m-2\""), "m-1").code()).isEqualTo("MESSAGE_ID_CONFLICT");
    }
}
