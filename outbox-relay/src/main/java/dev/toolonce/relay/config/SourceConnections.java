package dev.toolonce.relay.config;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

import dev.toolonce.relay.config.RelayProperties.Source;

/**
 * Opens the relay's own (non-replication) JDBC connections to a source database with timeouts,
 * so that a database that went away makes a call fail within seconds instead of hanging the
 * thread that made it.
 */
public final class SourceConnections {

    /** Seconds to wait for a connection to open. */
    static final int CONNECT_TIMEOUT_SECONDS = 5;
    /** Seconds a single read may block (a snapshot page or a catalog query, never a stream). */
    static final int SOCKET_TIMEOUT_SECONDS = 60;

    private SourceConnections() {
    }

    /**
     * @param source the source
     * @return a new auto-commit connection; the caller closes it
     * @throws SQLException when the database cannot be reached within the timeout or refuses
     */
    public static Connection open(Source source) throws SQLException {
        return open(source, SOCKET_TIMEOUT_SECONDS);
    }

    /**
     * @param source               the source
     * @param socketTimeoutSeconds how long one read may block
     * @return a new auto-commit connection; the caller closes it
     * @throws SQLException when the database cannot be reached within the timeout or refuses
     */
    public static Connection open(Source source, int socketTimeoutSeconds) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", source.username());
        p.setProperty("password", source.password());
        p.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
        p.setProperty("loginTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
        p.setProperty("socketTimeout", Integer.toString(socketTimeoutSeconds));
        p.setProperty("tcpKeepAlive", "true");
        p.setProperty("ApplicationName", "toolonce-relay-" + source.name());
        Connection c = DriverManager.getConnection(source.jdbcUrl(), p);
        c.setAutoCommit(true);
        return c;
    }
}
