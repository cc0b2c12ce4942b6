package dev.toolonce.bench.e2e;

import dev.toolonce.bench.watch.TopicWatcher;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolResult;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Picks the results of one tenant from the results topic, by the intent message they answer, labelled by status. */
final class ResultReader implements TopicWatcher.Reader {
    private final EventCodec codec = new EventCodec();
    private final String tenant;

    ResultReader(String tenant) {
        this.tenant = tenant;
    }

    @Override
    public TopicWatcher.Reading read(ConsumerRecord<byte[], byte[]> record) {
        try {
            ToolResult r = codec.result(codec.parse(record.value()));
            return tenant.equals(r.tenantId()) ? new TopicWatcher.Reading(r.intentMessageId(), r.status().name()) : null;
        } catch (RuntimeException e) {
            return null; // not ours to judge: the consumer's DLQ handles unreadable results
        }
    }
}
