package dev.toolonce.executor.deadletter;

import static dev.toolonce.messaging.SignedRecords.header;

import dev.toolonce.executor.ledger.DeadLetterReplayStore;
import dev.toolonce.schemas.Contract;
import dev.toolonce.security.TenantScope;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.server.ResponseStatusException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The dead-letter topics, read and replayed for operators (issue 23, API v1; docs/operations.md §4). A dead letter is
 * known by its place, {@code <topic>/<partition>/<offset>}; a list walks a topic's partitions in order a page at a
 * time. Records are read without a consumer group (assigned partitions, nothing committed), so reading never moves
 * anybody's offsets.
 *
 * <p>Who sees what: a dead letter belongs to the tenant its value names ({@code tenantId}), and a principal sees the
 * dead letters of its tenants; a record whose value names no tenant (not JSON, or not one of ours) is seen by
 * principals of every tenant only. The tenant is the record's <em>claim</em>, nothing more: a replay puts the record
 * back exactly as it was (key, value, the producer's headers and signature, minus the dead-letter headers) and the
 * consumer checks it again from scratch, signature and all — a replay cannot make a record do what its producer could
 * not. And it cannot make it happen twice: a record that was applied after all is absorbed by the consumer's inbox on
 * its message id ({@code ce_id}), answered as a duplicate, never executed again.
 *
 * <p>A replay goes only to one of the {@code replayTopics} (the topics a consumer of ToolOnce reads), never to a
 * dead-letter topic; a relay dead letter whose value was left out because it was too large cannot be replayed (its
 * outbox row still holds it); nor can a record first written before intake's acceptance window, since what would
 * absorb it (its call, its inbox row) may have been purged. Each replay is audited ({@link DeadLetterReplayStore}) after the broker acknowledged it.
 */
public final class DeadLetters {
    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);
    private static final Pattern ID = Pattern.compile("(.+)/(\\d{1,9})/(\\d{1,18})");
    private static final String CURSOR_PREFIX = "d1:";
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration READ_BUDGET = Duration.ofSeconds(5);
    /** Most records one list request looks at, whatever the page size: a tenant's page among many others' ends. */
    private static final int SCAN_BUDGET = 2000;
    /** Values larger than this are not parsed for their tenant (and so are seen by principals of every tenant only). */
    private static final int MAX_PARSED_BYTES = 1 << 20;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A place in a dead-letter topic. */
    public record Place(String topic, int partition, long offset) {
        static Place parse(String id) {
            Matcher m = ID.matcher(id == null ? "" : id);
            if (!m.matches()) {
                throw new IllegalArgumentException("a dead letter is named <topic>/<partition>/<offset> (was " + id + ")");
            }
            return new Place(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3)));
        }

        public String id() {
            return topic + "/" + partition + "/" + offset;
        }
    }

    /** One page of a topic's dead letters in partition, then offset order; {@code nextCursor} null at the end. */
    public record Page(List<Map<String, Object>> items, String nextCursor) {
    }

    private final ConsumerFactory<byte[], byte[]> consumers;
    private final KafkaTemplate<byte[], byte[]> kafka;
    private final DeadLetterReplayStore replays;
    private final Set<String> topics;
    private final Set<String> replayTopics;
    private final Duration window;
    private final AtomicLong readers = new AtomicLong();

    /**
     * @param topics       the dead-letter topics operators may read
     * @param replayTopics the topics a dead letter may be replayed to
     * @param window       how old a record may be and still be replayed: intake's acceptance window ({@code retention
     *                     − retention-margin}, docs/protocol.md §13), beyond which the ledger and the inboxes may have
     *                     forgotten what would absorb it
     */
    public DeadLetters(ConsumerFactory<byte[], byte[]> consumers, KafkaTemplate<byte[], byte[]> kafka,
                       DeadLetterReplayStore replays, List<String> topics, List<String> replayTopics,
                       Duration window) {
        this.consumers = consumers;
        this.kafka = kafka;
        this.replays = replays;
        this.topics = Set.copyOf(topics);
        this.replayTopics = Set.copyOf(replayTopics);
        this.window = window;
        if (!java.util.Collections.disjoint(this.topics, this.replayTopics)) {
            throw new IllegalArgumentException("a dead-letter topic cannot be a replay topic: " + topics + " / "
                    + replayTopics);
        }
    }

    /**
     * Each dead-letter topic with the records it holds now (end minus beginning offsets, over its partitions). The
     * count is of every tenant's records, so only a principal of every tenant is told it ({@code records} null else).
     */
    public List<Map<String, Object>> topics(TenantScope scope) {
        List<Map<String, Object>> out = new ArrayList<>();
        try (Consumer<byte[], byte[]> c = consumer()) {
            for (String topic : new java.util.TreeSet<>(topics)) {
                List<TopicPartition> parts = partitions(c, topic);
                Map<TopicPartition, Long> begin = c.beginningOffsets(parts);
                Map<TopicPartition, Long> end = c.endOffsets(parts);
                long held = parts.stream().mapToLong(tp -> end.get(tp) - begin.get(tp)).sum();
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("topic", topic);
                m.put("partitions", parts.size());
                m.put("records", scope.all() ? held : null);
                out.add(m);
            }
        }
        return out;
    }

    /**
     * A page of {@code topic}'s dead letters the scope may see, from the cursor (or the beginning), optionally only
     * those of one error code.
     */
    public Page page(String topic, TenantScope scope, String code, String cursor, int limit) {
        known(topic);
        List<Map<String, Object>> items = new ArrayList<>();
        try (Consumer<byte[], byte[]> c = consumer()) {
            List<TopicPartition> parts = partitions(c, topic);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            Map<Integer, Long> from = cursor == null ? new TreeMap<>() : decode(cursor);
            Map<TopicPartition, Long> begin = c.beginningOffsets(parts);
            int scanned = 0;
            long deadline = System.nanoTime() + READ_BUDGET.toNanos();
            for (TopicPartition tp : parts) {
                long start = Math.max(from.getOrDefault(tp.partition(), 0L), begin.get(tp));
                long next = start;
                c.assign(List.of(tp));
                c.seek(tp, next);
                while (next < end.get(tp) && items.size() < limit && scanned < SCAN_BUDGET
                        && System.nanoTime() < deadline) {
                    List<ConsumerRecord<byte[], byte[]>> polled = c.poll(POLL).records(tp);
                    if (polled.isEmpty()) {
                        next = Math.max(next, c.position(tp)); // past offsets that hold no record, if any
                    }
                    for (ConsumerRecord<byte[], byte[]> r : polled) {
                        if (r.offset() >= end.get(tp) || items.size() >= limit || scanned >= SCAN_BUDGET) {
                            break;
                        }
                        scanned++;
                        next = r.offset() + 1;
                        String tenant = tenant(r);
                        if (visible(tenant, scope)
                                && (code == null || code.equals(header(r, Contract.DLQ_ERROR_CODE)))) {
                            items.add(summary(r, tenant));
                        }
                    }
                }
                if (next < end.get(tp) && scanned == 0 && items.isEmpty() && next == start) {
                    // nothing read at all (the broker did not answer in time): a cursor to the same place would loop
                    throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "topic " + topic
                            + " could not be read within " + READ_BUDGET + ": try again");
                }
                from.put(tp.partition(), next);
                if (next < end.get(tp)) {
                    return new Page(items, encode(from)); // stopped inside this partition: go on from here
                }
            }
        }
        return new Page(items, null);
    }

    /** One dead letter with its headers, key and value, and every replay of it. */
    public Map<String, Object> show(String id, TenantScope scope) {
        Letter letter = read(Place.parse(id), scope);
        ConsumerRecord<byte[], byte[]> r = letter.record();
        Map<String, Object> m = summary(r, letter.tenant());
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header h : r.headers()) {
            headers.put(h.key(), text(h.value()).get("text"));
        }
        m.put("headers", headers);
        m.put("value", text(r.value()));
        m.put("replays", replays.of(r.topic(), r.partition(), r.offset()));
        return m;
    }

    /**
     * Sends a copy of the dead letter back to the topic it came from and audits it.
     *
     * @throws NoSuchElementException for a dead letter that does not exist or that the scope may not see
     * @throws IllegalStateException  for one that cannot be replayed (its value was left out, or its topic is not a
     *                                replay topic)
     */
    public Map<String, Object> replay(String id, TenantScope scope, String principal, String reason) {
        Place place = Place.parse(id);
        Letter letter = read(place, scope);
        ConsumerRecord<byte[], byte[]> r = letter.record();
        String to = header(r, Contract.DLQ_ORIGINAL_TOPIC);
        if (to == null || !replayTopics.contains(to)) {
            throw new IllegalStateException("dead letter " + id + " came from " + (to == null ? "no named topic" : to)
                    + ", which is not a topic a dead letter is replayed to (" + new java.util.TreeSet<>(replayTopics)
                    + ")");
        }
        Instant first = Instant.ofEpochMilli(originalTimestamp(r));
        if (first.isBefore(Instant.now().minus(window))) {
            throw new IllegalStateException("dead letter " + id + " was first written at " + first + ", before the "
                    + "acceptance window of " + window + ": what would absorb a copy may be purged; it is not replayed");
        }
        if (header(r, Contract.DLQ_ORIGINAL_VALUE_BYTES) != null) {
            throw new IllegalStateException("dead letter " + id + " was sent without its value (too large for Kafka): "
                    + "its outbox row still holds it; there is nothing here to replay");
        }
        RecordHeaders headers = new RecordHeaders();
        for (Header h : r.headers()) {
            if (!h.key().startsWith("toolonce.error.") && !h.key().startsWith("toolonce.original.")
                    && !h.key().equals(Contract.REPLAYED_FROM)) {
                headers.add(h);
            }
        }
        headers.add(Contract.REPLAYED_FROM, place.id().getBytes(StandardCharsets.UTF_8));
        RecordMetadata sent = send(new ProducerRecord<>(to, null, r.key(), r.value(), headers));
        log.info("dead letter {} replayed to {}-{}@{} by {}: {}", id, to, sent.partition(), sent.offset(), principal,
                reason);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("replayedTo", to + "/" + sent.partition() + "/" + sent.offset());
        m.put("messageId", header(r, Contract.CE_ID));
        try {
            replays.record(new DeadLetterReplayStore.Replay(r.topic(), r.partition(), r.offset(),
                    header(r, Contract.DLQ_ERROR_CODE), letter.tenant(), header(r, Contract.CE_ID), to, sent.partition(),
                    sent.offset(), principal, reason));
            m.put("audited", true);
        } catch (RuntimeException e) { // sent all the same: say so, rather than fail a replay that happened
            log.error("dead letter {} was replayed to {}-{}@{} by {} but its audit row could not be written", id, to,
                    sent.partition(), sent.offset(), principal, e);
            m.put("audited", false);
        }
        return m;
    }

    private RecordMetadata send(ProducerRecord<byte[], byte[]> record) {
        try {
            return kafka.send(record).get(30, TimeUnit.SECONDS).getRecordMetadata();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while replaying", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("topic " + record.topic() + " did not acknowledge the replay: " + e, e);
        }
    }

    /** A dead letter and the tenant its value names (null: none), read once. */
    private record Letter(ConsumerRecord<byte[], byte[]> record, String tenant) {
    }

    private Letter read(Place place, TenantScope scope) {
        known(place.topic());
        TopicPartition tp = new TopicPartition(place.topic(), place.partition());
        try (Consumer<byte[], byte[]> c = consumer()) {
            if (place.partition() >= partitions(c, place.topic()).size()) {
                throw new NoSuchElementException("no dead letter " + place.id());
            }
            long end = c.endOffsets(List.of(tp)).get(tp);
            if (place.offset() >= end || place.offset() < c.beginningOffsets(List.of(tp)).get(tp)) {
                throw new NoSuchElementException("no dead letter " + place.id());
            }
            c.assign(List.of(tp));
            c.seek(tp, place.offset());
            long deadline = System.nanoTime() + READ_BUDGET.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(POLL).records(tp)) {
                    Letter letter = r.offset() == place.offset() ? new Letter(r, tenant(r)) : null;
                    if (letter != null && visible(letter.tenant(), scope)) {
                        return letter;
                    }
                    if (r.offset() >= place.offset()) { // there (not ours), or gone (a compacted or aborted offset)
                        throw new NoSuchElementException("no dead letter " + place.id());
                    }
                }
            }
            throw new IllegalStateException("dead letter " + place.id() + " could not be read within " + READ_BUDGET);
        }
    }

    private void known(String topic) {
        if (!topics.contains(topic)) {
            throw new NoSuchElementException("no dead-letter topic " + topic + " (the topics are "
                    + new java.util.TreeSet<>(topics) + ")");
        }
    }

    private Consumer<byte[], byte[]> consumer() {
        Properties p = new Properties();
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "500");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false"); // reading a DLQ never creates it
        return consumers.createConsumer("toolonce-dead-letter-reader", "dead-letters-",
                Long.toString(readers.incrementAndGet()), p);
    }

    private static List<TopicPartition> partitions(Consumer<byte[], byte[]> c, String topic) {
        List<PartitionInfo> infos = c.partitionsFor(topic);
        if (infos == null || infos.isEmpty()) {
            return List.of();
        }
        return infos.stream().map(i -> new TopicPartition(topic, i.partition()))
                .sorted(java.util.Comparator.comparingInt(TopicPartition::partition)).toList();
    }

    /** Whether the scope sees a dead letter of {@code tenant}: its own tenants', and those of none to every tenant's. */
    private static boolean visible(String tenant, TenantScope scope) {
        return scope.all() || tenant != null && scope.includes(tenant);
    }

    /** The tenant the record's value names, or null when it names none (or cannot be read). */
    static String tenant(ConsumerRecord<byte[], byte[]> r) {
        byte[] v = r.value();
        if (v == null || v.length == 0 || v.length > MAX_PARSED_BYTES) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(v);
            JsonNode t = n == null ? null : n.get("tenantId");
            return t != null && t.isString() && !t.asString().isEmpty() ? t.asString() : null;
        } catch (RuntimeException e) {
            return null; // not JSON, or beyond what the parser takes: no tenant
        }
    }

    private static Map<String, Object> summary(ConsumerRecord<byte[], byte[]> r, String tenant) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", new Place(r.topic(), r.partition(), r.offset()).id());
        m.put("deadLetteredAt", Instant.ofEpochMilli(r.timestamp()).toString());
        m.put("errorCode", header(r, Contract.DLQ_ERROR_CODE));
        m.put("errorMessage", header(r, Contract.DLQ_ERROR_MESSAGE));
        m.put("originalTopic", header(r, Contract.DLQ_ORIGINAL_TOPIC));
        m.put("originalPartition", header(r, Contract.DLQ_ORIGINAL_PARTITION));
        m.put("originalOffset", header(r, Contract.DLQ_ORIGINAL_OFFSET));
        m.put("tenantId", tenant);
        m.put("messageId", header(r, Contract.CE_ID));
        m.put("type", header(r, Contract.CE_TYPE));
        m.put("key", r.key() == null ? null : text(r.key()).get("text"));
        m.put("valueBytes", r.value() == null ? 0 : r.value().length);
        return m;
    }

    /** When the record was first written: its original timestamp, or the dead letter's own when it has none. */
    private static long originalTimestamp(ConsumerRecord<byte[], byte[]> r) {
        try {
            String t = header(r, Contract.DLQ_ORIGINAL_TIMESTAMP);
            return t == null ? r.timestamp() : Math.min(Long.parseLong(t.trim()), r.timestamp());
        } catch (NumberFormatException e) {
            return r.timestamp();
        }
    }

    /** Bytes as UTF-8 text when they are valid UTF-8, otherwise as base64: never silently altered. */
    private static Map<String, String> text(byte[] bytes) {
        Map<String, String> m = new LinkedHashMap<>();
        if (bytes == null) {
            m.put("encoding", "none");
            m.put("text", null);
            return m;
        }
        try {
            String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            m.put("encoding", "utf-8");
            m.put("text", s);
        } catch (CharacterCodingException e) {
            m.put("encoding", "base64");
            m.put("text", Base64.getEncoder().encodeToString(bytes));
        }
        return m;
    }

    private static String encode(Map<Integer, Long> next) {
        StringBuilder sb = new StringBuilder();
        next.forEach((p, o) -> sb.append(sb.isEmpty() ? "" : ",").append(p).append(':').append(o));
        return CURSOR_PREFIX + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static Map<Integer, Long> decode(String cursor) {
        Map<Integer, Long> out = new TreeMap<>();
        try {
            if (!cursor.startsWith(CURSOR_PREFIX)) {
                throw new IllegalArgumentException("unknown cursor version");
            }
            String s = new String(Base64.getUrlDecoder().decode(cursor.substring(CURSOR_PREFIX.length())),
                    StandardCharsets.UTF_8);
            for (String part : s.split(",")) {
                String[] po = part.split(":");
                out.put(Integer.parseInt(po[0]), Long.parseLong(po[1]));
            }
            return out;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("cursor is not one this API gave out (" + e.getMessage() + ")");
        }
    }
}
