package dev.toolonce.executor.intake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.InvalidArgumentsException;
import dev.toolonce.core.hash.RequestHasher;
import dev.toolonce.schemas.ContractValidator;
import dev.toolonce.schemas.EventCodec;
import dev.toolonce.schemas.InputBounds;
import dev.toolonce.testsupport.HostileJson;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import dev.toolonce.testsupport.TestKeys;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Whatever bytes arrive, the parser answers (accepted or refused with a code) without throwing, and what it
 * accepts is safe to store and to hash: no control characters in stored identifiers, and hashing either works
 * or refuses with INVALID_ARGUMENTS — never a hang, never another exception.
 */
class IntentParserPropertyTest {
    private final IntentParser parser = new IntentParser(new EventCodec(), new ContractValidator(), 262_144,
            TestKeys.keyring());
    private final RequestHasher hasher = new RequestHasher();

    @Provide
    Arbitrary<byte[]> hostile() {
        return Arbitraries.oneOf(Stream.of(HostileJson.intent("acme"), HostileJson.garbage()).toList());
    }

    @Property(tries = 400)
    void everyRecordIsAcceptedSafelyOrRefusedWithACode(@ForAll("hostile") byte[] value) {
        ParsedIntent parsed = parser.parse(TestKeys.sign(new ConsumerRecord<>("intents", 0, 7L, new byte[0], value),
                TestKeys.agents()));

        assertThat(parsed).isNotNull();
        if (parsed instanceof ParsedIntent.Refused refused) {
            assertThat(refused.code()).isNotBlank();
            return;
        }
        ParsedIntent.Accepted a = (ParsedIntent.Accepted) parsed;
        for (String stored : new String[] {a.messageId(), a.intent().taskId(), a.intent().stepId()}) {
            assertThat(stored == null || !InputBounds.hasControl(stored)).as("stored id %s", stored).isTrue();
        }
        if (a.scopeProblem() == null) {
            CallScope scope = new CallScope(a.intent().tenantId(), a.intent().tool(), a.intent().operation(),
                    a.intent().idempotencyKey());
            try {
                assertThat(hasher.hash(scope, a.intent().arguments()).value()).startsWith("sha256:");
            } catch (InvalidArgumentsException refusedArguments) {
                assertThat(refusedArguments.getMessage()).startsWith("arguments");
            }
        } else {
            assertThat(Stream.of(a.intent().tenantId(), a.intent().tool(), a.intent().operation(),
                    a.intent().idempotencyKey())).allMatch(s -> !InputBounds.hasControl(s) && s.length() <= 1024);
        }
    }
}
