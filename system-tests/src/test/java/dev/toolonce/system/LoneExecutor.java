package dev.toolonce.system;

import static org.awaitility.Awaitility.await;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.ToolIntent;
import dev.toolonce.schemas.ToolResult;
import dev.toolonce.testsupport.ServiceProcess;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;

/**
 * An executor process of its own — fresh database, fresh intents topic, own consumer group — for fault
 * tests that crash, pause or reconfigure it. No relay reads its outbox, so its result events are read
 * straight from {@code executor.outbox_event}. Timings are short (lease 10 s, heartbeat 1 s) so that
 * recovery happens within a test.
 */
final class LoneExecutor implements AutoCloseable {
    private static final List<String> TOOLS = List.of("payments", "tickets", "email", "counter", "noop");

    final SystemStack stack;
    final String jdbcUrl;
    final String topic;
    final String url;
    private final int port;
    final String group = "lone-" + UUID.randomUUID();
    private final EventCodec codec = new EventCodec();
    private final Map<String, String> extraEnv;
    ServiceProcess process;

    LoneExecutor(SystemStack stack, String... extraArgs) {
        this(stack, Map.of(), extraArgs);
    }

    /** @param extraEnv environment variables added to the process's (e.g. a tool's credential) */
    LoneExecutor(SystemStack stack, Map<String, String> extraEnv, String... extraArgs) {
        this.stack = stack;
        this.extraEnv = Map.copyOf(extraEnv);
        this.jdbcUrl = stack.infra.freshDatabase("lone");
        this.topic = stack.infra.freshTopic("lone-intents", 3);
        this.port = ServiceProcess.freePort();
        this.url = "http://127.0.0.1:" + port;
        start(extraArgs);
    }

    /** Starts (or restarts) the process with the base settings plus {@code extraArgs}; waits for /ready. */
    void start(String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("--server.port=" + port,
                "--toolonce.executor.intents-topic=" + topic, "--toolonce.executor.consumer-group=" + group,
                "--toolonce.executor.lease=10s", "--toolonce.executor.heartbeat=1s",
                "--toolonce.executor.lease-margin=1s", "--toolonce.executor.reconcile-interval=200ms",
                "--toolonce.executor.retry-base=100ms", "--toolonce.executor.retry-cap=2s"));
        for (String tool : TOOLS) {
            args.add("--toolonce.executor.tools." + tool + ".read-timeout=3s");
            args.add("--toolonce.executor.tools." + tool + ".connect-timeout=1s");
            args.add("--toolonce.executor.tools." + tool + ".settle-delay=300ms");
        }
        // A later --key=value must replace the base one: Spring would join repeated keys with commas.
        for (String extra : extraArgs) {
            String key = extra.substring(0, extra.indexOf('=') + 1);
            args.removeIf(a -> a.startsWith(key));
            args.add(extra);
        }
        Map<String, String> env = new HashMap<>(extraEnv);
        env.putAll(Map.of("TOOLONCE_PG_URL", jdbcUrl, "KAFKA_BOOTSTRAP", stack.infra.kafkaBootstrap(),
                "SANDBOX_URL", stack.sandboxUrl, "TOOLONCE_AGENT_ENABLED", "false"));
        process = ServiceProcess.start("lone-executor", "dev.toolonce.executor.ExecutorApplication", env, args);
        try {
            process.awaitHttpOk(url + "/ready", Duration.ofSeconds(120));
        } catch (RuntimeException | AssertionError e) {
            // The whole start-up log: a refusal's reason sits above a long stack trace.
            String log = process.logTail(600);
            process.stop();
            throw new IllegalStateException("executor did not start:\n" + log, e);
        }
    }

    /** Sends an intent to this executor's topic. @return its message id */
    String send(ToolIntent intent) throws Exception {
        String id = UUID.randomUUID().toString();
        try (Fixtures f = new Fixtures(stack)) {
            f.sendTo(topic, intent.recordKey(), codec.write(intent.withMessageId(id)).getBytes(StandardCharsets.UTF_8), id);
        }
        return id;
    }

    /** The ledger row of a scope as column → text; empty when absent. */
    Map<String, String> call(CallScope scope) throws Exception {
        List<Map<String, String>> rows = query("""
                SELECT * FROM executor.tool_call
                 WHERE tenant_id = ? AND tool = ? AND operation = ? AND idempotency_key = ?""",
                scope.tenantId(), scope.tool(), scope.operation(), scope.idempotencyKey());
        return rows.isEmpty() ? Map.of() : rows.get(0);
    }

    /** Polls until the scope's call is in one of {@code states}; returns the row. */
    Map<String, String> awaitState(CallScope scope, Duration timeout, String... states) throws Exception {
        AtomicReference<Map<String, String>> row = new AtomicReference<>(Map.of());
        try {
            return await("call " + scope + " in one of " + List.of(states)).atMost(timeout)
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        row.set(call(scope));
                        return row.get();
                    }, r -> List.of(states).contains(String.valueOf(r.get("state"))));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("call " + scope + " is " + row.get().get("state") + ", expected one of "
                    + List.of(states) + "\n" + process.logTail(40), e);
        }
    }

    /** A scope's call history ({@code tool_call_attempt}: every transition and note), oldest first. */
    List<Map<String, String>> history(CallScope scope) throws Exception {
        return query("""
                SELECT a.* FROM executor.tool_call_attempt a JOIN executor.tool_call c ON c.id = a.call_id
                 WHERE c.tenant_id = ? AND c.tool = ? AND c.operation = ? AND c.idempotency_key = ? ORDER BY a.id""",
                scope.tenantId(), scope.tool(), scope.operation(), scope.idempotencyKey());
    }

    /** Result events in the outbox addressed to an intent message. */
    List<ToolResult> results(String intentMessageId) throws Exception {
        List<ToolResult> out = new ArrayList<>();
        for (Map<String, String> row : query("""
                SELECT payload FROM executor.outbox_event WHERE payload::jsonb ->> 'intentMessageId' = ? ORDER BY created_at""",
                intentMessageId)) {
            out.add(codec.result(codec.parse(row.get("payload").getBytes(StandardCharsets.UTF_8))));
        }
        return out;
    }

    List<Map<String, String>> query(String sql, Object... params) throws Exception {
        try (Connection c = DriverManager.getConnection(jdbcUrl, "postgres", "");
             PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            List<Map<String, String>> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Map<String, String> row = new HashMap<>();
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        row.put(rs.getMetaData().getColumnName(i), rs.getString(i));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    @Override
    public void close() {
        if (process != null) {
            process.stop();
        }
    }
}
