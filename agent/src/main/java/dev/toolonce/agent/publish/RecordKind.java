package dev.toolonce.agent.publish;

import dev.toolonce.core.call.CallKind;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Power;

/**
 * The record an intent goes out as, and the power its signing key must have (docs/contract.md §4a): a compensation
 * request ({@code <op>.compensate}) is its own record type, signed with the {@code compensate} power; every other
 * intent, a dry run included, is a tool intent signed with the {@code intent} power. The one place the agent side
 * chooses; what the operation denotes is {@link CallKind#of}'s to say.
 */
enum RecordKind {
    INTENT(Contract.INTENT_TYPE, Power.INTENT),
    COMPENSATION(Contract.COMPENSATION_TYPE, Power.COMPENSATE);

    /** The record's {@code ce_type}. */
    final String type;
    /** What the key that signs it must be allowed. */
    final Power power;

    RecordKind(String type, Power power) {
        this.type = type;
        this.power = power;
    }

    static RecordKind of(String operation) {
        return CallKind.of(operation) == CallKind.COMPENSATION ? COMPENSATION : INTENT;
    }
}
