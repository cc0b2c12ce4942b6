package dev.toolonce.executor.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.Transitions;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every transition written in SQL is one the table allows (docs/protocol.md §4). The declarations
 * ({@link SqlTransition}) are checked against {@link Transitions}; the repository's main sources are searched for
 * statements that write {@code tool_call.state}, so that a statement without a declaration fails here.
 */
class SqlTransitionsTest {
    private static final Pattern UPDATE_OF_CALLS = Pattern.compile(
            "\\bupdate\\s+(?:[\\w%$]+\\.)?tool_call\\b(?:\\s+(?:as\\s+)?(\\w+))?\\s+set\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern INSERT_OF_CALLS = Pattern.compile(
            "\\binsert\\s+into\\s+(?:[\\w%$]+\\.)?tool_call\\s*\\(", Pattern.CASE_INSENSITIVE);

    /** The ledger's stores, each holding the statements of one sub-domain. */
    private static final List<Class<?>> STORES = List.of(ToolCallStore.class, ToolCallClaims.class,
            ToolCallCompensations.class, ToolCallRetention.class);

    @Test
    void everyDeclaredMoveIsInTheTransitionTable() {
        List<Field> declared = STORES.stream().flatMap(c -> declaredFields(c).stream()).toList();
        assertThat(declared).as("the stores declare their moves").isNotEmpty();
        for (Field f : declared) {
            SqlTransition t = f.getAnnotation(SqlTransition.class);
            if (t == null) {
                continue;
            }
            if (t.from().length == 0) {
                assertThat(Transitions.isInitial(t.to())).as(f + " creates calls in " + t.to()).isTrue();
            }
            for (CallState from : t.from()) {
                assertThat(Transitions.isLegal(from, t.to())).as(f + ": " + from + " -> " + t.to()).isTrue();
            }
            for (CallState then : t.then()) {
                assertThat(Transitions.isLegal(t.to(), then)).as(f + ": " + t.to() + " -> " + then).isTrue();
            }
        }
    }

    @Test
    void aStatementWithItsStatesAsParametersNamesAMethodThatChecksThem() {
        for (Field f : STORES.stream().flatMap(c -> declaredFields(c).stream()).toList()) {
            SqlTransition.Parameters p = f.getAnnotation(SqlTransition.Parameters.class);
            if (p != null) {
                assertThat(Arrays.stream(f.getDeclaringClass().getDeclaredMethods()).map(Method::getName))
                        .as(f + " is checked by " + p.checkedBy()).contains(p.checkedBy());
            }
        }
    }

    @Test
    void everyStatementInTheMainSourcesThatWritesTheStateIsDeclared() throws Exception {
        List<SqlSources.Statement> writers = SqlSources.inMainSources().stream()
                .filter(st -> writesState(st.sql())).toList();
        assertThat(writers).as("the search finds the ledger's own statements").extracting(SqlSources.Statement::constant)
                .contains("INSERT_PLANNED", "CLAIM", "FINISH", "SWEEP", "CLAIM_UNKNOWN");
        for (SqlSources.Statement w : writers) {
            assertThat(w.constant()).as(w.file() + " writes tool_call.state outside a static final String constant")
                    .isNotEmpty();
            Field f = fieldOf(w);
            assertThat(f.isAnnotationPresent(SqlTransition.class) || f.isAnnotationPresent(SqlTransition.Parameters.class))
                    .as(f + " writes tool_call.state: declare its moves with @SqlTransition").isTrue();
        }
    }

    @Test
    void theSearchRecognisesEveryShapeOfStateWrite() {
        // The negative control of the search above: shapes it must catch, and writes that leave the state alone.
        assertThat(writesState("UPDATE %1$s.tool_call c SET fence = c.fence + 1, state = 'UNKNOWN' WHERE id = ?")).isTrue();
        assertThat(writesState("update executor.tool_call set state = ? where id = ?")).isTrue();
        assertThat(writesState("INSERT INTO %1$s.tool_call (tenant_id, state) VALUES (?, ?)")).isTrue();
        assertThat(writesState("UPDATE %s.tool_call SET next_attempt_at = 'infinity' WHERE id = ? AND state = 'PLANNED'"))
                .isFalse();
        assertThat(writesState("UPDATE %s.tool_call SET next_attempt_at = (SELECT 1 WHERE state = 'X') WHERE id = ?"))
                .isFalse();
        assertThat(writesState("INSERT INTO %1$s.tool_call_attempt (call_id, from_state, to_state) VALUES (?, ?, ?)"))
                .isFalse();
        assertThat(writesState("UPDATE %1$s.tool_call_tombstone SET state = 'X'")).isFalse();
    }

    /** Whether the SQL text inserts calls or assigns their state column. */
    static boolean writesState(String sql) {
        if (INSERT_OF_CALLS.matcher(sql).find()) {
            return true;
        }
        Matcher m = UPDATE_OF_CALLS.matcher(sql);
        while (m.find()) {
            String alias = m.group(1) == null || m.group(1).equalsIgnoreCase("set") ? null : m.group(1);
            for (String assignment : topLevelAssignments(sql, m.end())) {
                String column = assignment.split("=", 2)[0].trim().toLowerCase(Locale.ROOT);
                if (column.equals("state") || (alias != null && column.equals(alias.toLowerCase(Locale.ROOT) + ".state"))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The assignments of a SET list starting at {@code from}, split at commas outside parentheses. */
    private static List<String> topLevelAssignments(String sql, int from) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = from;
        int i = from;
        for (; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth < 0) {
                break;
            } else if (depth == 0 && c == ',') {
                parts.add(sql.substring(start, i));
                start = i + 1;
            } else if (depth == 0 && startsWord(sql, i, "where", "returning", "from")) {
                break;
            }
        }
        parts.add(sql.substring(start, i));
        return parts;
    }

    private static boolean startsWord(String sql, int i, String... words) {
        if (i > 0 && Character.isLetterOrDigit(sql.charAt(i - 1))) {
            return false;
        }
        for (String w : words) {
            int end = i + w.length();
            if (sql.regionMatches(true, i, w, 0, w.length())
                    && (end == sql.length() || !Character.isLetterOrDigit(sql.charAt(end)))) {
                return true;
            }
        }
        return false;
    }

    /** The constant's field, loaded from this module's classes; a writer elsewhere fails with what to do. */
    private static Field fieldOf(SqlSources.Statement w) {
        String path = w.file().toString().replace('\\', '/');
        String className = path.substring(path.indexOf("/src/main/java/") + "/src/main/java/".length(),
                path.length() - ".java".length()).replace('/', '.');
        try {
            return Class.forName(className).getDeclaredField(w.constant());
        } catch (ClassNotFoundException e) {
            throw new AssertionError(w.file() + " writes tool_call.state outside the executor: the ledger's state is "
                    + "written by its stores (ToolCallStore, ToolCallClaims), where this test can check the declaration", e);
        } catch (NoSuchFieldException e) {
            throw new AssertionError("no field " + w.constant() + " in " + className, e);
        }
    }

    private static List<Field> declaredFields(Class<?> type) {
        return Arrays.stream(type.getDeclaredFields())
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class).toList();
    }
}
