package dev.toolonce.jdbc;

import java.util.regex.Pattern;

/**
 * Schema names are spliced into SQL text (identifiers cannot be bound), so they are checked first. Every store uses
 * it, the shared ones here and the executor's own in {@code tool-executor}.
 */
public final class SqlNames {
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private SqlNames() {
    }

    /** @throws IllegalArgumentException when the name is not a plain lower-case SQL identifier */
    public static String schema(String name) {
        if (name == null || !IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("schema name must match [a-z_][a-z0-9_]{0,62}, was " + name);
        }
        return name;
    }
}
