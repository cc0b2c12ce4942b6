package dev.toolonce.executor.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class TemplateTest {
    private final ObjectMapper mapper = new ObjectMapper();
    private final JsonNode args = mapper.readTree("""
            {"amount": 1000, "currency": "EUR", "customer": {"id": "c/1 &x"}, "tags": ["a", "b"], "big": "9007199254740993"}""");
    private final Template.Values values = new Template.Values("K".repeat(43), args, null);

    @Test
    void bodyRenderingIsDeterministicAndKeepsArgumentTypes() {
        BodyTemplate t = BodyTemplate.parse("""
                {"reference": "{providerKey}", "amount": "{arg./amount}", "currency": "{arg./currency}",
                 "customer": {"id": "{arg./customer/id}", "note": "pay {arg./amount} {arg./currency}"},
                 "tags": "{arg./tags}", "fixed": [1, true, null], "big": "{arg./big}"}""", false, mapper);
        String first = t.render(values);
        String second = BodyTemplate.parse("""
                {"reference": "{providerKey}", "amount": "{arg./amount}", "currency": "{arg./currency}",
                 "customer": {"id": "{arg./customer/id}", "note": "pay {arg./amount} {arg./currency}"},
                 "tags": "{arg./tags}", "fixed": [1, true, null], "big": "{arg./big}"}""", false, mapper).render(values);
        assertThat(first.getBytes()).isEqualTo(t.render(values).getBytes()).isEqualTo(second.getBytes());
        assertThat(first).isEqualTo("{\"reference\":\"" + "K".repeat(43) + "\",\"amount\":1000,\"currency\":\"EUR\","
                + "\"customer\":{\"id\":\"c/1 &x\",\"note\":\"pay 1000 EUR\"},\"tags\":[\"a\",\"b\"],"
                + "\"fixed\":[1,true,null],\"big\":\"9007199254740993\"}");
        assertThat(t.uses(Template.PROVIDER_KEY)).isTrue();
    }

    @Test
    void pathValuesAreUrlEncoded() {
        Template t = Template.parse("/customers/{arg./tags/0}/charges?key={providerKey}&id={arg./customer/id}", false);
        assertThat(t.renderUrl(values)).isEqualTo("/customers/a/charges?key=" + "K".repeat(43) + "&id=c%2F1%20%26x");
    }

    @Test
    void aPathValueThatWouldLeaveItsSegmentIsRefusedButTheSameValueInTheQueryIsEncoded() {
        Template t = Template.parse("/customers/{arg./customer/id}/charges", false);
        assertThatThrownBy(() -> t.renderUrl(values)).isInstanceOf(Template.UnsafePathValueException.class)
                .hasMessageContaining("{arg./customer/id}");
        for (String bad : new String[] {".", "..", "", "a/b", "a\\b", "%2e%2E", "%2F", "%252e%252e", "%25252F"}) {
            assertThatThrownBy(() -> Template.requireOneSegment("arg./x", bad)).as(bad)
                    .isInstanceOf(Template.UnsafePathValueException.class);
        }
        for (String fine : new String[] {"...", "a..b", ".hidden", "100%", "%zz", "ü", "a b"}) {
            Template.requireOneSegment("arg./x", fine);
        }
        assertThat(Template.parse("/c?next={arg./customer/id}", false).renderUrl(values)).isEqualTo("/c?next=c%2F1%20%26x");
    }

    @Test
    void aMissingArgumentIsReportedBeforeAnythingIsSent() {
        Template t = Template.parse("/x/{arg./nope}", false);
        assertThatThrownBy(() -> t.renderUrl(values)).isInstanceOf(Template.MissingArgumentException.class)
                .hasMessageContaining("/nope");
    }

    @Test
    void badTemplatesAreRefusedWithTheReason() {
        assertThatThrownBy(() -> Template.parse("/x/{providerkey}", false)).hasMessageContaining("unknown placeholder {providerkey}");
        assertThatThrownBy(() -> Template.parse("/x/{externalId}", false)).hasMessageContaining("unknown placeholder {externalId}");
        assertThat(Template.parse("/x/{externalId}", true).uses(Template.EXTERNAL_ID)).isTrue();
        assertThatThrownBy(() -> Template.parse("/x/{arg./a", false)).hasMessageContaining("unclosed '{'");
        assertThatThrownBy(() -> Template.parse("/x/a}", false)).hasMessageContaining("unmatched '}'");
        assertThatThrownBy(() -> Template.parse("/x/{arg.amount}", false)).hasMessageContaining("unknown placeholder");
        assertThatThrownBy(() -> BodyTemplate.parse("{\"a\": ", false, mapper)).hasMessageContaining("is not valid JSON");
        assertThatThrownBy(() -> BodyTemplate.parse("\"{providerKey}\"", false, mapper)).hasMessageContaining("object or array");
    }
}
