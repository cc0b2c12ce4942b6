package dev.toolonce.security.kafka;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Kafka client settings that a command-line tool (the bench, the chaos experiment) adds to every Kafka client it
 * builds: the standard security settings ({@code security.protocol}, {@code sasl.mechanism}, {@code sasl.jaas.config},
 * {@code ssl.truststore.*}, {@code ssl.keystore.*}, …) and any other client setting, by their Kafka names, read from
 * a Kafka client {@code .properties} file: {@code --kafka-config FILE}, else the file named by the environment
 * variable {@value #ENV} (docs/security.md §6a).
 *
 * <p>The tool's own settings are put after the file's, so they hold; the settings its results rest on
 * ({@link #REFUSED}) are refused when the file is read, naming the key, instead of being overridden in silence.
 * Immutable; no method accepts or returns {@code null}.
 */
public final class KafkaClientSettings {

    /** The environment variable naming the file when no {@code --kafka-config} is given. */
    public static final String ENV = "TOOLONCE_KAFKA_CONFIG";
    /**
     * Settings a tool sets itself, which a file may not change: where to connect ({@code --kafka}), how records are
     * (de)serialized, the delivery guarantee of its producers and the group and offsets of its consumers.
     */
    public static final Set<String> REFUSED = Set.of("bootstrap.servers", "key.serializer", "value.serializer",
            "key.deserializer", "value.deserializer", "acks", "enable.idempotence", "transactional.id",
            "group.id", "enable.auto.commit");

    private static final KafkaClientSettings NONE = new KafkaClientSettings(null, Map.of());

    private final Path file;
    private final Map<String, String> settings;

    private KafkaClientSettings(Path file, Map<String, String> settings) {
        this.file = file;
        this.settings = Collections.unmodifiableMap(new TreeMap<>(settings));
    }

    /** @return no settings: a plaintext broker without authentication, as the local stack's */
    public static KafkaClientSettings none() {
        return NONE;
    }

    /**
     * Reads a Kafka client {@code .properties} file.
     *
     * @throws IllegalArgumentException if the file cannot be read, or names a {@link #REFUSED} setting (the message
     *     names the file and the key)
     */
    public static KafkaClientSettings load(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot read the Kafka client settings " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        p.stringPropertyNames().forEach(k -> settings.put(k, p.getProperty(k)));
        return of(file, settings);
    }

    /**
     * @param env the environment
     * @return the settings of the file {@value #ENV} names, or {@link #none()} when it is unset or blank
     * @throws IllegalArgumentException as {@link #load}
     */
    public static KafkaClientSettings fromEnvironment(Map<String, String> env) {
        String file = env.get(ENV);
        return file == null || file.isBlank() ? none() : load(Path.of(file.trim()));
    }

    /**
     * @param source names where the settings come from in error messages (a file), or {@code null}
     * @throws IllegalArgumentException if a key is {@link #REFUSED} or blank
     */
    static KafkaClientSettings of(Path source, Map<String, String> settings) {
        String from = source == null ? "the Kafka client settings" : source.toString();
        for (String key : settings.keySet()) {
            if (key.isBlank()) {
                throw new IllegalArgumentException(from + " has an empty key");
            }
            if (REFUSED.contains(key)) {
                throw new IllegalArgumentException(from + " sets " + key + ", which the tool sets itself (its results "
                        + "rest on it): remove it" + (key.equals("bootstrap.servers") ? "; give the bootstrap servers "
                        + "with --kafka" : ""));
            }
        }
        return new KafkaClientSettings(source, settings);
    }

    /** @return the file the settings were read from; empty for {@link #none()} */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /** @return the settings, sorted by key; unmodifiable */
    public Map<String, String> settings() {
        return settings;
    }

    /**
     * @param own the client's own settings, which win
     * @return a new {@code Properties}: these settings, then {@code own}
     */
    public Properties with(Properties own) {
        Properties p = new Properties();
        p.putAll(settings);
        p.putAll(own);
        return p;
    }

    /** Names the file and the keys, never a value: values hold passwords. */
    @Override
    public String toString() {
        return file == null ? "no Kafka client settings" : "Kafka client settings " + settings.keySet() + " from " + file;
    }
}
