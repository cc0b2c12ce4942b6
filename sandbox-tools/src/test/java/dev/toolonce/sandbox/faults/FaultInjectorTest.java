package dev.toolonce.sandbox.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.Headers;
import dev.toolonce.sandbox.http.Endpoint;
import dev.toolonce.sandbox.http.Json;
import dev.toolonce.sandbox.http.Request;
import dev.toolonce.sandbox.http.Response;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultInjectorTest {

    private final AtomicInteger applied = new AtomicInteger();
    private final Endpoint tool = request -> {
        applied.incrementAndGet();
        return Response.afterLedger(200, Json.object().put("applied", true));
    };
    private FaultRegistry registry;
    private Endpoint faulted;

    @BeforeEach
    void setUp() {
        registry = new FaultRegistry(List.of("counter"));
        faulted = new FaultInjector(registry, new FaultDice(5L)).wrap("counter", tool);
    }

    @Test
    void failNextDropsExactlyTheNextAppliedResponses() {
        registry.require("counter").configure(new FaultConfig(0, 0, 0, 0, 0, 2));

        assertThat(faulted.handle(request()).isDropped()).isTrue();
        assertThat(faulted.handle(request()).isDropped()).isTrue();
        assertThat(faulted.handle(request()).status()).isEqualTo(200);

        assertThat(applied).hasValue(3);
        ToolFaults faults = registry.require("counter");
        assertThat(faults.injected(FaultKind.FAIL_NEXT)).isEqualTo(2);
        assertThat(faults.injected(FaultKind.DROP_RESPONSE)).isEqualTo(2);
        assertThat(faults.failNextLeft()).isZero();
    }

    @Test
    void refusalsApplyNothing() {
        registry.require("counter").configure(new FaultConfig(0, 0, 1.0, 0, 0, 0));
        Response response = faulted.handle(request());
        assertThat(response.status()).isEqualTo(429);
        assertThat(response.headers()).containsEntry("Retry-After", "1");

        registry.require("counter").configure(new FaultConfig(0, 1.0, 0, 0, 0, 0));
        assertThat(faulted.handle(request()).status()).isEqualTo(503);

        assertThat(applied).hasValue(0);
        assertThat(registry.require("counter").injected(FaultKind.HTTP_429)).isEqualTo(1);
        assertThat(registry.require("counter").injected(FaultKind.HTTP_5XX)).isEqualTo(1);
    }

    @Test
    void failStatusAnswersTheNextRequestsWithoutApplying() {
        registry.require("counter").configure(new FaultConfig(0, 0, 0, 0, 0, 0, 503, 2));
        Response first = faulted.handle(request());
        assertThat(first.status()).isEqualTo(503);
        assertThat(first.headers()).containsEntry("Retry-After", "1");
        assertThat(faulted.handle(request()).status()).isEqualTo(503);
        assertThat(faulted.handle(request()).status()).isEqualTo(200);
        assertThat(applied).hasValue(1);
        assertThat(registry.require("counter").injected(FaultKind.STATUS)).isEqualTo(2);

        registry.require("counter").configure(new FaultConfig(0, 0, 0, 0, 0, 0, 401, 1));
        Response unauthorized = faulted.handle(request());
        assertThat(unauthorized.status()).isEqualTo(401);
        assertThat(unauthorized.headers()).doesNotContainKey("Retry-After");
        assertThat(applied).hasValue(1);
    }

    @Test
    void failStatusAfterApplyAppliesFirstAndLookupFaultsAnswerOnlyLookups() {
        registry.require("counter").configure(new FaultConfig(0, 0, 0, 0, 0, 0, 500, 1, true, 503, 1));
        assertThat(faulted.handle(request()).status()).isEqualTo(500);
        assertThat(applied).as("the effect happened before the 500").hasValue(1);
        assertThat(faulted.handle(request()).status()).isEqualTo(200);
        assertThat(registry.require("counter").injected(FaultKind.STATUS_AFTER_APPLY)).isEqualTo(1);

        Endpoint lookup = new FaultInjector(registry, new FaultDice(5L)).wrapLookup("counter",
                request -> Response.json(200, Json.object().put("id", "x")));
        assertThat(lookup.handle(request()).status()).isEqualTo(503);
        assertThat(lookup.handle(request()).status()).isEqualTo(200);
        assertThat(registry.require("counter").injected(FaultKind.LOOKUP_STATUS)).isEqualTo(1);
    }

    @Test
    void aRevokedAuthorizationIsAnswered401WithoutApplyingAndEveryOtherKeyStillWorks() {
        registry.require("counter").configure(FaultConfig.fromJson(Json.readObject(
                "{\"refusedAuthorization\":\"Bearer revoked\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        Response refused = faulted.handle(request("Bearer revoked"));
        assertThat(refused.status()).isEqualTo(401);
        assertThat(applied).hasValue(0);
        assertThat(faulted.handle(request("Bearer good")).status()).isEqualTo(200);
        assertThat(faulted.handle(request()).status()).as("no key at all is not this fault").isEqualTo(200);
        Endpoint lookup = new FaultInjector(registry, new FaultDice(5L)).wrapLookup("counter",
                request -> Response.json(200, Json.object().put("id", "x")));
        assertThat(lookup.handle(request("Bearer revoked")).status()).as("lookups too").isEqualTo(401);
        assertThat(lookup.handle(request("Bearer good")).status()).isEqualTo(200);
        assertThat(applied).hasValue(2);
        assertThat(registry.require("counter").injected(FaultKind.REFUSED_AUTHORIZATION)).isEqualTo(2);
        assertThat(registry.require("counter").config().toJson(0, 0).toString()).as("the report hides the key")
                .contains("\"refusedAuthorization\":true").doesNotContain("revoked");
    }

    @Test
    void responsesThatNeverReachedTheLedgerAreNotDropped() {
        registry.require("counter").configure(new FaultConfig(0, 0, 0, 0, 0, 1));
        Endpoint refusing = new FaultInjector(registry, new FaultDice(5L))
                .wrap("counter", request -> Response.error(400, "amount is required", null));
        assertThat(refusing.handle(request()).status()).isEqualTo(400);
        assertThat(registry.require("counter").failNextLeft()).isEqualTo(1);
    }

    @Test
    void clearResetsConfigAndCounters() {
        ToolFaults faults = registry.require("counter");
        faults.configure(new FaultConfig(0, 0, 0, 0, 0, 1));
        faulted.handle(request());
        faults.clear();
        assertThat(faults.config()).isEqualTo(FaultConfig.NONE);
        assertThat(faults.injected(FaultKind.DROP_RESPONSE)).isZero();
        assertThat(faulted.handle(request()).isDropped()).isFalse();
    }

    private static Request request() {
        return new Request("POST", "/counter/apply", Map.of(), Map.of(), new Headers(), "{}".getBytes());
    }

    private static Request request(String authorization) {
        Headers headers = new Headers();
        headers.add("Authorization", authorization);
        return new Request("POST", "/counter/apply", Map.of(), Map.of(), headers, "{}".getBytes());
    }
}
