package dev.toolonce.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.InvalidArgumentsException;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHasher;
import dev.toolonce.schemas.EventCodec;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class RequestHasherTest {
    private final RequestHasher hasher = new RequestHasher();
    private final EventCodec codec = new EventCodec();
    private final CallScope scope = new CallScope("acme", "payments", "charge", "order-123:charge");

    private JsonNode json(String text) {
        return codec.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    private String canonical(String args) {
        return new String(hasher.canonical(scope, json(args)), StandardCharsets.UTF_8);
    }

    @Test
    void keyOrderAndWhitespaceDoNotChangeTheHash() {
        assertThat(hasher.hash(scope, json("{\"b\":1,\"a\":{\"y\":2,\"x\":[1,2]}}")))
                .isEqualTo(hasher.hash(scope, json(" { \"a\" : { \"x\" : [ 1 , 2 ], \"y\":2 }, \"b\" : 1 } ")));
    }

    @Test
    void canonicalFormFollowsRfc8785() {
        assertThat(canonical("{\"n\":1.0,\"m\":1e3,\"z\":-0,\"s\":\"\\u00e9\\n\"}"))
                .isEqualTo("{\"arguments\":{\"m\":1000,\"n\":1,\"s\":\"é\\n\",\"z\":0},"
                        + "\"operation\":\"charge\",\"tenantId\":\"acme\",\"tool\":\"payments\"}");
    }

    @Test
    void differentArgumentsOrScopeGiveDifferentHashes() {
        var a = hasher.hash(scope, json("{\"amount\":1000}"));
        assertThat(hasher.hash(scope, json("{\"amount\":1001}"))).isNotEqualTo(a);
        assertThat(hasher.hash(new CallScope("other", "payments", "charge", "k"), json("{\"amount\":1000}")))
                .isNotEqualTo(a);
        assertThat(a.value()).matches("sha256:[0-9a-f]{64}");
    }

    @Test
    void integersBeyondTheSafeRangeAreRefusedNamingThePath() {
        assertThat(hasher.hash(scope, json("{\"n\":9007199254740991}"))).isNotNull();
        assertThatThrownBy(() -> hasher.hash(scope, json("{\"a\":{\"n\":[9007199254740992]}}")))
                .isInstanceOf(InvalidArgumentsException.class)
                .hasMessageContaining("arguments.a.n[0]");
    }

    @Test
    void providerKeyIs43Base64UrlCharactersAndDiffersForCompensation() {
        ProviderKey key = ProviderKey.of(scope);
        assertThat(key.value()).hasSize(43).matches("[A-Za-z0-9_-]{43}").doesNotContain("acme");
        assertThat(ProviderKey.compensationOf(scope)).isNotEqualTo(key);
        assertThat(ProviderKey.of(new CallScope("acme2", "payments", "charge", "order-123:charge")))
                .isNotEqualTo(key);
    }

    @Test
    void scopeViolationsNameTheField() {
        assertThatThrownBy(() -> new CallScope("ac/me", "payments", "charge", "k"))
                .isInstanceOf(InvalidArgumentsException.class).hasMessageStartingWith("tenantId");
        assertThatThrownBy(() -> new CallScope("acme", "payments", "charge", ""))
                .isInstanceOf(InvalidArgumentsException.class).hasMessageStartingWith("idempotencyKey");
    }
}
