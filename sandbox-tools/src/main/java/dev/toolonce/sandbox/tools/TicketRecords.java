package dev.toolonce.sandbox.tools;

import dev.toolonce.sandbox.http.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.node.ObjectNode;

/** The ticket provider's tickets, rendered as the provider's JSON. */
public class TicketRecords {

    static final String INSERT = """
            INSERT INTO sandbox.ticket (id, external_reference, title, status, created_at)
            VALUES (:id, :reference, :title, 'open', clock_timestamp())
            """;

    static final String FIND_BY_REFERENCE = """
            SELECT id, external_reference, title, status FROM sandbox.ticket WHERE external_reference = :reference
            """;

    static final String LOCK_BY_ID = """
            SELECT id, external_reference, title, status FROM sandbox.ticket WHERE id = :id FOR UPDATE
            """;

    static final String CANCEL = """
            UPDATE sandbox.ticket SET status = 'cancelled' WHERE id = :id AND status <> 'cancelled'
            """;

    private final JdbcClient jdbc;

    public TicketRecords(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    ObjectNode insert(String id, String reference, String title) {
        jdbc.sql(INSERT).param("id", id).param("reference", reference).param("title", title).update();
        return ticket(id, reference, title, "open");
    }

    Optional<ObjectNode> findByReference(String reference) {
        return jdbc.sql(FIND_BY_REFERENCE).param("reference", reference).query(TicketRecords::toTicket).optional();
    }

    /** Reads the ticket and locks it until the transaction ends. */
    Optional<ObjectNode> lock(String id) {
        return jdbc.sql(LOCK_BY_ID).param("id", id).query(TicketRecords::toTicket).optional();
    }

    /** @return true when this call changed the status (false: it was already cancelled) */
    boolean cancel(String id) {
        return jdbc.sql(CANCEL).param("id", id).update() == 1;
    }

    private static ObjectNode toTicket(ResultSet rs, int row) throws SQLException {
        return ticket(rs.getString("id"), rs.getString("external_reference"), rs.getString("title"),
                rs.getString("status"));
    }

    private static ObjectNode ticket(String id, String reference, String title, String status) {
        return Json.object().put("id", id).put("external_reference", reference).put("title", title)
                .put("status", status);
    }
}
