package dev.toolonce.relay.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

class CloudEventHeadersTest {

    static final String PAYLOAD = "{ \"a\" :\t\"Grüße 日本 🚀\" ,\r\n  \"b\":1.50 }  ";

    static OutboxRow row(String subject, String traceparent) {
        return new OutboxRow("3f1c1c9e-0000-4000-8000-000000000001", "toolonce.tool-intents",
                "acme/payments/charge/order-123:charge", "dev.toolonce.tool-intent.v1", "/toolonce/agent",
                subject, PAYLOAD, traceparent, null, Instant.parse("2026-11-30T08:00:00.123456Z"));
    }

    static Map<String, String> asMap(Iterable<Header> headers) {
        Map<String, String> map = new LinkedHashMap<>();
        headers.forEach(h -> map.put(h.key(), new String(h.value(), StandardCharsets.UTF_8)));
        return map;
    }

    @Test
    void mapsEveryColumnToItsHeader() {
        Map<String, String> headers = asMap(CloudEventHeaders.of(row("acme/payments/charge/k", "00-4bf9-00f0-01")));
        assertThat(headers).containsExactly(
                Map.entry("ce_specversion", "1.0"),
                Map.entry("ce_id", "3f1c1c9e-0000-4000-8000-000000000001"),
                Map.entry("ce_type", "dev.toolonce.tool-intent.v1"),
                Map.entry("ce_source", "/toolonce/agent"),
                Map.entry("ce_time", "2026-11-30T08:00:00.123456Z"),
                Map.entry("ce_subject", "acme/payments/charge/k"),
                Map.entry("content-type", "application/json"),
                Map.entry("traceparent", "00-4bf9-00f0-01"));
    }

    @Test
    void publishesTheWritersSignatureAsItIs() {
        OutboxRow r = row(null, null);
        OutboxRow signed = new OutboxRow(r.id(), r.aggregateType(), r.aggregateId(), r.eventType(), r.source(), null,
                r.payload(), null, "v1:k0123456789ab:c2lnbmF0dXJl", r.createdAt());
        assertThat(asMap(CloudEventHeaders.of(signed))).containsEntry("toolonce-signature", "v1:k0123456789ab:c2lnbmF0dXJl");
        assertThat(asMap(CloudEventHeaders.of(r))).doesNotContainKey("toolonce-signature");
    }

    @Test
    void leavesOutSubjectAndTraceparentWhenNull() {
        List<Header> headers = CloudEventHeaders.of(row(null, null));
        assertThat(asMap(headers)).doesNotContainKeys("ce_subject", "traceparent").hasSize(6);
    }

    @Test
    void recordCarriesTopicKeyAndThePayloadBytesUnchanged() {
        ProducerRecord<byte[], byte[]> record = OutboxPublisher.toRecord(row(null, null));
        assertThat(record.topic()).isEqualTo("toolonce.tool-intents");
        assertThat(record.partition()).isNull();
        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("acme/payments/charge/order-123:charge");
        assertThat(record.value()).isEqualTo(PAYLOAD.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void deadLetterKeepsEverythingAndAddsTheErrorHeaders() {
        ProducerRecord<byte[], byte[]> original = OutboxPublisher.toRecord(row("s", null));
        SendFailure failure = new SendFailure(true, SendFailure.UNKNOWN_TOPIC, "no such topic");
        ProducerRecord<byte[], byte[]> dead = DeadLetters.of(original, "toolonce.relay.dlq", failure, false);
        assertThat(dead.topic()).isEqualTo("toolonce.relay.dlq");
        assertThat(dead.key()).isEqualTo(original.key());
        assertThat(dead.value()).isEqualTo(original.value());
        assertThat(asMap(dead.headers()))
                .containsAllEntriesOf(asMap(original.headers()))
                .containsEntry("toolonce.error.code", "UNKNOWN_TOPIC")
                .containsEntry("toolonce.error.message", "no such topic")
                .containsEntry("toolonce.original.topic", "toolonce.tool-intents");
    }

    @Test
    void deadLetterOfATooLargeRecordDropsOnlyTheValue() {
        ProducerRecord<byte[], byte[]> original = OutboxPublisher.toRecord(row(null, null));
        SendFailure failure = new SendFailure(true, SendFailure.RECORD_TOO_LARGE, "too large");
        ProducerRecord<byte[], byte[]> dead = DeadLetters.of(original, "dlq", failure, true);
        assertThat(dead.value()).isNull();
        assertThat(dead.key()).isEqualTo(original.key());
        assertThat(asMap(dead.headers()))
                .containsEntry("toolonce.original.value-bytes", Integer.toString(original.value().length))
                .containsEntry("ce_id", "3f1c1c9e-0000-4000-8000-000000000001");
    }

    @Test
    void estimatedSizeCountsKeyValueAndHeaders() {
        ProducerRecord<byte[], byte[]> record = OutboxPublisher.toRecord(row(null, null));
        assertThat(DeadLetters.estimatedSize(record))
                .isGreaterThan(record.key().length + record.value().length + 100L);
    }
}
