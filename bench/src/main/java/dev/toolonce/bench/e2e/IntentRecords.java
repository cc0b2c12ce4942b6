package dev.toolonce.bench.e2e;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolIntent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * An intent as a Kafka record of the public contract (docs/contract.md §3–§6): the scope as key, CloudEvents
 * headers in binary mode, the message id both as {@code ce_id} and in the body.
 */
final class IntentRecords {
    private final EventCodec codec = new EventCodec();

    ProducerRecord<byte[], byte[]> record(ToolIntent intent, String messageId) {
        ToolIntent withId = intent.withMessageId(messageId);
        String key = withId.recordKey();
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(Contract.INTENTS_TOPIC,
                key.getBytes(StandardCharsets.UTF_8), codec.write(withId).getBytes(StandardCharsets.UTF_8));
        header(r, Contract.CE_SPECVERSION, "1.0");
        header(r, Contract.CE_ID, messageId);
        header(r, Contract.CE_TYPE, Contract.INTENT_TYPE);
        header(r, Contract.CE_SOURCE, "/toolonce/bench");
        header(r, Contract.CE_TIME, Instant.now().toString());
        header(r, Contract.CE_SUBJECT, key);
        header(r, Contract.CONTENT_TYPE, "application/json");
        return r;
    }

    private static void header(ProducerRecord<byte[], byte[]> r, String name, String value) {
        r.headers().add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
