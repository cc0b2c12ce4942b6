package dev.toolonce.sandbox.tools;

import dev.toolonce.sandbox.http.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.node.ObjectNode;

/** The payments provider's charges and refunds, rendered as the provider's JSON. */
public class PaymentRecords {

    static final String INSERT_CHARGE = """
            INSERT INTO sandbox.charge (id, amount, currency, status, created_at)
            VALUES (:id, :amount, :currency, 'succeeded', clock_timestamp())
            """;

    static final String FIND_CHARGE = """
            SELECT id, amount, currency, status FROM sandbox.charge WHERE id = :id
            """;

    static final String LOCK_CHARGE = """
            SELECT id FROM sandbox.charge WHERE id = :id FOR UPDATE
            """;

    static final String FIND_CHARGE_BY_KEY = """
            SELECT c.id, c.amount, c.currency, c.status
              FROM sandbox.idempotency_record r
              JOIN sandbox.charge c ON c.id = r.object_id
             WHERE r.operation = :operation AND r.idempotency_key = :key
            """;

    static final String INSERT_REFUND = """
            INSERT INTO sandbox.refund (id, charge_id, status, created_at)
            VALUES (:id, :chargeId, 'succeeded', clock_timestamp())
            """;

    static final String FIND_REFUND = """
            SELECT id, charge_id, status FROM sandbox.refund WHERE id = :id
            """;

    static final String REFUND_OF_CHARGE = """
            SELECT id FROM sandbox.refund WHERE charge_id = :chargeId
            """;

    private final JdbcClient jdbc;

    public PaymentRecords(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    ObjectNode insertCharge(String id, long amount, String currency) {
        jdbc.sql(INSERT_CHARGE).param("id", id).param("amount", amount).param("currency", currency).update();
        return charge(id, amount, currency, "succeeded");
    }

    Optional<ObjectNode> findCharge(String id) {
        return jdbc.sql(FIND_CHARGE).param("id", id).query(PaymentRecords::toCharge).optional();
    }

    /** Locks the charge row until the transaction ends; false when there is no such charge. */
    boolean lockCharge(String id) {
        return jdbc.sql(LOCK_CHARGE).param("id", id).query(String.class).optional().isPresent();
    }

    Optional<ObjectNode> findChargeByKey(String operation, String key) {
        return jdbc.sql(FIND_CHARGE_BY_KEY).param("operation", operation).param("key", key)
                .query(PaymentRecords::toCharge).optional();
    }

    ObjectNode insertRefund(String id, String chargeId) {
        jdbc.sql(INSERT_REFUND).param("id", id).param("chargeId", chargeId).update();
        return refund(id, chargeId, "succeeded");
    }

    Optional<ObjectNode> findRefund(String id) {
        return jdbc.sql(FIND_REFUND).param("id", id)
                .query((rs, row) -> refund(rs.getString("id"), rs.getString("charge_id"), rs.getString("status")))
                .optional();
    }

    Optional<String> refundOfCharge(String chargeId) {
        return jdbc.sql(REFUND_OF_CHARGE).param("chargeId", chargeId).query(String.class).optional();
    }

    private static ObjectNode toCharge(ResultSet rs, int row) throws SQLException {
        return charge(rs.getString("id"), rs.getLong("amount"), rs.getString("currency"), rs.getString("status"));
    }

    private static ObjectNode charge(String id, long amount, String currency, String status) {
        return Json.object().put("id", id).put("amount", amount).put("currency", currency).put("status", status);
    }

    private static ObjectNode refund(String id, String chargeId, String status) {
        return Json.object().put("id", id).put("charge", chargeId).put("status", status);
    }
}
