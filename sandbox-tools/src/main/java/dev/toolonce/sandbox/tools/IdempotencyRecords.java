package dev.toolonce.sandbox.tools;

import dev.toolonce.sandbox.http.Json;
import java.time.Duration;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.node.ObjectNode;

/**
 * The payments provider's memory of idempotency keys: which object a key created, with which
 * body, and when. Bodies are compared as {@code jsonb}, so key order and whitespace do not matter.
 */
public class IdempotencyRecords {

    static final String FIND = """
            SELECT object_id,
                   request_body = CAST(:body AS jsonb) AS same_body,
                   created_at > clock_timestamp() - make_interval(secs => :windowSeconds) AS live
              FROM sandbox.idempotency_record
             WHERE operation = :operation AND idempotency_key = :key
            """;

    static final String SAVE = """
            INSERT INTO sandbox.idempotency_record (operation, idempotency_key, request_body, object_id, created_at)
            VALUES (:operation, :key, CAST(:body AS jsonb), :objectId, clock_timestamp())
            ON CONFLICT (operation, idempotency_key) DO UPDATE
               SET request_body = EXCLUDED.request_body,
                   object_id = EXCLUDED.object_id,
                   created_at = EXCLUDED.created_at
            """;

    /**
     * A key the provider remembers.
     *
     * @param sameBody whether it was first used with the same body as the current request
     * @param live     whether it is still inside the idempotency window
     */
    public record StoredKey(String objectId, boolean sameBody, boolean live) {
    }

    private final JdbcClient jdbc;

    public IdempotencyRecords(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** @return the stored key compared with {@code body}, or empty when the key was never used */
    public Optional<StoredKey> find(String operation, String key, ObjectNode body, Duration window) {
        return jdbc.sql(FIND)
                .param("operation", operation)
                .param("key", key)
                .param("body", Json.text(body))
                .param("windowSeconds", window.toMillis() / 1000.0)
                .query((rs, row) -> new StoredKey(rs.getString("object_id"), rs.getBoolean("same_body"),
                        rs.getBoolean("live")))
                .optional();
    }

    /** Remembers (or, after the window, re-binds) {@code key} to the object it created. */
    public void save(String operation, String key, ObjectNode body, String objectId) {
        jdbc.sql(SAVE)
                .param("operation", operation)
                .param("key", key)
                .param("body", Json.text(body))
                .param("objectId", objectId)
                .update();
    }
}
