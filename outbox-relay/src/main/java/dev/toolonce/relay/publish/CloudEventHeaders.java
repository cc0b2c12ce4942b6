package dev.toolonce.relay.publish;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The CloudEvents Kafka binding (binary mode) of an outbox row, as public contract v1 names
 * the headers. All values are UTF-8. Pure; no I/O.
 */
public final class CloudEventHeaders {

    public static final String SPEC_VERSION = "ce_specversion";
    public static final String ID = "ce_id";
    public static final String TYPE = "ce_type";
    public static final String SOURCE = "ce_source";
    public static final String TIME = "ce_time";
    public static final String SUBJECT = "ce_subject";
    public static final String CONTENT_TYPE = "content-type";
    public static final String TRACEPARENT = "traceparent";

    private CloudEventHeaders() {
    }

    /**
     * Headers for {@code row}: {@code ce_specversion=1.0}, {@code ce_id}, {@code ce_type},
     * {@code ce_source}, {@code ce_time} (ISO-8601 UTC), {@code ce_subject} and
     * {@code traceparent} only when the row has them, {@code content-type=application/json}.
     *
     * @return a new mutable list; never null
     */
    public static List<Header> of(OutboxRow row) {
        List<Header> headers = new ArrayList<>(8);
        add(headers, SPEC_VERSION, "1.0");
        add(headers, ID, row.id());
        add(headers, TYPE, row.eventType());
        add(headers, SOURCE, row.source());
        add(headers, TIME, row.createdAt().toString());
        if (row.subject() != null) {
            add(headers, SUBJECT, row.subject());
        }
        add(headers, CONTENT_TYPE, "application/json");
        if (row.traceparent() != null) {
            add(headers, TRACEPARENT, row.traceparent());
        }
        return headers;
    }

    static void add(List<Header> headers, String name, String value) {
        headers.add(new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8)));
    }
}
