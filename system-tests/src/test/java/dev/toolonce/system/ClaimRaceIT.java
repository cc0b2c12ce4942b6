package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * docs/protocol.md §6: 64 claimers in two processes hit one PLANNED call at the same instant and exactly one
 * wins. The negative control runs the same race through a check-then-act claim without the guard and
 * must fail the same assertion — proof that this test can fail.
 */
class ClaimRaceIT {
    private static final int PER_PROCESS = 32;

    @Test
    void exactlyOneOf64ClaimersInTwoProcessesWins() throws Exception {
        assertThat(race(true)).isEqualTo(1);
    }

    @Test
    void negativeControlWithoutTheGuardLetsSeveralWin() throws Exception {
        assertThat(race(false)).as("the unguarded claim must fail the one-winner assertion").isGreaterThan(1);
    }

    private static int race(boolean guarded) throws Exception {
        String url = TestStack.get().freshDatabase("claims");
        Flyway.configure().dataSource(url, "postgres", "").schemas("executor").defaultSchema("executor")
                .locations("classpath:db/migration/executor").placeholders(Map.of("publication", "claims_pub"))
                .load().migrate();
        try (Connection c = DriverManager.getConnection(url, "postgres", ""); Statement s = c.createStatement()) {
            s.execute("""
                    INSERT INTO executor.tool_call (tenant_id, tool, operation, idempotency_key, provider_key, request_hash,
                        arguments, state, intent_message_id)
                    VALUES ('t', 'counter', 'apply', 'race', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
                        'sha256:0000000000000000000000000000000000000000000000000000000000000000', '{}', 'PLANNED', 'm')""");
        }
        long startAt = Instant.now().plusSeconds(8).toEpochMilli(); // time for the second JVM to connect
        try (ServiceProcess other = ServiceProcess.start("claim-racer-" + guarded, ClaimRacer.class.getName(), Map.of(),
                List.of(url, Long.toString(startAt), Integer.toString(PER_PROCESS), Boolean.toString(guarded)))) {
            int here = ClaimRacer.race(url, startAt, PER_PROCESS, guarded);
            await("the second racer process finishes").atMost(Duration.ofSeconds(60))
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                    .until(() -> !other.isAlive());
            Matcher m = Pattern.compile("(?m)^WINS (\\d+)$").matcher(other.logTail(200));
            int there = -1;
            while (m.find()) {
                there = Integer.parseInt(m.group(1)); // the last run in this log file
            }
            assertThat(there).as("the second process reported its wins").isGreaterThanOrEqualTo(0);
            return here + there;
        }
    }
}
