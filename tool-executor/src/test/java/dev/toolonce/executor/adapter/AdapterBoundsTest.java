package dev.toolonce.executor.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.outcome.LookupOutcome;
import dev.toolonce.core.outcome.ToolOutcome;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * What a hostile or broken tool sends back is bounded before it costs anything (issue 7): body size,
 * Retry-After, values that would change the request path, NUL characters in anything stored. Against a
 * scripted local HTTP server.
 */
class AdapterBoundsTest {
    private final ObjectMapper mapper = new ObjectMapper();
    private final List<String> uris = new ArrayList<>();
    private HttpServer server;
    private volatile int status = 201;
    private volatile byte[] answer = "{\"id\":\"x_1\"}".getBytes(StandardCharsets.UTF_8);
    private volatile long repeatAnswer = 1;
    private volatile String retryAfter;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            synchronized (uris) {
                uris.add(exchange.getRequestURI().getRawPath());
            }
            exchange.getRequestBody().readAllBytes();
            if (retryAfter != null) {
                exchange.getResponseHeaders().add("Retry-After", retryAfter);
            }
            exchange.sendResponseHeaders(status, answer.length * repeatAnswer);
            try (OutputStream out = exchange.getResponseBody()) {
                for (long i = 0; i < repeatAnswer; i++) {
                    out.write(answer);
                }
            } catch (java.io.IOException e) {
                // the adapter stopped reading an endless body: expected
            }
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private HttpToolAdapter tool(String capabilities, Map<String, String> extra) {
        Map<String, String> p = new HashMap<>(Map.of(
                "base-url", "http://127.0.0.1:" + server.getAddress().getPort(),
                "operations.get.path", "/items/{arg./item}/fetch",
                "operations.get.external-id-pointer", "/id",
                "max-response-bytes", "1024"));
        if (!capabilities.isEmpty()) {
            p.put("capabilities", capabilities);
        }
        if (capabilities.contains("NATIVE_IDEMPOTENCY")) {
            p.put("idempotency-window", "24h");
            p.put("idempotency-header", "Idempotency-Key");
        }
        if (capabilities.contains("LOOKUP_BY_KEY")) {
            p.put("operations.get.lookup.path", "/lookup?key={providerKey}");
            p.put("operations.get.lookup.found-status", "200");
            p.put("operations.get.lookup.absent-status", "404");
        }
        p.putAll(extra);
        return new HttpAdapterFactory(Duration.ofSeconds(60), env -> null, mapper).build("items", Calls.tool("items", p));
    }

    private static ToolCall get(String item) {
        return Calls.call("items", "get", "k-" + Math.abs(item.hashCode()),
                "{\"item\":" + new ObjectMapper().writeValueAsString(item) + "}");
    }

    private void answer(int status, String body, long times) {
        this.status = status;
        this.answer = body.getBytes(StandardCharsets.UTF_8);
        this.repeatAnswer = times;
    }

    @Test
    void anOversizedSuccessIsStillAppliedAndStoredAsANoteWithTheHashOfTheWholeBody() throws Exception {
        String chunk = "{\"id\":\"big\",\"pad\":\"" + "a".repeat(200) + "\"}";
        answer(201, chunk, 50); // 50 × ~220 bytes, far over the 1024-byte limit
        ToolOutcome outcome = tool("", Map.of()).execute(get("one"));

        assertThat(outcome).isInstanceOf(ToolOutcome.Applied.class);
        ToolOutcome.Applied applied = (ToolOutcome.Applied) outcome;
        assertThat(applied.externalObjectId()).as("an id cannot be read from a cut body").isNull();
        JsonNode note = mapper.readTree(applied.resultJson());
        byte[] whole = chunk.repeat(50).getBytes(StandardCharsets.UTF_8);
        assertThat(note.path("truncated").asBoolean()).isTrue();
        assertThat(note.path("complete").asBoolean()).isTrue();
        assertThat(note.path("bytes").asLong()).isEqualTo(whole.length);
        assertThat(note.path("sha256").asString())
                .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(whole)));
        assertThat(note.path("prefix").asString()).startsWith("{\"id\":\"big\"").hasSizeLessThanOrEqualTo(512);
        assertThat(applied.resultJson().length()).isLessThan(1024);
    }

    @Test
    void anOversizedErrorIsClassifiedByItsStatusAndAnEndlessBodyIsCutNotAwaited() {
        answer(400, "x".repeat(1000), 10_000); // 10 MB: beyond the hash limit (64 × 1 KiB), reading stops
        ToolOutcome rejected = tool("", Map.of()).execute(get("two"));
        assertThat(rejected).isInstanceOf(ToolOutcome.Rejected.class);
        assertThat(((ToolOutcome.Rejected) rejected).message()).hasSizeLessThan(400);

        answer(502, "y".repeat(1000), 10_000);
        ToolOutcome unknown = tool("", Map.of()).execute(get("three"));
        assertThat(unknown).isInstanceOf(ToolOutcome.Indeterminate.class);
        assertThat(((ToolOutcome.Indeterminate) unknown).reason()).contains("at least ").contains("sha256");
    }

    @Test
    void retryAfterIsCappedAndGarbageOrNegativeValuesAreIgnored() {
        HttpToolAdapter a = tool("", Map.of("max-retry-after", "90s"));
        answer(429, "{}", 1);
        retryAfter = "86400000";
        assertThat(((ToolOutcome.Retryable) a.execute(get("r1"))).retryAfter()).isEqualTo(Duration.ofSeconds(90));
        retryAfter = "99999999999999999999999";
        assertThat(((ToolOutcome.Retryable) a.execute(get("r2"))).retryAfter()).isEqualTo(Duration.ofSeconds(90));
        retryAfter = "-5";
        assertThat(((ToolOutcome.Retryable) a.execute(get("r3"))).retryAfter()).isNull();
        retryAfter = "soon";
        assertThat(((ToolOutcome.Retryable) a.execute(get("r4"))).retryAfter()).isNull();
        retryAfter = "7";
        assertThat(((ToolOutcome.Retryable) a.execute(get("r5"))).retryAfter()).isEqualTo(Duration.ofSeconds(7));
        assertThat(tool("", Map.of()).execute(get("r6"))).extracting(o -> ((ToolOutcome.Retryable) o).retryAfter())
                .isEqualTo(Duration.ofSeconds(7)); // the 5-minute default cap leaves small values alone
    }

    @Test
    void pathValuesThatWouldChangeThePathAreRejectedWithoutContactingTheTool() {
        HttpToolAdapter a = tool("", Map.of());
        for (String bad : List.of("..", ".", "", "a/b", "../admin", "a\\b", "%2e%2e", "%2E%2e", "..%2fx", "%252e%252e",
                "%25252f")) {
            ToolOutcome o = a.execute(get(bad));
            assertThat(o).as("value '%s'", bad).isInstanceOf(ToolOutcome.Rejected.class);
            assertThat(((ToolOutcome.Rejected) o).code()).isEqualTo("INVALID_ARGUMENTS");
            assertThat(((ToolOutcome.Rejected) o).message()).contains("{arg./item}");
        }
        assertThat(uris).as("nothing reached the tool").isEmpty();

        assertThat(a.execute(get("a.b..c"))).isInstanceOf(ToolOutcome.Applied.class);
        assertThat(a.execute(get("x y?#"))).isInstanceOf(ToolOutcome.Applied.class);
        assertThat(uris).containsExactly("/items/a.b..c/fetch", "/items/x%20y%3F%23/fetch");
    }

    @Test
    void aToolSuppliedExternalIdThatWouldChangeTheCompensationPathIsNotSent() {
        HttpToolAdapter a = tool("COMPENSATION", Map.of("operations.get.compensation.path", "/items/{externalId}/undo"));
        ToolOutcome o = a.compensate(Calls.committed(get("c"), ".."));
        assertThat(o).isInstanceOf(ToolOutcome.Rejected.class);
        assertThat(uris).isEmpty();
    }

    @Test
    void nulFromTheToolNeverReachesWhatIsStored() {
        HttpToolAdapter a = tool("", Map.of());
        answer(201, "{\"id\":\"ok_1\",\"note\":\"a\\u0000b\",\"k\\u0000\":1,\"literal\":\"\\\\u0000\"}", 1);
        ToolOutcome.Applied applied = (ToolOutcome.Applied) a.execute(get("n1"));
        assertThat(applied.externalObjectId()).isEqualTo("ok_1");
        assertThat(applied.resultJson()).doesNotContain("\u0000").doesNotContain("a\\u0000b")
                .contains("a\\uFFFDb").contains("k\\uFFFD").contains("\\\\u0000");
        assertThat(mapper.readTree(applied.resultJson()).path("note").asString()).isEqualTo("a\uFFFDb");

        answer(201, "{\"id\":\"bad\\u0000id\"}", 1);
        assertThat(((ToolOutcome.Applied) a.execute(get("n2"))).externalObjectId())
                .as("an id with a control character is not an id").isNull();
        answer(201, "{\"id\":\"" + "i".repeat(1025) + "\"}", 1);
        assertThat(((ToolOutcome.Applied) tool("", Map.of("max-response-bytes", "4096")).execute(get("n3")))
                .externalObjectId()).as("longer than the contract's 1024").isNull();

        answer(400, "bad\u0000request", 1);
        assertThat(((ToolOutcome.Rejected) a.execute(get("n4"))).message()).doesNotContain("\u0000").contains("bad\uFFFDrequest");
    }

    @Test
    void transientLookupFailuresAreUnavailableNotCannotTell() {
        HttpToolAdapter a = tool("LOOKUP_BY_KEY", Map.of());
        for (int s : List.of(429, 500, 503, 408)) {
            answer(s, "{}", 1);
            retryAfter = s == 429 ? "3" : null;
            assertThat(a.lookup(get("l"))).as("status %d", s).isInstanceOf(LookupOutcome.Unavailable.class);
        }
        answer(429, "{}", 1);
        retryAfter = "3";
        assertThat(((LookupOutcome.Unavailable) a.lookup(get("l"))).retryAfter()).isEqualTo(Duration.ofSeconds(3));
        retryAfter = null;
        answer(418, "{}", 1);
        assertThat(a.lookup(get("l"))).isInstanceOf(LookupOutcome.CannotTell.class);
        answer(200, "{\"id\":\"found_1\"}", 1);
        assertThat(a.lookup(get("l"))).isEqualTo(new LookupOutcome.Found("found_1", "{\"id\":\"found_1\"}"));

        int port = server.getAddress().getPort();
        server.stop(0);
        HttpToolAdapter gone = tool("LOOKUP_BY_KEY", Map.of("base-url", "http://127.0.0.1:" + port));
        assertThat(gone.lookup(get("l"))).isInstanceOf(LookupOutcome.Unavailable.class);
    }

    @Test
    void aServerErrorUnderNativeIdempotencyIsRetryableButMayHaveApplied() {
        answer(503, "{}", 1);
        ToolOutcome.Retryable r = (ToolOutcome.Retryable) tool("NATIVE_IDEMPOTENCY", Map.of()).execute(get("s"));
        assertThat(r.effectPossible()).isTrue();
        answer(429, "{}", 1);
        assertThat(((ToolOutcome.Retryable) tool("NATIVE_IDEMPOTENCY", Map.of()).execute(get("s"))).effectPossible())
                .isFalse();
    }
}
