package dev.toolonce.jdbc;

import java.util.function.BooleanSupplier;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Asks the database one trivial question with a short timeout. Used to tell a record's failure from the
 * infrastructure's, and by readiness checks. Never throws. Thread-safe.
 */
public final class DatabaseProbe implements BooleanSupplier {
    private final JdbcTemplate jdbc;

    /** @param jdbc a template over the service's pool; its connection timeout bounds how long a probe can wait */
    public DatabaseProbe(JdbcTemplate jdbc) {
        JdbcTemplate probe = new JdbcTemplate(jdbc.getDataSource());
        probe.setQueryTimeout(2);
        this.jdbc = probe;
    }

    /** @return whether {@code SELECT 1} answered */
    @Override
    public boolean getAsBoolean() {
        try {
            Integer one = jdbc.queryForObject("SELECT 1", Integer.class);
            return one != null && one == 1;
        } catch (DataAccessException | IllegalStateException e) {
            return false;
        }
    }
}
