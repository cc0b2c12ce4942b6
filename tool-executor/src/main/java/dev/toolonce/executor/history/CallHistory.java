package dev.toolonce.executor.history;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.jdbc.SqlNames;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Reads of the ledger for operators (issue 23, API v1): calls found by what an operator knows of them, and one call
 * with its whole history — every transition with its fence and note ({@code tool_call_attempt}), the duplicates waiting
 * for its answer ({@code pending_reply}) and who resolved it ({@code review_audit}). Reads only: every write stays
 * with the ledger's stores (docs/protocol.md §20).
 */
public final class CallHistory {
    /** What a search can filter on; null fields do not filter. Times are of the call's creation, [since, until). */
    public record Filter(String tenant, String tool, String operation, CallState state, String taskId,
                         Instant since, Instant until, String keyPrefix) {
    }

    /** One page of a search, newest first; {@code nextCursor} is null on the last page. */
    public record Page(List<Map<String, Object>> items, String nextCursor) {
    }

    private static final String COLUMNS = """
            id, tenant_id, tool, operation, idempotency_key, kind, state, fence, call_version, attempts,
            external_object_id, error_code, error_message, task_id, step_id, effect_possible, evidence_of_effect,
            lookup_failures, created_at, started_at, terminal_at, updated_at""";
    private static final String SEARCH = """
            SELECT %s FROM %s.tool_call
             WHERE (CAST(:tenants AS text[]) IS NULL OR tenant_id = ANY(CAST(:tenants AS text[])))
               AND (CAST(:tenant AS text) IS NULL OR tenant_id = :tenant)
               AND (CAST(:tool AS text) IS NULL OR tool = :tool)
               AND (CAST(:operation AS text) IS NULL OR operation = :operation)
               AND (CAST(:state AS text) IS NULL OR state = :state)
               AND (CAST(:task AS text) IS NULL OR task_id = :task)
               AND (CAST(:since AS timestamptz) IS NULL OR created_at >= :since)
               AND (CAST(:until AS timestamptz) IS NULL OR created_at < :until)
               AND (CAST(:keyPrefix AS text) IS NULL OR starts_with(idempotency_key, :keyPrefix))
               AND (CAST(:before AS bigint) IS NULL OR id < :before)
             ORDER BY id DESC LIMIT :limit
            """;
    private static final String ONE = """
            SELECT %s, arguments, result FROM %s.tool_call
             WHERE id = :id AND (CAST(:tenants AS text[]) IS NULL OR tenant_id = ANY(CAST(:tenants AS text[])))
            """;
    private static final String TIMELINE = """
            SELECT fence, from_state, to_state, detail, at FROM %s.tool_call_attempt WHERE call_id = :id ORDER BY id
            """;
    private static final String WAITING = """
            SELECT intent_message_id, task_id, step_id, created_at FROM %s.pending_reply WHERE call_id = :id
             ORDER BY created_at
            """;
    private static final String RESOLUTIONS = """
            SELECT action, external_id, operator, note, fence, at FROM %s.review_audit WHERE call_id = :id ORDER BY id
            """;
    private static final String TIMELINES = """
            SELECT call_id, fence, from_state, to_state, detail, at FROM %s.tool_call_attempt
             WHERE call_id = ANY(CAST(:ids AS bigint[])) ORDER BY call_id, id
            """;
    private static final String SCOPE = """
            SELECT tenant_id, tool, operation, idempotency_key FROM %s.tool_call
             WHERE id = :id AND (CAST(:tenants AS text[]) IS NULL OR tenant_id = ANY(CAST(:tenants AS text[])))
            """;
    private static final String CURSOR_PREFIX = "c1:";

    private final NamedParameterJdbcTemplate jdbc;
    private final String search;
    private final String one;
    private final String timeline;
    private final String waiting;
    private final String resolutions;
    private final String timelines;
    private final String scope;

    public CallHistory(JdbcTemplate jdbc, String schema) {
        this.jdbc = new NamedParameterJdbcTemplate(jdbc);
        String s = SqlNames.schema(schema);
        this.search = SEARCH.formatted(COLUMNS, s);
        this.one = ONE.formatted(COLUMNS, s);
        this.timeline = TIMELINE.formatted(s);
        this.waiting = WAITING.formatted(s);
        this.resolutions = RESOLUTIONS.formatted(s);
        this.timelines = TIMELINES.formatted(s);
        this.scope = SCOPE.formatted(s);
    }

    /**
     * The calls that match, newest first.
     *
     * @param tenants the tenants the caller may see; null for every tenant
     * @param cursor  where the previous page ended ({@link Page#nextCursor()}); null for the first page
     * @throws IllegalArgumentException when the cursor is not one this API gave
     */
    public Page search(String[] tenants, Filter f, String cursor, int limit) {
        MapSqlParameterSource p = new MapSqlParameterSource()
                .addValue("tenants", tenants).addValue("tenant", f.tenant()).addValue("tool", f.tool())
                .addValue("operation", f.operation()).addValue("state", f.state() == null ? null : f.state().name())
                .addValue("task", f.taskId()).addValue("since", timestamp(f.since()))
                .addValue("until", timestamp(f.until())).addValue("keyPrefix", f.keyPrefix())
                .addValue("before", cursor == null ? null : decode(cursor)).addValue("limit", limit + 1);
        List<Map<String, Object>> rows = jdbc.queryForList(search, p);
        boolean more = rows.size() > limit;
        List<Map<String, Object>> items = rows.subList(0, Math.min(limit, rows.size())).stream()
                .map(CallHistory::view).toList();
        String next = more ? encode((Long) items.get(items.size() - 1).get("id")) : null;
        return new Page(items, next);
    }

    /**
     * One call with its history; empty when there is none the caller may see (another tenant's call is answered as
     * a missing one).
     */
    public Optional<Map<String, Object>> call(String[] tenants, long id) {
        MapSqlParameterSource p = new MapSqlParameterSource().addValue("id", id).addValue("tenants", tenants);
        List<Map<String, Object>> rows = jdbc.queryForList(one, p);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> call = view(rows.get(0));
        call.put("timeline", jdbc.queryForList(timeline, p).stream().map(CallHistory::times).toList());
        call.put("waitingDuplicates", jdbc.queryForList(waiting, p).stream().map(CallHistory::times).toList());
        call.put("resolutions", jdbc.queryForList(resolutions, p).stream().map(CallHistory::times).toList());
        return Optional.of(call);
    }

    /**
     * A page of the calls in review, each with what an operator needs to decide: its facts and its whole timeline
     * (lookups and their answers, late successes reported as evidence, the provider's error text), in one more query.
     */
    public Page inReview(String[] tenants, Filter f, String cursor, int limit) {
        Page page = search(tenants, new Filter(f.tenant(), f.tool(), f.operation(), CallState.NEEDS_REVIEW, f.taskId(),
                f.since(), f.until(), f.keyPrefix()), cursor, limit);
        Long[] ids = page.items().stream().map(i -> (Long) i.get("id")).toArray(Long[]::new);
        Map<Long, List<Map<String, Object>>> byCall = new LinkedHashMap<>();
        for (Map<String, Object> row : jdbc.queryForList(timelines, new MapSqlParameterSource("ids", ids))) {
            Map<String, Object> entry = times(row);
            byCall.computeIfAbsent((Long) entry.remove("callId"), k -> new ArrayList<>()).add(entry);
        }
        List<Map<String, Object>> items = page.items().stream().map(i -> {
            Map<String, Object> withTimeline = new LinkedHashMap<>(i);
            withTimeline.put("timeline", byCall.getOrDefault((Long) i.get("id"), List.of()));
            return withTimeline;
        }).toList();
        return new Page(items, page.nextCursor());
    }

    /** The record key of a call the caller may see; empty for another tenant's call, as for a missing one. */
    public Optional<CallScope> scope(String[] tenants, long id) {
        List<Map<String, Object>> rows = jdbc.queryForList(scope,
                new MapSqlParameterSource().addValue("id", id).addValue("tenants", tenants));
        return rows.stream().findFirst().map(r -> new CallScope((String) r.get("tenant_id"),
                (String) r.get("tool"), (String) r.get("operation"), (String) r.get("idempotency_key")));
    }

    /** A row as the API shows it: camelCase names, times as ISO-8601 instants, the record key as {@code scope}. */
    private static Map<String, Object> view(Map<String, Object> row) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", row.get("id"));
        out.put("scope", row.get("tenant_id") + "/" + row.get("tool") + "/" + row.get("operation") + "/"
                + row.get("idempotency_key"));
        out.putAll(times(row)); // "id" keeps its place first
        return out;
    }

    private static Map<String, Object> times(Map<String, Object> row) {
        Map<String, Object> out = new LinkedHashMap<>();
        row.forEach((k, v) -> out.put(camel(k), v instanceof Timestamp t ? t.toInstant().toString() : v));
        return out;
    }

    private static String camel(String column) {
        StringBuilder b = new StringBuilder();
        boolean up = false;
        for (char c : column.toCharArray()) {
            if (c == '_') {
                up = true;
            } else {
                b.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return b.toString();
    }

    private static Timestamp timestamp(Instant i) {
        return i == null ? null : Timestamp.from(i);
    }

    static String encode(long lastId) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((CURSOR_PREFIX + lastId).getBytes(StandardCharsets.US_ASCII));
    }

    static long decode(String cursor) {
        try {
            String s = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
            if (s.startsWith(CURSOR_PREFIX)) {
                long id = Long.parseLong(s.substring(CURSOR_PREFIX.length()));
                if (id > 0) {
                    return id;
                }
            }
        } catch (IllegalArgumentException notOurs) {
            // NumberFormatException and a bad Base64 alike: said below
        }
        throw new IllegalArgumentException("cursor is not one this API gave: pass the nextCursor of the previous page");
    }
}
