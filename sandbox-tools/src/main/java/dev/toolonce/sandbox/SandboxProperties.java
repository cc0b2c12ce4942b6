package dev.toolonce.sandbox;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the sandbox tools, under {@code toolonce.sandbox}.
 *
 * @param port        TCP port of the HTTP server ({@code SANDBOX_PORT}, then {@code SERVER_PORT});
 *                    0 picks a free one
 * @param bindAddress address the server binds to; loopback by default, the sandbox is a test aid
 * @param threads     size of the fixed pool that handles requests
 * @param faultSeed   seed of the random source behind probabilistic faults
 *                    ({@code SANDBOX_FAULT_SEED}); null seeds from entropy
 * @param payments    settings of the payments tool
 */
@ConfigurationProperties("toolonce.sandbox")
public record SandboxProperties(
        @DefaultValue("18080") int port,
        @DefaultValue("127.0.0.1") String bindAddress,
        @DefaultValue("32") int threads,
        Long faultSeed,
        @DefaultValue Payments payments) {

    public SandboxProperties {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(
                    "toolonce.sandbox.port must be between 0 and 65535 (SANDBOX_PORT), was " + port);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("toolonce.sandbox.threads must be at least 1, was " + threads);
        }
    }

    /**
     * Settings of the payments tool.
     *
     * @param idempotencyWindow how long an {@code Idempotency-Key} is honoured; a key reused
     *                          after it creates a new charge, as real providers do
     */
    public record Payments(@DefaultValue("24h") Duration idempotencyWindow) {

        public Payments {
            if (idempotencyWindow == null || idempotencyWindow.isNegative() || idempotencyWindow.isZero()) {
                throw new IllegalArgumentException(
                        "toolonce.sandbox.payments.idempotency-window must be a positive duration, was "
                                + idempotencyWindow);
            }
        }
    }
}
