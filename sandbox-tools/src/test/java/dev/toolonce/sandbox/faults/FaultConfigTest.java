package dev.toolonce.sandbox.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.sandbox.http.HttpProblem;
import dev.toolonce.sandbox.http.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FaultConfigTest {

    @Test
    void missingFieldsAreZero() {
        assertThat(parse("{\"failNext\":2}")).isEqualTo(new FaultConfig(0, 0, 0, 0, 0, 2));
        assertThat(parse("{}")).isEqualTo(FaultConfig.NONE);
    }

    @Test
    void readsEveryField() {
        assertThat(parse("{\"latencyMs\":5,\"rate5xx\":0.1,\"rate429\":0.2,\"dropResponseAfterApply\":0.3,"
                + "\"stallMs\":7,\"failNext\":1}"))
                .isEqualTo(new FaultConfig(5, 0.1, 0.2, 0.3, 7, 1));
        assertThat(parse("{\"failStatus\":409,\"failStatusNext\":1}")).isEqualTo(new FaultConfig(0, 0, 0, 0, 0, 0, 409, 1));
        assertThat(parse("{\"refusedAuthorization\":\"Bearer k\"}").refusedAuthorization()).isEqualTo("Bearer k");
    }

    @Test
    void badFieldsAreNamed() {
        assertThatThrownBy(() -> parse("{\"rate5xx\":1.5}")).isInstanceOf(HttpProblem.class).hasMessageContaining("rate5xx");
        assertThatThrownBy(() -> parse("{\"failNext\":-1}")).isInstanceOf(HttpProblem.class).hasMessageContaining("failNext");
        assertThatThrownBy(() -> parse("{\"stallMs\":\"x\"}")).isInstanceOf(HttpProblem.class).hasMessageContaining("stallMs");
        assertThatThrownBy(() -> parse("{\"failStatus\":200,\"failStatusNext\":1}")).isInstanceOf(HttpProblem.class)
                .hasMessageContaining("failStatus");
        assertThatThrownBy(() -> parse("{\"latency\":1}")).isInstanceOf(HttpProblem.class).hasMessageContaining("latency");
        assertThatThrownBy(() -> parse("{\"refusedAuthorization\":7}")).isInstanceOf(HttpProblem.class)
                .hasMessageContaining("refusedAuthorization must be a string");
        assertThatThrownBy(() -> parse("{\"refusedAuthorization\":\" \"}")).isInstanceOf(HttpProblem.class)
                .hasMessageContaining("refusedAuthorization");
    }

    private static FaultConfig parse(String json) {
        return FaultConfig.fromJson(Json.readObject(json.getBytes(StandardCharsets.UTF_8)));
    }
}
