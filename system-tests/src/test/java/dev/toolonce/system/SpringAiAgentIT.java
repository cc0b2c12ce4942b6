package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.security.Role;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, the Spring AI test: a {@code ChatClient} driven by a scripted model asks for a charge through ToolOnce
 * ({@link SpringAiAgent}, its own process). Killed after the tool was called and before the model saw the answer, the
 * same turn run again gives the model the same answer and leaves one charge at the sandbox; a deliberate second
 * identical charge in a later turn of the conversation is a second charge.
 */
class SpringAiAgentIT {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Pattern CHARGE_ID = Pattern.compile("\"externalObjectId\":\"([^\"]+)\"");
    private static Fixtures f;
    private static String viewer;

    @BeforeAll
    static void setUp() throws Exception {
        f = new Fixtures(SystemStack.get());
        f.clearFaults();
        viewer = TestTokens.create("spring-ai-it", Role.VIEWER, f.tenant);
    }

    @AfterAll
    static void tearDown() {
        f.close();
    }

    @Test
    void aTurnKilledBeforeTheModelSawTheAnswerRunsAgainToTheSameAnswerAndOneCharge() throws Exception {
        String conversation = f.tenant + "-chat";
        String opId = f.tenant + ":spring-ai-charge";
        Path dir = Files.createDirectories(Path.of("target", "spring-ai-agent"));

        Path killed = dir.resolve(f.tenant + "-1-killed.txt");
        try (ServiceProcess agent = agent("spring-ai-agent-killed", conversation, "1", opId, "halt", killed)) {
            await().atMost(WAIT).until(() -> read(killed).contains("HALTED"));
            agent.kill9();
        }
        String firstAnswer = chargeId(read(killed));
        assertThat(charges(opId)).as("the tool was called once").isEqualTo(1);

        Path rerun = dir.resolve(f.tenant + "-1-rerun.txt");
        runToTheEnd(agent("spring-ai-agent-rerun", conversation, "1", opId, "complete", rerun), rerun);

        assertThat(chargeId(read(rerun))).as("the model gets the same answer").isEqualTo(firstAnswer);
        assertThat(read(rerun)).contains("\"replayed\":true");
        assertThat(charges(opId)).as("one charge at the sandbox").isEqualTo(1);

        Path second = dir.resolve(f.tenant + "-2-deliberate.txt");
        runToTheEnd(agent("spring-ai-agent-second", conversation, "2", opId, "complete", second), second);

        assertThat(chargeId(read(second))).as("a charge of its own").isNotEqualTo(firstAnswer);
        assertThat(charges(opId)).as("the deliberate second charge").isEqualTo(2);
        for (Path p : List.of(killed, rerun, second)) {
            System.out.println("---- " + p.getFileName() + "\n" + read(p));
        }
    }

    private static ServiceProcess agent(String name, String conversation, String turn, String opId, String mode,
                                        Path transcript) {
        return ServiceProcess.start(name, SpringAiAgent.class.getName(), Map.of(),
                List.of(f.stack.jdbcUrl, f.stack.executorUrl, viewer, f.tenant, conversation, turn, opId, mode,
                        transcript.toAbsolutePath().toString()));
    }

    private static void runToTheEnd(ServiceProcess agent, Path transcript) throws Exception {
        try (agent) {
            await().atMost(WAIT).until(() -> read(transcript).contains("ANSWER: ") || !agent.isAlive());
            assertThat(read(transcript)).as(agent.logTail(40)).contains("ANSWER: ");
        }
    }

    /** The charges the sandbox made for this opId, whatever their keys: the sum of its ledger entries' counts. */
    private static int charges(String opId) throws Exception {
        int n = 0;
        for (var e : f.getJson(f.stack.sandboxUrl + "/_ledger?tool=payments").path("effects")) {
            if (opId.equals(e.path("opId").asString(null))) {
                n += e.path("count").asInt();
            }
        }
        return n;
    }

    private static String chargeId(String transcript) {
        Matcher m = CHARGE_ID.matcher(transcript);
        assertThat(m.find()).as("a charge id in\n" + transcript).isTrue();
        return m.group(1);
    }

    private static String read(Path p) throws Exception {
        return Files.exists(p) ? Files.readString(p) : "";
    }
}
