package dev.toolonce.agent.results;

import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.jdbc.PayloadHash;
import dev.toolonce.messaging.DeadLetters;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.ContractValidator;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Consumes result events: per poll batch, one transaction records each message in the inbox and applies
 * new ones to their steps; unreadable records are dead-lettered first, synchronously. Offsets are
 * committed by the container after this returns.
 */
public final class ResultListener {
    private final String group;
    private final InboxStore inbox;
    private final StepResults steps;
    private final DeadLetters deadLetters;
    private final TransactionTemplate tx;
    private final EventCodec codec = new EventCodec();
    private final ContractValidator validator = new ContractValidator();
    private final AtomicLong applied = new AtomicLong();
    private final AtomicLong notApplied = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();

    public ResultListener(String group, InboxStore inbox, StepResults steps, DeadLetters deadLetters,
                          TransactionTemplate tx) {
        this.group = group;
        this.inbox = inbox;
        this.steps = steps;
        this.deadLetters = deadLetters;
        this.tx = tx;
    }

    private record Readable(ConsumerRecord<byte[], byte[]> record, String messageId, ToolResult result) {
    }

    @KafkaListener(id = "results", topics = "${toolonce.consumer.results-topic:toolonce.tool-results}",
            groupId = "${toolonce.consumer.consumer-group:toolonce-agent}", batch = "true")
    public void onBatch(List<ConsumerRecord<byte[], byte[]>> records) {
        List<Readable> readable = new ArrayList<>(records.size());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            try {
                readable.add(read(r));
            } catch (IllegalArgumentException e) {
                deadLetters.send(r, "UNREADABLE_RESULT", e.getMessage());
                deadLettered.incrementAndGet();
            }
        }
        tx.executeWithoutResult(s -> readable.forEach(this::handle));
    }

    private void handle(Readable r) {
        InboxStore.Seen seen = inbox.record(group, r.messageId(), PayloadHash.of(r.record().value()),
                r.record().topic(), r.record().partition(), r.record().offset());
        if (seen != InboxStore.Seen.NEW) {
            duplicates.incrementAndGet();
            return;
        }
        (steps.apply(r.result()) ? applied : notApplied).incrementAndGet();
    }

    private Readable read(ConsumerRecord<byte[], byte[]> r) {
        if (r.value() == null) {
            throw new IllegalArgumentException("record value is empty");
        }
        JsonNode tree = codec.parse(r.value());
        List<String> violations = validator.validateResult(tree);
        if (!violations.isEmpty()) {
            throw new IllegalArgumentException("result violates the schema: " + String.join("; ", violations));
        }
        ToolResult result = codec.result(tree);
        Header ce = r.headers().lastHeader(Contract.CE_ID);
        String header = ce == null ? null : new String(ce.value(), StandardCharsets.UTF_8);
        if (header != null && !header.equals(result.messageId())) {
            throw new IllegalArgumentException("ce_id '" + header + "' differs from messageId '" + result.messageId() + "'");
        }
        return new Readable(r, result.messageId(), result);
    }

    /** Counters since start-up. */
    public java.util.Map<String, Long> stats() {
        return java.util.Map.of("applied", applied.get(), "notApplied", notApplied.get(),
                "duplicates", duplicates.get(), "deadLettered", deadLettered.get());
    }
}
