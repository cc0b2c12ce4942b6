package dev.toolonce.relay.config;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Host, port and database named by a single-host PostgreSQL JDBC URL; Debezium's connector
 * takes them as separate settings while the relay's own connections use the URL itself.
 *
 * @param host     host name or address, never blank
 * @param port     TCP port (5432 when the URL names none)
 * @param database database name, never blank
 */
public record JdbcLocation(String host, int port, String database) {

    private static final String PREFIX = "jdbc:postgresql://";

    /**
     * Parses {@code jdbc:postgresql://host[:port]/database[?params]}.
     *
     * @param url      the JDBC URL
     * @param property the property that holds it, named in the error message
     * @return the location; never null
     * @throws IllegalArgumentException when the URL is not of that form (multi-host URLs included)
     */
    public static JdbcLocation parse(String url, String property) {
        String hint = property + " '" + url + "' must look like jdbc:postgresql://host:port/database";
        if (url == null || !url.startsWith(PREFIX) || url.substring(PREFIX.length()).contains(",")) {
            throw new IllegalArgumentException(hint);
        }
        try {
            URI uri = new URI(url.substring("jdbc:".length()));
            String path = uri.getPath();
            if (uri.getHost() == null || path == null || path.length() < 2) {
                throw new IllegalArgumentException(hint);
            }
            return new JdbcLocation(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), path.substring(1));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(hint, e);
        }
    }

    /** {@code host:port}, identifying the server (replication slots are per server). */
    public String hostAndPort() {
        return host + ":" + port;
    }
}
