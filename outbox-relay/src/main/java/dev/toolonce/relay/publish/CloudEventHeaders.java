package dev.toolonce.relay.publish;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

import dev.toolonce.schemas.Contract;

/**
 * The CloudEvents Kafka binding (binary mode) of an outbox row, with the header names of public
 * contract v1 ({@link Contract}, docs/contract.md §4). All values are UTF-8. Pure; no I/O.
 */
public final class CloudEventHeaders {

    private CloudEventHeaders() {
    }

    /**
     * Headers for {@code row}: {@code ce_specversion=1.0}, {@code ce_id}, {@code ce_type},
     * {@code ce_source}, {@code ce_time} (ISO-8601 UTC), {@code ce_subject} and
     * {@code traceparent} and {@code toolonce-signature} only when the row has them, {@code content-type=application/json}.
     *
     * @return a new mutable list; never null
     */
    public static List<Header> of(OutboxRow row) {
        List<Header> headers = new ArrayList<>(8);
        add(headers, Contract.CE_SPECVERSION, "1.0");
        add(headers, Contract.CE_ID, row.id());
        add(headers, Contract.CE_TYPE, row.eventType());
        add(headers, Contract.CE_SOURCE, row.source());
        add(headers, Contract.CE_TIME, row.createdAt().toString());
        if (row.subject() != null) {
            add(headers, Contract.CE_SUBJECT, row.subject());
        }
        add(headers, Contract.CONTENT_TYPE, "application/json");
        if (row.traceparent() != null) {
            add(headers, Contract.TRACEPARENT, row.traceparent());
        }
        if (row.signature() != null) {
            add(headers, Contract.SIGNATURE, row.signature());
        }
        return headers;
    }

    static void add(List<Header> headers, String name, String value) {
        headers.add(new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8)));
    }
}
