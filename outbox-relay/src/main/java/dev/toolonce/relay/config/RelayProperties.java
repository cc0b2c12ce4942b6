package dev.toolonce.relay.config;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Set;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import dev.toolonce.schemas.Contract;

/**
 * Settings of the relay, bound from {@code toolonce.relay.*} and validated when bound: an
 * invalid value stops start-up with a message that names the property and says what to change.
 *
 * @param sources            databases to relay from; at least one, names and slots unique
 * @param kafkaBootstrap     Kafka bootstrap servers ({@code host:port[,host:port]})
 * @param pollInterval       how long a Debezium engine's streaming thread sleeps when the
 *                           replication stream has nothing to read; it bounds the extra delay
 *                           of the first change after a quiet spell, and a shorter sleep costs
 *                           idle CPU (the engine's poll itself waits for events without a timer)
 * @param maxPollInterval    the largest {@code poll-interval} accepted (20 ms unless raised
 *                           deliberately, because the latency figures depend on it)
 * @param maxBatchSize       the most change events handed to one {@code handleBatch} call
 * @param offsetFlushInterval how often an engine stores its position (rows already acknowledged
 *                           by Kafka) and confirms it to the slot; {@code 0} after every batch.
 *                           Longer means fewer writes and more rows sent again after a crash
 * @param heartbeatInterval  how often each engine runs its heartbeat query, so the slot
 *                           advances on an otherwise idle database
 * @param deadLetterTopic    where records go that Kafka can never accept (too large, bad topic)
 * @param maxRecordBytes     the largest record (key + value + headers) sent to its topic; a
 *                           larger one is dead-lettered without its value
 * @param restartBackoffMin  first wait before a failed engine is started again (doubles)
 * @param restartBackoffMax  longest wait between two engine restarts; it bounds how long the
 *                           relay takes to resume once a crashed PostgreSQL or Kafka is back,
 *                           so it is capped at {@value #MAX_RESTART_BACKOFF_SECONDS} s
 * @param kafkaProperties    further Kafka client settings of the relay's producer and admin client, by their Kafka
 *                           names — what a secured broker needs: {@code security.protocol}, {@code sasl.mechanism},
 *                           {@code sasl.jaas.config}, {@code ssl.truststore.location}, {@code ssl.keystore.*}, …
 *                           (docs/security.md). The settings the relay's guarantee rests on ({@code acks},
 *                           {@code enable.idempotence}, serializers, {@code bootstrap.servers}) are refused here
 */
@ConfigurationProperties("toolonce.relay")
public record RelayProperties(
        List<Source> sources,
        @DefaultValue("127.0.0.1:29092") String kafkaBootstrap,
        @DefaultValue("2ms") Duration pollInterval,
        @DefaultValue("20ms") Duration maxPollInterval,
        @DefaultValue("2048") int maxBatchSize,
        @DefaultValue("1s") Duration offsetFlushInterval,
        @DefaultValue("5s") Duration heartbeatInterval,
        @DefaultValue(Contract.RELAY_DLQ_TOPIC) String deadLetterTopic,
        @DefaultValue("1MB") DataSize maxRecordBytes,
        @DefaultValue("500ms") Duration restartBackoffMin,
        @DefaultValue("2s") Duration restartBackoffMax,
        Map<String, String> kafkaProperties) {

    /** The longest restart backoff accepted: resume must follow a recovered dependency within seconds. */
    public static final long MAX_RESTART_BACKOFF_SECONDS = 5;
    private static final String P = "toolonce.relay.";
    private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]{1,249}");
    /** Kafka settings {@code kafka-properties} may not change. */
    public static final Set<String> RELAY_OWNED_KAFKA_SETTINGS = Set.of("acks", "enable.idempotence", "key.serializer",
            "value.serializer", "bootstrap.servers", "max.in.flight.requests.per.connection", "retries");

    /** Validates every setting; throws {@link IllegalArgumentException} naming the property. */
    public RelayProperties {
        sources = sources == null ? List.of() : List.copyOf(sources);
        kafkaProperties = kafkaProperties == null ? Map.of() : Map.copyOf(kafkaProperties);
        for (String key : kafkaProperties.keySet()) {
            require(!RELAY_OWNED_KAFKA_SETTINGS.contains(key), P + "kafka-properties." + key + " is set by the relay itself "
                    + "(its delivery guarantee or its wiring depends on it): remove it; bootstrap servers are "
                    + P + "kafka-bootstrap");
        }
        require(!sources.isEmpty(), P + "sources is empty: configure at least one source "
                + "(name, jdbc-url, slot, publication, table)");
        require(kafkaBootstrap != null && !kafkaBootstrap.isBlank(),
                P + "kafka-bootstrap is empty: set it (or KAFKA_BOOTSTRAP) to host:port");
        requirePositive(pollInterval, "poll-interval");
        requirePositive(maxPollInterval, "max-poll-interval");
        require(pollInterval.compareTo(maxPollInterval) <= 0, P + "poll-interval is "
                + pollInterval.toMillis() + "ms but must be at most " + maxPollInterval.toMillis()
                + "ms: lower poll-interval, or raise max-poll-interval if the slower relay is intended");
        require(maxBatchSize >= 1 && maxBatchSize <= 65_536,
                P + "max-batch-size is " + maxBatchSize + ": set a value between 1 and 65536");
        require(offsetFlushInterval != null && !offsetFlushInterval.isNegative()
                        && offsetFlushInterval.compareTo(Duration.ofMinutes(1)) <= 0,
                P + "offset-flush-interval is " + offsetFlushInterval + ": set a duration between 0 and 1m");
        requirePositive(heartbeatInterval, "heartbeat-interval");
        require(heartbeatInterval.toMillis() >= 100,
                P + "heartbeat-interval is " + heartbeatInterval.toMillis() + "ms: set at least 100ms");
        require(deadLetterTopic != null && validTopic(deadLetterTopic), P + "dead-letter-topic '"
                + deadLetterTopic + "' is not a valid Kafka topic name ([A-Za-z0-9._-]{1,249})");
        require(maxRecordBytes != null && maxRecordBytes.toBytes() >= 1024
                        && maxRecordBytes.toBytes() <= 64L * 1024 * 1024,
                P + "max-record-bytes is " + maxRecordBytes + ": set a value between 1KB and 64MB");
        requirePositive(restartBackoffMin, "restart-backoff-min");
        requirePositive(restartBackoffMax, "restart-backoff-max");
        require(restartBackoffMin.compareTo(restartBackoffMax) <= 0, P + "restart-backoff-min is "
                + restartBackoffMin.toMillis() + "ms but restart-backoff-max is " + restartBackoffMax.toMillis()
                + "ms: the first wait cannot be longer than the longest");
        require(restartBackoffMax.compareTo(Duration.ofSeconds(MAX_RESTART_BACKOFF_SECONDS)) <= 0,
                P + "restart-backoff-max is " + restartBackoffMax.toMillis() + "ms: set at most "
                        + MAX_RESTART_BACKOFF_SECONDS + "s, or the relay resumes that much later after a "
                        + "database or broker restart");
        validateSources(sources);
    }

    /** Whether Kafka accepts {@code name} as a topic name. */
    public static boolean validTopic(String name) {
        return name != null && TOPIC.matcher(name).matches() && !name.equals(".") && !name.equals("..");
    }

    private static void validateSources(List<Source> sources) {
        Set<String> names = new HashSet<>();
        Set<String> slots = new HashSet<>();
        for (int i = 0; i < sources.size(); i++) {
            Source source = sources.get(i);
            String at = P + "sources[" + i + "]";
            require(source != null, at + " is empty");
            source.validate(at);
            require(names.add(source.name()), at + ".name '" + source.name()
                    + "' is used by another source: give every source its own name");
            String slotKey = source.location().hostAndPort() + "/" + source.slot();
            require(slots.add(slotKey), at + ".slot '" + source.slot() + "' is used by another source on "
                    + source.location().hostAndPort() + ": replication slots are per server, give each source its own");
        }
    }

    private static void requirePositive(Duration d, String name) {
        require(d != null && !d.isNegative() && !d.isZero(), P + name + " must be a positive duration (e.g. 10ms)");
    }

    static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * One database whose outbox table is relayed.
     *
     * @param name        the source's name: the Debezium {@code topic.prefix} and engine name
     * @param jdbcUrl     {@code jdbc:postgresql://host:port/database[?params]} of the source
     * @param username    database user with the REPLICATION attribute (default {@code postgres})
     * @param password    its password (default empty)
     * @param slot        logical replication slot owned by this source (created if missing)
     * @param publication publication of the outbox table, created by the service's migration
     * @param table       the outbox table as {@code schema.table}
     */
    public record Source(String name, String jdbcUrl, String username, String password,
                         String slot, String publication, String table) {

        private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
        private static final Pattern SLOT = Pattern.compile("[a-z0-9_]{1,63}");
        private static final Pattern IDENT = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
        private static final Pattern TABLE = Pattern.compile("[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}");

        /** Applies the defaults of {@code username} and {@code password}. */
        public Source {
            username = username == null || username.isBlank() ? "postgres" : username;
            password = password == null ? "" : password;
        }

        void validate(String at) {
            require(name != null && NAME.matcher(name).matches(), at + ".name '" + name
                    + "' must match [A-Za-z0-9_-]{1,64} (it becomes the Debezium topic.prefix)");
            require(jdbcUrl != null, at + ".jdbc-url is missing: set jdbc:postgresql://host:port/database");
            JdbcLocation.parse(jdbcUrl, at + ".jdbc-url");
            require(slot != null && SLOT.matcher(slot).matches(), at + ".slot '" + slot
                    + "' must match [a-z0-9_]{1,63} (a PostgreSQL replication slot name)");
            require(publication != null && IDENT.matcher(publication).matches(), at + ".publication '"
                    + publication + "' must be a lower-case PostgreSQL identifier ([a-z_][a-z0-9_]{0,62})");
            require(table != null && TABLE.matcher(table).matches(), at + ".table '" + table
                    + "' must be schema.table in lower case, e.g. executor.outbox_event");
        }

        /** Host, port and database of {@link #jdbcUrl()}. */
        public JdbcLocation location() {
            return JdbcLocation.parse(jdbcUrl, "jdbc-url of source " + name);
        }

        /** Schema part of {@link #table()}. */
        public String schema() {
            return table.substring(0, table.indexOf('.'));
        }

        /** Table part of {@link #table()}, without the schema. */
        public String tableName() {
            return table.substring(table.indexOf('.') + 1);
        }

        @Override
        public String toString() {
            return "Source[name=" + name + ", jdbcUrl=" + jdbcUrl + ", username=" + username
                    + ", slot=" + slot + ", publication=" + publication + ", table=" + table + "]";
        }
    }
}
