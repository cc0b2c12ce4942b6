package dev.toolonce.agent.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Every move of a step's or a task's state written in SQL is one the tables allow (docs/agent-tasks.md §4). The
 * declarations ({@link SqlMoves}) are checked against {@link StepTransitions} and {@link TaskTransitions}; this
 * module's main sources are searched for statements that write {@code agent_task.state} or
 * {@code agent_task_step.state}, so that a statement without a declaration fails here.
 */
class TaskSqlTransitionsTest {
    private static final Pattern UPDATE = Pattern.compile(
            "\\bupdate\\s+(?:[\\w%$]+\\.)?(agent_task|agent_task_step)\\b(?:\\s+(?:as\\s+)?(\\w+))?\\s+set\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern INSERT = Pattern.compile(
            "\\binsert\\s+into\\s+(?:[\\w%$]+\\.)?(agent_task|agent_task_step)\\s*\\(", Pattern.CASE_INSENSITIVE);
    private static final Pattern TEXT_BLOCK = Pattern.compile("\"\"\"(.*?)\"\"\"", Pattern.DOTALL);
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern CONSTANT_BEFORE = Pattern.compile("static\\s+final\\s+String\\s+(\\w+)\\s*=\\s*$");

    private record Statement(Path file, String constant, String sql) {
    }

    @Test
    void everyDeclaredMoveIsInItsTable() {
        int declared = 0;
        for (Field f : constants(TaskStore.class)) {
            SqlMoves.Step step = f.getAnnotation(SqlMoves.Step.class);
            SqlMoves.Task task = f.getAnnotation(SqlMoves.Task.class);
            if (step != null) {
                declared++;
                if (step.from().length == 0) {
                    assertThat(StepTransitions.isInitial(step.to())).as(f + " creates steps in " + step.to()).isTrue();
                }
                for (StepState from : step.from()) {
                    assertThat(StepTransitions.isLegal(from, step.to())).as(f + ": " + from + " -> " + step.to()).isTrue();
                }
            }
            if (task != null) {
                declared++;
                if (task.from().length == 0) {
                    assertThat(TaskTransitions.isInitial(task.to())).as(f + " creates tasks in " + task.to()).isTrue();
                }
                for (TaskState from : task.from()) {
                    assertThat(TaskTransitions.isLegal(from, task.to())).as(f + ": " + from + " -> " + task.to()).isTrue();
                }
            }
        }
        assertThat(declared).as("TaskStore declares its moves").isGreaterThanOrEqualTo(3);
    }

    @Test
    void aStatementWithItsStatesAsParametersNamesAMethodThatChecksThem() {
        for (Field f : constants(TaskStore.class)) {
            SqlMoves.Parameters p = f.getAnnotation(SqlMoves.Parameters.class);
            if (p != null) {
                assertThat(Arrays.stream(TaskStore.class.getDeclaredMethods()).map(Method::getName))
                        .as(f + " is checked by " + p.checkedBy()).contains(p.checkedBy());
            }
        }
    }

    @Test
    void theCheckingMethodsRefuseAnIllegalMoveBeforeAnySqlRuns() {
        // The negative control of the declarations above: a move the table refuses never reaches the database.
        List<String> ran = new ArrayList<>();
        TaskStore store = new TaskStore(recording(ran), "agent");
        assertThatThrownBy(() -> store.move(step(StepState.COMMITTED), StepState.RUNNING, null, null))
                .isInstanceOf(IllegalTaskTransitionException.class).hasMessageContaining("COMMITTED -> RUNNING");
        assertThatThrownBy(() -> store.dryRunPassed(step(StepState.RUNNING)))
                .isInstanceOf(IllegalTaskTransitionException.class).hasMessageContaining("RUNNING -> PENDING");
        assertThatThrownBy(() -> store.setTask(new Task("t", "acme", TaskState.SUCCEEDED, 3, null, null),
                TaskState.RUNNING, null))
                .isInstanceOf(IllegalTaskTransitionException.class).hasMessageContaining("SUCCEEDED -> RUNNING");
        assertThat(ran).isEmpty();

        assertThat(store.move(step(StepState.PENDING), StepState.RUNNING, null, null)).isTrue();
        store.setTask(new Task("t", "acme", TaskState.RUNNING, 3, null, null), TaskState.SUCCEEDED, null);
        assertThat(ran).hasSize(2);
    }

    @Test
    void everyStatementOfThisModuleThatWritesAStateIsDeclared() throws IOException {
        List<Statement> writers = mainSources().stream().filter(st -> writesState(st.sql())).toList();
        assertThat(writers).as("the search finds the store's own statements").extracting(Statement::constant)
                .contains("INSERT_TASK", "INSERT_STEP", "SET_TASK", "MOVE", "DRY_RUN_PASSED");
        for (Statement w : writers) {
            assertThat(w.constant()).as(w.file() + " writes a task's or step's state outside a static final String")
                    .isNotEmpty();
            assertThat(w.file().getFileName().toString()).as(w.constant() + ": the task tables have one home")
                    .isEqualTo("TaskStore.java");
            Field f = field(w.constant());
            assertThat(f.isAnnotationPresent(SqlMoves.Step.class) || f.isAnnotationPresent(SqlMoves.Task.class)
                    || f.isAnnotationPresent(SqlMoves.Parameters.class))
                    .as(f + " writes a state: declare its moves with @SqlMoves").isTrue();
        }
    }

    @Test
    void theSearchRecognisesEveryShapeOfStateWrite() {
        assertThat(writesState("UPDATE %s.agent_task_step SET state = 'PENDING', x = 1 WHERE a = ?")).isTrue();
        assertThat(writesState("update agent.agent_task t set version = 2, t.state = ? where a = ?")).isTrue();
        assertThat(writesState("INSERT INTO %s.agent_task (task_id, tenant_id, state) VALUES (?, ?, 'RUNNING')")).isTrue();
        assertThat(writesState("UPDATE %s.agent_task_step SET publishes = publishes + 1 WHERE state = 'RUNNING'"))
                .isFalse();
        assertThat(writesState("UPDATE %s.agent_task_step SET x = (SELECT 1 WHERE state = 'X') WHERE a = ?")).isFalse();
        assertThat(writesState("UPDATE %s.agent_step SET status = ? WHERE a = ?")).isFalse();
    }

    /** Whether the SQL text inserts tasks or steps, or assigns their state column. */
    static boolean writesState(String sql) {
        if (INSERT.matcher(sql).find()) {
            return true;
        }
        Matcher m = UPDATE.matcher(sql);
        while (m.find()) {
            String alias = m.group(2) == null || m.group(2).equalsIgnoreCase("set") ? null : m.group(2);
            for (String assignment : topLevelAssignments(sql, m.end())) {
                String column = assignment.split("=", 2)[0].trim().toLowerCase(Locale.ROOT);
                if (column.equals("state") || (alias != null && column.equals(alias.toLowerCase(Locale.ROOT) + ".state"))) {
                    return true;
                }
            }
        }
        return false;
    }

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

    /** Text blocks and ordinary string literals of code lines of this module's main sources (run from the module). */
    private static List<Statement> mainSources() throws IOException {
        Path root = Path.of("src/main/java");
        assertThat(root).as("run from the agent module's directory").isDirectory();
        List<Statement> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(file);
                StringBuilder code = new StringBuilder();
                Matcher blocks = TEXT_BLOCK.matcher(text);
                int last = 0;
                while (blocks.find()) {
                    code.append(text, last, blocks.start()).append("\"\"");
                    last = blocks.end();
                    found.add(new Statement(file, constantBefore(text, blocks.start()), blocks.group(1)));
                }
                code.append(text.substring(last));
                for (String line : code.toString().split("\n")) {
                    String trimmed = line.trim();
                    if (trimmed.startsWith("*") || trimmed.startsWith("//") || trimmed.startsWith("/*")) {
                        continue;
                    }
                    Matcher strings = STRING.matcher(line);
                    while (strings.find()) {
                        found.add(new Statement(file, constantBefore(line, strings.start()), strings.group(1)));
                    }
                }
            }
        }
        return found;
    }

    private static String constantBefore(String text, int literalStart) {
        Matcher c = CONSTANT_BEFORE.matcher(text.substring(Math.max(0, literalStart - 200), literalStart));
        return c.find() ? c.group(1) : "";
    }

    private static Field field(String constant) {
        try {
            return TaskStore.class.getDeclaredField(constant);
        } catch (NoSuchFieldException e) {
            throw new AssertionError("no field " + constant + " in TaskStore", e);
        }
    }

    private static List<Field> constants(Class<?> type) {
        return Arrays.stream(type.getDeclaredFields())
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class).toList();
    }

    private static Step step(StepState state) {
        return new Step("acme", "t", "1", 1, "payments", "charge", "{}", 1, "acme:t:1:1", false, false, false, null,
                null, state, -1, -1, null, null, null, null, 0, null, null, null, null, false, null, -1);
    }

    /** A template that records each update and reports one row changed, without a database. */
    private static JdbcTemplate recording(List<String> ran) {
        return new JdbcTemplate() {
            @Override
            public int update(String sql, Object... args) {
                ran.add(sql);
                return 1;
            }
        };
    }
}
