package dev.toolonce.agent.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.InvalidArgumentsException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** docs/agent-calls.md §1: business and derived keys, and the occurrences of a conversation's calls. */
class CallKeysTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    @Test
    void aDerivedKeyIsPinnedSoThatAnUpgradeNeverGivesARerunTurnANewKey() {
        // A changed scheme would give the calls of a conversation re-run after an upgrade new keys, and so second
        // effects: this value may only change with a new prefix (c2.) and the old scheme kept for old conversations.
        // Computed apart from this code, from the layout in docs/agent-calls.md §1 (Python's hashlib and json).
        assertThat(CallKeys.derived("acme", "conv-42", "payments", "charge",
                json("{\"amount\":1200,\"currency\":\"EUR\"}"), 1))
                .isEqualTo("c1.kpcew2DTB0axYVsNrd6gyKesb_SJXfPb8UZqIgboxIE");
    }

    @Property
    void theSameCallGetsTheSameKeyWhateverTheOrderOfItsArgumentsAndItIsAValidKey(
            @ForAll @StringLength(min = 1, max = 300) String conversation, @ForAll @IntRange(min = 1, max = 1000) int n,
            @ForAll @IntRange(min = -1_000_000, max = 1_000_000) int amount) {
        String one = CallKeys.derived("acme", conversation, "payments", "charge",
                json("{\"amount\":" + amount + ",\"currency\":\"EUR\",\"memo\":{\"a\":1,\"b\":[1,2]}}"), n);
        String other = CallKeys.derived("acme", conversation, "payments", "charge",
                json("{\"memo\":{\"b\":[1,2],\"a\":1},\"currency\":\"EUR\",\"amount\":" + amount + "}"), n);
        assertThat(one).isEqualTo(other).startsWith(CallKeys.DERIVED_PREFIX).hasSize(46);
        assertThat(new CallScope("acme", "payments", "charge", one).idempotencyKey()).isEqualTo(one);
    }

    @Provide
    Arbitrary<List<String>> calls() {
        Arbitrary<String> name = Arbitraries.of("a", "b", "a.b", "ab");
        return Combinators.combine(name, name, name, name, Arbitraries.of("{}", "{\"x\":1}", "{\"x\":\"1\"}", "{\"x\":[1]}"),
                        Arbitraries.integers().between(1, 3))
                .as((tenant, conversation, tool, operation, args, n) -> List.of(tenant, conversation, tool, operation,
                        args, Integer.toString(n)));
    }

    @Property
    void callsThatDifferInAnyPartGetDifferentKeys(@ForAll("calls") List<String> a, @ForAll("calls") List<String> b) {
        String ka = CallKeys.derived(a.get(0), a.get(1), a.get(2), a.get(3), json(a.get(4)), Integer.parseInt(a.get(5)));
        String kb = CallKeys.derived(b.get(0), b.get(1), b.get(2), b.get(3), json(b.get(4)), Integer.parseInt(b.get(5)));
        assertThat(ka.equals(kb)).as("%s vs %s", a, b).isEqualTo(a.equals(b));
    }

    @Test
    void aTurnReRunAfterACrashGetsTheSameKeysAndADeliberateSecondCallANewOne() {
        JsonNode charge = json("{\"amount\":1200,\"currency\":\"EUR\"}");
        JsonNode ticket = json("{\"title\":\"refund\"}");

        // turn 1: the model asks for a charge and a ticket; the process crashes before their answers are stored
        ConversationKeys first = ConversationKeys.start("acme", "conv-7");
        String chargeKey = first.next("payments", "charge", charge);
        String ticketKey = first.next("tickets", "create", ticket);

        // the same turn re-run: the memory holds no answer yet (perhaps the requests), and the model asks again
        ConversationKeys rerun = ConversationKeys.resume("acme", "conv-7", List.of());
        assertThat(rerun.next("tickets", "create", ticket)).isEqualTo(ticketKey);
        assertThat(rerun.next("payments", "charge", charge)).as("same call, same key: the stored result").isEqualTo(chargeKey);

        // turn 2: both answers are in the memory; the model deliberately charges the same amount again
        ConversationKeys second = ConversationKeys.resume("acme", "conv-7", List.of(
                new ConversationKeys.Call("payments", "charge", charge), new ConversationKeys.Call("tickets", "create", ticket)));
        String again = second.next("payments", "charge", json("{\"currency\":\"EUR\",\"amount\":1200}"));
        assertThat(again).as("a second identical charge is a second call").isNotEqualTo(chargeKey)
                .isEqualTo(CallKeys.derived("acme", "conv-7", "payments", "charge", charge, 2));

        // turn 2 re-run after a crash: the same second charge, not a third
        assertThat(ConversationKeys.resume("acme", "conv-7", List.of(new ConversationKeys.Call("payments", "charge", charge)))
                .next("payments", "charge", charge)).isEqualTo(again);
        // and another conversation's identical charge is its own call
        assertThat(ConversationKeys.start("acme", "conv-8").next("payments", "charge", charge)).isNotEqualTo(chargeKey);
    }

    @Test
    void identicalCallsInOneTurnGetConsecutiveOccurrencesEvenFromManyThreads() throws Exception {
        JsonNode args = json("{\"to\":\"a@example.com\"}");
        ConversationKeys turn = ConversationKeys.start("acme", "conv-9");
        Set<String> keys = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 25; i++) {
                    keys.add(turn.next("email", "send", args));
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread t : threads) {
            t.join();
        }
        Set<String> expected = new HashSet<>();
        for (int n = 1; n <= 200; n++) {
            expected.add(CallKeys.derived("acme", "conv-9", "email", "send", args, n));
        }
        assertThat(keys).isEqualTo(expected);
    }

    @Test
    void whatCannotMakeAFaithfulKeyIsRefusedNamingIt() {
        assertThatThrownBy(() -> CallKeys.derived("acme", "", "payments", "charge", json("{}"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("conversationId");
        assertThatThrownBy(() -> CallKeys.derived("acme", "c", "payments", "charge", json("{}"), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("occurrence");
        assertThatThrownBy(() -> CallKeys.derived("acme", "c", "pay ments", "charge", json("{}"), 1))
                .isInstanceOf(InvalidArgumentsException.class).hasMessageContaining("tool");
        assertThatThrownBy(() -> ConversationKeys.start("acme", "c").next("payments", "charge",
                json("{\"amount\":9007199254740993}")))
                .as("a number the executor's hash would refuse").isInstanceOf(InvalidArgumentsException.class)
                .hasMessageContaining("amount");
        assertThatThrownBy(() -> ConversationKeys.start("acme", null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBusinessKeyIsTheApplicationsOwnCheckedAsTheContractRequires() {
        assertThat(CallKeys.business("acme", "payments", "charge", "order-1234")).isEqualTo("order-1234");
        assertThatThrownBy(() -> CallKeys.business("acme", "payments", "charge", "c1.abc"))
                .hasMessageContaining("must not start with 'c1.'");
        assertThatThrownBy(() -> CallKeys.business("acme", "payments", "charge", "x".repeat(256)))
                .isInstanceOf(InvalidArgumentsException.class).hasMessageContaining("idempotencyKey");
        assertThatThrownBy(() -> CallKeys.business("acme", "payments", "charge", "tab\there"))
                .isInstanceOf(InvalidArgumentsException.class);
    }
}
