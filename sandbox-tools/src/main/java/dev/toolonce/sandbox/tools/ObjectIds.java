package dev.toolonce.sandbox.tools;

import org.springframework.jdbc.core.simple.JdbcClient;

/** Ids of provider objects ({@code ch_12}, {@code tk_13}, …), unique across restarts. */
public class ObjectIds {

    static final String NEXT = "SELECT nextval('sandbox.object_seq')";

    private final JdbcClient jdbc;

    public ObjectIds(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** @param prefix e.g. {@code ch_} */
    public String next(String prefix) {
        return prefix + jdbc.sql(NEXT).query(Long.class).single();
    }
}
