package dev.toolonce.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.messaging.IsolatingBatchProcessor.Decoded;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The consumer error path with fakes for the transaction, the DLQ and the database probe: a poison record is
 * dead-lettered alone after bounded attempts while its neighbours are applied; an outage dead-letters nothing.
 */
class IsolatingBatchProcessorTest {
    private final List<String> committed = new ArrayList<>();
    private final List<String> deadLettered = new ArrayList<>();
    private final List<String> observed = new ArrayList<>();
    private final AtomicBoolean databaseUp = new AtomicBoolean(true);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private int applications;

    /** Applies all-or-nothing; "poison" always fails, "bug" throws a StackOverflowError. */
    private void apply(List<String> items) {
        applications++;
        if (!databaseUp.get()) {
            throw new IllegalStateException("connection refused");
        }
        for (String item : items) {
            if (item.equals("poison")) {
                throw new IllegalArgumentException("invalid byte sequence for encoding UTF8: 0x00");
            }
            if (item.equals("bug")) {
                throw new StackOverflowError();
            }
        }
        committed.addAll(items);
    }

    private IsolatingBatchProcessor<String> processor() {
        return new IsolatingBatchProcessor<>(new IsolatingBatchProcessor.Settings("test", 3, Duration.ZERO),
                r -> {
                    String v = new String(r.value(), StandardCharsets.UTF_8);
                    if (v.equals("unreadable")) {
                        return new Decoded.Refused<>(r, "MALFORMED_JSON", "not JSON");
                    }
                    if (v.equals("decoder-bug")) {
                        throw new NullPointerException("nobody expected this");
                    }
                    return new Decoded.Item<>(r, v);
                },
                this::apply,
                (r, code, message) -> deadLettered.add(new String(r.value(), StandardCharsets.UTF_8) + ":" + code + "@" + r.offset()),
                databaseUp::get,
                (r, decoded, code, message) -> observed.add(decoded + ":" + code),
                meters);
    }

    private static List<ConsumerRecord<byte[], byte[]>> batch(String... values) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            out.add(new ConsumerRecord<>("t", 0, i, null, values[i].getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    @Test
    void aHealthyBatchIsAppliedInOneTransaction() {
        List<String> applied = processor().process(batch("a", "b", "c"));

        assertThat(applied).containsExactly("a", "b", "c");
        assertThat(committed).containsExactly("a", "b", "c");
        assertThat(applications).isEqualTo(1);
        assertThat(deadLettered).isEmpty();
    }

    @Test
    void aPoisonRecordIsRetriedThenDeadLetteredAloneAndItsNeighboursAreApplied() {
        List<String> applied = processor().process(batch("a", "poison", "b"));

        assertThat(applied).containsExactly("a", "b");
        assertThat(committed).containsExactly("a", "b");
        assertThat(deadLettered).containsExactly("poison:PROCESSING_FAILED@1");
        assertThat(observed).containsExactly("poison:PROCESSING_FAILED");
        // one batch try, then a, poison x3, b
        assertThat(applications).isEqualTo(1 + 1 + 3 + 1);
        assertThat(meters.get("toolonce.consumer.dead_lettered").tag("code", "PROCESSING_FAILED").counter().count())
                .isEqualTo(1.0);
    }

    @Test
    void anErrorNobodyExpectedIsIsolatedToo() {
        List<String> applied = processor().process(batch("bug", "a"));

        assertThat(applied).containsExactly("a");
        assertThat(deadLettered).containsExactly("bug:PROCESSING_FAILED@0");
    }

    @Test
    void unreadableRecordsAndDecoderExceptionsAreDeadLetteredWithoutTouchingTheDatabase() {
        List<String> applied = processor().process(batch("unreadable", "decoder-bug", "a"));

        assertThat(applied).containsExactly("a");
        assertThat(deadLettered).containsExactly("unreadable:MALFORMED_JSON@0", "decoder-bug:DECODING_FAILED@1");
        assertThat(observed).containsExactly("null:MALFORMED_JSON", "null:DECODING_FAILED");
        assertThat(applications).isEqualTo(1);
    }

    @Test
    void whileTheDatabaseIsDownNothingIsDeadLetteredAndTheBatchIsHandedBack() {
        databaseUp.set(false);

        assertThatThrownBy(() -> processor().process(batch("a", "poison", "b")))
                .isInstanceOf(IsolatingBatchProcessor.InfrastructureUnavailableException.class);
        assertThat(deadLettered).isEmpty();
        assertThat(committed).isEmpty();

        databaseUp.set(true);
        assertThat(processor().process(batch("a", "poison", "b"))).containsExactly("a", "b");
        assertThat(deadLettered).containsExactly("poison:PROCESSING_FAILED@1");
    }

    @Test
    void aDeadLetterTopicThatDoesNotAcknowledgeFailsTheBatchInsteadOfSkippingTheRecord() {
        IsolatingBatchProcessor<String> p = new IsolatingBatchProcessor<>(
                new IsolatingBatchProcessor.Settings("test", 2, Duration.ZERO),
                r -> new Decoded.Refused<>(r, "MALFORMED_JSON", "x"), this::apply,
                (r, code, message) -> {
                    throw new IllegalStateException("dead-letter topic did not acknowledge");
                },
                databaseUp::get, IsolatingBatchProcessor.PoisonObserver.none(), meters);

        assertThatThrownBy(() -> p.process(batch("x"))).hasMessageContaining("did not acknowledge");
    }
}
