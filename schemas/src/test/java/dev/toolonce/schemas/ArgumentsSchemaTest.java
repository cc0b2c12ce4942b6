package dev.toolonce.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ArgumentsSchemaTest {
    private static final String CHARGE = """
            {"type": "object",
             "properties": {
               "amount": {"type": "integer", "minimum": 1},
               "currency": {"type": "string", "enum": ["EUR", "USD"]},
               "memo": {"type": "string", "maxLength": 20},
               "lines": {"type": "array", "items": {"$ref": "#/$defs/line"}}
             },
             "required": ["amount", "currency"],
             "additionalProperties": false,
             "$defs": {"line": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}}}
            """;
    private final ArgumentsSchema charge = ArgumentsSchema.parse(CHARGE);

    @Test
    void validArgumentsHaveNoViolations() {
        assertThat(charge.violations(json("{\"amount\": 1200, \"currency\": \"EUR\", \"lines\": [{\"sku\": \"a\"}]}")))
                .isEmpty();
    }

    @Test
    void eachViolationNamesItsFieldAsAPointer() {
        assertThat(charge.violations(json("{\"amount\": \"12\", \"currency\": \"EUR\"}")))
                .singleElement().asString().startsWith("/amount: ");
        assertThat(charge.violations(json("{\"amount\": 0, \"currency\": \"GBP\"}")))
                .hasSize(2).anySatisfy(v -> assertThat(v).startsWith("/amount: "))
                .anySatisfy(v -> assertThat(v).startsWith("/currency: "));
        assertThat(charge.violations(json("{\"amount\": 5, \"currency\": \"EUR\", \"lines\": [{\"qty\": 1}]}")))
                .singleElement().asString().startsWith("/lines/0: ").contains("sku");
        assertThat(charge.violations(json("{\"currency\": \"EUR\"}")))
                .singleElement().asString().startsWith("/: ").contains("amount");
        assertThat(charge.violations(json("{\"amount\": 5, \"currency\": \"EUR\", \"extra\": true}")))
                .singleElement().asString().contains("extra");
    }

    @Test
    void aSchemaThatIsNotAnObjectSchemaOrReachesOutOfTheProcessIsRefusedAtStartUp() {
        assertThatThrownBy(() -> ArgumentsSchema.parse("{\"type\": \"string\"}"))
                .hasMessageContaining("\"type\": \"object\"");
        assertThatThrownBy(() -> ArgumentsSchema.parse("[1]")).hasMessageContaining("\"type\": \"object\"");
        assertThatThrownBy(() -> ArgumentsSchema.parse("{\"type\": \"object\""))
                .hasMessageStartingWith("is not JSON");
        assertThatThrownBy(() -> ArgumentsSchema.parse("{\"type\": \"object\", \"properties\": {\"a\": "
                + "{\"$ref\": \"https://example.com/evil.json\"}}}"))
                .hasMessageContaining("/properties/a/$ref = https://example.com/evil.json");
    }

    private static JsonNode json(String text) {
        return new EventCodec().parse(text.getBytes(StandardCharsets.UTF_8));
    }
}
