package dev.toolonce.agent.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.schemas.EventCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The keys of a turn's calls and the catalogue as the adapters read it: pure, no database. */
class TurnKeysAndCatalogueTest {
    private final JsonNode charge = json("{\"amount\": 1250, \"currency\": \"EUR\"}");

    @Test
    void aTurnRunAgainGivesItsCallsTheKeysTheyHadAndALaterTurnNewOnes() {
        TurnKeys first = TurnKeys.ofTurn("acme", "conv-1", "1");
        String a = first.next("payments", "charge", charge);
        String b = first.next("payments", "charge", json("{\"currency\": \"EUR\", \"amount\": 1250}"));

        TurnKeys again = TurnKeys.ofTurn("acme", "conv-1", "1");

        assertThat(b).as("a second identical call in the same turn is another occurrence").isNotEqualTo(a);
        assertThat(List.of(again.next("payments", "charge", charge), again.next("payments", "charge", charge)))
                .as("the re-run, field order aside").containsExactly(a, b);
        assertThat(TurnKeys.ofTurn("acme", "conv-1", "2").next("payments", "charge", charge)).isNotIn(a, b);
        assertThat(TurnKeys.ofTurn("acme", "conv-2", "1").next("payments", "charge", charge)).isNotIn(a, b);
        assertThat(first.conversationId()).isEqualTo("conv-1");
        assertThat(a).startsWith(CallKeys.DERIVED_PREFIX);
    }

    @Test
    void resumedKeysCountTheAnswersTheMemoryHolds() {
        String firstTime = TurnKeys.resume("acme", "conv-1", List.of()).next("payments", "charge", charge);
        TurnKeys afterOneAnswer = TurnKeys.resume("acme", "conv-1",
                List.of(new ConversationKeys.Call("payments", "charge", charge)));

        assertThat(afterOneAnswer.next("payments", "charge", charge)).isNotEqualTo(firstTime);
        assertThat(TurnKeys.resume("acme", "conv-1", List.of()).next("payments", "charge", charge)).isEqualTo(firstTime);
        assertThatThrownBy(() -> TurnKeys.ofTurn("acme", "", "1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TurnKeys.ofTurn("acme", "conv", "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theCatalogueBecomesToolsNamedForModelsWithTheirSchemaAndGuarantee() {
        List<CatalogueTool> tools = CatalogueTool.parse(json("""
                {"catalogueVersion": 1, "tools": [
                  {"name": "payments", "description": "Card payments.", "capabilities": ["NATIVE_IDEMPOTENCY"],
                   "operations": [{"name": "charge", "description": "Charges.", "guarantee": "EXACTLY_ONE_EFFECT",
                                   "destructive": true, "inputSchema": {"type": "object", "required": ["amount"]}}]},
                  {"name": "email", "description": null, "capabilities": [],
                   "operations": [{"name": "send.v2", "description": null, "inputSchema": null,
                                   "guarantee": "AT_MOST_ONE_EFFECT_OR_REVIEW", "destructive": false,
                                   "approval": "required"}]}]}
                """));

        assertThat(tools).extracting(CatalogueTool::functionName).containsExactly("payments_charge", "email_send-v2");
        assertThat(tools.get(0).description()).isEqualTo("Card payments. Charges.");
        assertThat(tools.get(0).inputSchema().path("required").get(0).asString()).isEqualTo("amount");
        assertThat(tools.get(0).exactlyOnce()).isTrue();
        assertThat(tools.get(1).exactlyOnce()).isFalse();
        assertThat(tools.get(1).destructive()).isFalse();
        assertThat(tools.get(1).approvalRequired()).isTrue();
        assertThat(tools.get(0).approvalRequired()).as("none declared").isFalse();
        assertThat(tools.get(1).inputSchema()).isEqualTo(json("{\"type\": \"object\"}"));
        assertThat(tools.get(1).description()).isEqualTo("email send.v2");
        assertThat(Catalogue.select(tools, List.of("email/send.v2"))).containsExactly(tools.get(1));
        assertThat(Catalogue.select(tools, List.of())).isEqualTo(tools);
        assertThatThrownBy(() -> Catalogue.select(tools, List.of("payments/refund")))
                .hasMessageContaining("no operation payments/refund");
        assertThatThrownBy(() -> CatalogueTool.parse(json("{\"tools\": []}"))).hasMessageContaining("version 1");
    }

    private static JsonNode json(String text) {
        return new EventCodec().parse(text.getBytes(StandardCharsets.UTF_8));
    }
}
