package dev.toolonce.executor.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One home per table (docs/protocol.md §20): every INSERT, UPDATE or DELETE in the repository's main sources against
 * a table of the executor's or the agent's migrations comes from that table's owner — for the executor's tables one
 * store class, for the shared inbox and outbox the shared store in {@code ledger-jdbc}, for the agent's tables
 * {@code StepResults} (steps and their result log), {@code TaskStore} (tasks and their steps) and {@code LocalCallStore}
 * (an application's own tool methods). Reads may come from anywhere (the demo, the bench and the chaos oracle verify by reading).
 */
class TableOwnersTest {
    private static final String EXECUTOR = "tool-executor/src/main/java/dev/toolonce/executor/ledger/";
    private static final String SHARED = "ledger-jdbc/src/main/java/dev/toolonce/jdbc/";
    private static final String AGENT = "agent/src/main/java/dev/toolonce/agent/";

    /** Table → the path (a file, or a module's source root) its writes must come from. */
    static final Map<String, String> OWNERS = Map.ofEntries(
            // ToolCallStore, ToolCallClaims, ToolCallCompensations, ToolCallRetention: the ledger's stores by sub-domain
            Map.entry("tool_call", EXECUTOR + "ToolCall"),
            Map.entry("tool_call_attempt", EXECUTOR + "ToolCall"),
            Map.entry("tool_call_tombstone", EXECUTOR + "ToolCallRetention.java"),
            Map.entry("pending_reply", EXECUTOR + "PendingReplyStore.java"),
            Map.entry("review_audit", EXECUTOR + "ReviewAuditStore.java"),
            Map.entry("paused_tool", EXECUTOR + "PausedToolStore.java"),
            Map.entry("tool_resume_audit", EXECUTOR + "PausedToolStore.java"),
            Map.entry("task_hold", EXECUTOR + "TaskHoldStore.java"),
            Map.entry("dead_letter_replay", EXECUTOR + "DeadLetterReplayStore.java"),
            Map.entry("inbox_message", SHARED + "InboxStore.java"),
            Map.entry("outbox_event", SHARED + "OutboxStore.java"),
            Map.entry("agent_step", AGENT + "results/StepResults.java"),
            Map.entry("step_result_log", AGENT + "results/StepResults.java"),
            Map.entry("agent_task", AGENT + "task/TaskStore.java"),
            Map.entry("agent_task_step", AGENT + "task/TaskStore.java"),
            Map.entry("local_call", AGENT + "call/LocalCallStore.java"));

    private static final Pattern WRITE = Pattern.compile(
            "\\b(?:insert\\s+into|update|delete\\s+from)\\s+(?:[\\w%$]+\\.)?(\\w+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern CREATE_TABLE = Pattern.compile("\\bcreate\\s+table\\s+(\\w+)", Pattern.CASE_INSENSITIVE);

    @Test
    void everyTableOfTheExecutorAndAgentMigrationsHasAnOwner() throws IOException {
        Set<String> tables = new TreeSet<>();
        tables.addAll(createdIn("tool-executor/src/main/resources/db/migration/executor"));
        tables.addAll(createdIn("agent/src/main/resources/dev/toolonce/agent/db/migration"));

        assertThat(tables).as("the migrations are found").contains("tool_call", "agent_step");
        assertThat(OWNERS.keySet()).as("every table has one owner, and no owner names a table that does not exist")
                .containsExactlyInAnyOrderElementsOf(tables);
    }

    @Test
    void everyWriteOfAnOwnedTableComesFromItsOwner() throws IOException {
        Set<String> writtenTables = new TreeSet<>();
        for (SqlSources.Statement st : SqlSources.inMainSources()) {
            for (String table : writtenTables(st.sql())) {
                String owner = OWNERS.get(table);
                if (owner == null) {
                    continue; // the sandbox's, the relay's and the chaos baseline's own tables
                }
                writtenTables.add(table);
                assertThat(st.path()).as(st.path() + " " + st.constant() + " writes " + table
                        + ": route it through the table's store (docs/protocol.md §20)").startsWith(owner);
            }
        }
        assertThat(writtenTables).as("the search finds the stores' own statements")
                .contains("tool_call", "tool_call_tombstone", "paused_tool", "review_audit", "task_hold",
                        "inbox_message", "outbox_event", "agent_step");
    }

    @Test
    void theSearchRecognisesEveryShapeOfWrite() {
        // The negative control of the search above.
        assertThat(writtenTables("INSERT INTO %s.paused_tool (tool, reason) VALUES (?, ?)")).containsExactly("paused_tool");
        assertThat(writtenTables("update executor.tool_call set fence = 1")).containsExactly("tool_call");
        assertThat(writtenTables("WITH gone AS (DELETE FROM %1$s.tool_call WHERE id = ?) "
                + "INSERT INTO %1$s.tool_call_tombstone SELECT * FROM gone"))
                .containsExactly("tool_call", "tool_call_tombstone");
        assertThat(writtenTables("SELECT count(*) FROM executor.tool_call WHERE state = 'PLANNED'")).isEmpty();
        assertThat(writtenTables("SELECT id FROM %s.tool_call FOR UPDATE SKIP LOCKED")).isEmpty();
    }

    /** The tables a statement writes: names after INSERT INTO, UPDATE and DELETE FROM that some owner knows. */
    static List<String> writtenTables(String sql) {
        Matcher m = WRITE.matcher(sql);
        List<String> tables = new java.util.ArrayList<>();
        while (m.find()) {
            String table = m.group(1).toLowerCase(Locale.ROOT);
            if (OWNERS.containsKey(table)) {
                tables.add(table);
            }
        }
        return tables;
    }

    private static Set<String> createdIn(String dir) throws IOException {
        Set<String> tables = new TreeSet<>();
        try (Stream<Path> files = Files.list(SqlSources.repoRoot().resolve(dir))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".sql")).toList()) {
                Matcher m = CREATE_TABLE.matcher(Files.readString(f));
                while (m.find()) {
                    tables.add(m.group(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        return tables;
    }
}
