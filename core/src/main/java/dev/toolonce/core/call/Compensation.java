package dev.toolonce.core.call;

/**
 * The scope of a compensation (docs/protocol.md §17): the compensation of {@code tenant/tool/op/key} is the call
 * {@code tenant/tool/op.compensate/key}. An agent asks for it with an ordinary intent naming that operation, so
 * the request needs no field beyond the v1 contract. No user call can have that scope: the executor refuses to
 * configure an operation whose name ends in {@value #SUFFIX}, so the derived scope — and its provider key — can
 * never collide with a user's key.
 */
public final class Compensation {
    /** Appended to the original's operation to name its compensation. */
    public static final String SUFFIX = ".compensate";

    private Compensation() {
    }

    /** Whether an operation name is a compensation's. */
    public static boolean isCompensation(String operation) {
        return operation != null && operation.endsWith(SUFFIX) && operation.length() > SUFFIX.length();
    }

    /** Whether the scope is a compensation's. */
    public static boolean isCompensation(CallScope scope) {
        return isCompensation(scope.operation());
    }

    /**
     * @return the compensation scope of {@code original}
     * @throws InvalidArgumentsException when the derived operation would exceed 64 characters
     * @throws IllegalArgumentException when {@code original} is itself a compensation (compensations are not compensated)
     */
    public static CallScope of(CallScope original) {
        if (isCompensation(original)) {
            throw new IllegalArgumentException(original + " is a compensation; a compensation is not compensated");
        }
        return new CallScope(original.tenantId(), original.tool(), original.operation() + SUFFIX,
                original.idempotencyKey());
    }

    /**
     * @return the scope whose effect {@code compensation} undoes
     * @throws IllegalArgumentException when {@code compensation} is not a compensation scope
     */
    public static CallScope originalOf(CallScope compensation) {
        if (!isCompensation(compensation)) {
            throw new IllegalArgumentException(compensation + " is not a compensation scope");
        }
        String op = compensation.operation();
        return new CallScope(compensation.tenantId(), compensation.tool(),
                op.substring(0, op.length() - SUFFIX.length()), compensation.idempotencyKey());
    }
}
