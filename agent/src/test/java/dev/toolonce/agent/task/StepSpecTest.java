package dev.toolonce.agent.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/** Issue 18: arguments as plain maps and records, so that an application need not know which Jackson we use. */
class StepSpecTest {

    record Charge(int amount, String currency) {
    }

    @Test
    void aMapBecomesTheSameJsonObjectAsTheNodeBuiltByHand() {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("amount", 1000);
        args.put("currency", "EUR");
        args.put("lines", List.of(Map.of("sku", "a", "price", new BigDecimal("12.50"))));

        StepSpec fromMap = StepSpec.of("charge", "payments", "charge", args);

        JsonNodeFactory json = JsonNodeFactory.instance;
        var byHand = json.objectNode().put("amount", 1000).put("currency", "EUR");
        byHand.putArray("lines").addObject().put("sku", "a").put("price", new BigDecimal("12.50"));
        assertThat(fromMap.arguments()).isEqualTo(byHand);
        assertThat(fromMap).isEqualTo(StepSpec.of("charge", "payments", "charge", byHand));
    }

    @Test
    void aRecordBecomesAJsonObjectOfItsComponents() {
        StepSpec s = StepSpec.of("charge", "payments", "charge", new Charge(1000, "EUR"));

        assertThat(s.arguments().get("amount").asInt()).isEqualTo(1000);
        assertThat(s.arguments().get("currency").asString()).isEqualTo("EUR");
        assertThat(s.arguments().size()).isEqualTo(2);
    }

    @Test
    void aValueThatIsNotAJsonObjectIsRefusedNamingTheStep() {
        assertThatThrownBy(() -> StepSpec.of("charge", "payments", "charge", List.of(1, 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step charge");
        assertThatThrownBy(() -> StepSpec.of("charge", "payments", "charge", (Object) null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step charge");
    }

    @Test
    void aJackson2NodeIsRefusedWithWhatToPassInstead() {
        var jackson2 = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("amount", 1000);

        assertThatThrownBy(() -> StepSpec.of("charge", "payments", "charge", jackson2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Jackson 2").hasMessageContaining("Map, a record");
    }
}
