package dev.toolonce.demo;

import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.security.token.ClientToken;
import java.time.Duration;
import java.util.Map;

/**
 * Where the demo finds the stack and how big its workload is. Read from the environment that
 * {@code ./toolonce env} prints (KAFKA_BOOTSTRAP, PG_URL, SANDBOX_URL, RELAY_URL, EXECUTOR_URL, TOOLONCE_TOKEN_FILE,
 * TOOLONCE_SIGNING_KEYRINGFILE).
 *
 * @param authorization {@code Bearer <token>} for ToolOnce's own services ({@link ClientToken}), or null
 * @param keyring       the agents' signing key the demo's intents, compensations and task events are signed with
 */
record DemoConfig(String kafkaBootstrap, String pgUrl, String sandboxUrl, String relayUrl, String executorUrl,
                  int operations, Duration timeout, boolean faults, int sagas, String authorization,
                  Keyring keyring) {

    static DemoConfig fromEnvironment(Map<String, String> env) {
        return new DemoConfig(
                env.getOrDefault("KAFKA_BOOTSTRAP", "127.0.0.1:29092"),
                env.getOrDefault("PG_URL", "jdbc:postgresql://127.0.0.1:25432/toolonce"),
                env.getOrDefault("SANDBOX_URL", "http://127.0.0.1:18080"),
                env.getOrDefault("RELAY_URL", "http://127.0.0.1:18082"),
                env.getOrDefault("EXECUTOR_URL", "http://127.0.0.1:18081"),
                Integer.parseInt(env.getOrDefault("DEMO_OPERATIONS", "250")),
                Duration.ofSeconds(Long.parseLong(env.getOrDefault("DEMO_TIMEOUT_SECONDS", "180"))),
                !"0".equals(env.getOrDefault("DEMO_FAULTS", "1")),
                Integer.parseInt(env.getOrDefault("DEMO_SAGAS", "40")),
                ClientToken.header(env).orElse(null),
                Keyring.fromEnvironment(env, "the demo", Power.INTENT, Power.COMPENSATE, Power.TASK));
    }
}
