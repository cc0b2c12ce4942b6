package dev.toolonce.testsupport;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.RecordSignature;
import dev.toolonce.schemas.signing.SigningKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The signing keys of one test JVM (docs/security.md §6b): a keyring under {@code target/} that every service
 * {@link ServiceProcess} starts is given ({@code toolonce.signing.keyring-file}), holding an agents' key (intent,
 * compensate, task; every tenant) and the executor's result key. Records a test produces straight to Kafka are signed
 * here like any producer's; the services check them as they do by default.
 */
public final class TestKeys {
    private static final Path FILE = Path.of(System.getProperty("user.dir"), "target", "test-keys",
            "keyring-" + ProcessHandle.current().pid());
    private static SigningKey agents;
    private static SigningKey executor;

    private TestKeys() {
    }

    /** @return the keyring file the services of this JVM read, created on first use */
    public static synchronized Path file() {
        if (agents == null) {
            agents = add(SigningKey.generate(EnumSet.of(Power.INTENT, Power.COMPENSATE, Power.TASK), Set.of("*"),
                    "test-agents"));
            executor = add(SigningKey.generate(EnumSet.of(Power.RESULT), Set.of("*"), "test-executor"));
        }
        return FILE;
    }

    /** @return this JVM's keyring */
    public static Keyring keyring() {
        return new Keyring(file());
    }

    /** @return the agents' key: intents, compensation requests and task events of every tenant */
    public static synchronized SigningKey agents() {
        file();
        return agents;
    }

    /** @return the executor's key: results of every tenant */
    public static synchronized SigningKey executor() {
        file();
        return executor;
    }

    /**
     * Adds a key to this JVM's keyring; the services see it within half a second.
     *
     * @return the key
     */
    public static SigningKey add(SigningKey key) {
        try {
            Files.createDirectories(FILE.getParent());
            Keyring.add(FILE, key);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the test keyring " + FILE, e);
        }
        return key;
    }

    /**
     * Signs a record as its producer would: over its {@code ce_type} and {@code ce_id} headers as they are now and its
     * value, replacing any signature it had.
     *
     * @return {@code record}
     */
    public static <K> ProducerRecord<K, byte[]> sign(ProducerRecord<K, byte[]> record, SigningKey key) {
        record.headers().remove(Contract.SIGNATURE);
        record.headers().add(Contract.SIGNATURE, RecordSignature.sign(key, header(record, Contract.CE_TYPE),
                header(record, Contract.CE_ID), record.value()).getBytes(StandardCharsets.UTF_8));
        return record;
    }

    /** @return {@code record} signed with {@link #agents()} (an intent or a compensation request by its ce_type) */
    public static <K> ProducerRecord<K, byte[]> signIntent(ProducerRecord<K, byte[]> record) {
        return sign(record, agents());
    }

    /** @return {@code record} (a consumed record, as unit tests build them) signed by {@code key} */
    public static <K> ConsumerRecord<K, byte[]> sign(ConsumerRecord<K, byte[]> record, SigningKey key) {
        record.headers().remove(Contract.SIGNATURE);
        record.headers().add(Contract.SIGNATURE, RecordSignature.sign(key, header(record.headers(), Contract.CE_TYPE),
                header(record.headers(), Contract.CE_ID), record.value()).getBytes(StandardCharsets.UTF_8));
        return record;
    }

    private static String header(ProducerRecord<?, ?> record, String name) {
        return header(record.headers(), name);
    }

    private static String header(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
