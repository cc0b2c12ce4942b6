package dev.toolonce.messaging;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Verdict;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** Checks a consumed record's {@code toolonce-signature} (docs/contract.md §4a) against a keyring. */
public final class SignedRecords {
    private SignedRecords() {
    }

    /** @return whose key signed the record, or why it is refused; never throws for bad input */
    public static Verdict verify(Keyring keyring, ConsumerRecord<byte[], byte[]> record) {
        return keyring.verify(header(record, Contract.SIGNATURE), header(record, Contract.CE_TYPE),
                header(record, Contract.CE_ID), record.value());
    }

    /** @return the last header of that name as UTF-8, or null */
    public static String header(ConsumerRecord<?, ?> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
