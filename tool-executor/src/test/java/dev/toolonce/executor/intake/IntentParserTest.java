package dev.toolonce.executor.intake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.schemas.ContractValidator;
import dev.toolonce.schemas.EventCodec;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class IntentParserTest {
    private static final String VALID = """
            {"tenantId":"acme","tool":"payments","operation":"charge","idempotencyKey":"order-1",
             "arguments":{"amount":1000,"currency":"EUR"}%s}""";
    private final IntentParser parser = new IntentParser(new EventCodec(), new ContractValidator(), 1024);

    private static ConsumerRecord<byte[], byte[]> record(String value, String ceId) {
        ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>("intents", 3, 42L, "k".getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
        if (ceId != null) {
            r.headers().add("ce_id", ceId.getBytes(StandardCharsets.UTF_8));
        }
        return r;
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
