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

        Path killed = dir.resolve(f.tenant + "-killed.txt");
        try (ServiceProcess agent = agent("spring-ai-agent-killed", conversation, "1", opId, "halt", killed)) {
            await().atMost(WAIT).until(() -> ScriptedAgents.read(killed).contains("HALTED"));
            agent.kill9();
        }
        String firstAnswer = Fixtures.answeredIds(ScriptedAgents.read(killed)).get(0);
        assertThat(f.charges(opId)).as("the tool was called once").isEqualTo(1);

        // the same turn run again, then turn 2 asking for the identical charge, in one process
        Path rerun = dir.resolve(f.tenant + "-rerun.txt");
        try (ServiceProcess agent = agent("spring-ai-agent-rerun", conversation, "1,2", opId, "complete", rerun)) {
            await().atMost(WAIT).until(() -> ScriptedAgents.read(rerun).split("ANSWER: ", -1).length == 3 || !agent.isAlive());
            assertThat(ScriptedAgents.read(rerun).split("ANSWER: ", -1)).as(agent.logTail(40)).hasSize(3);
        }
        List<String> after = Fixtures.answeredIds(ScriptedAgents.read(rerun));

        assertThat(after).hasSize(2);
        assertThat(after.get(0)).as("the model gets the same answer").isEqualTo(firstAnswer);
        assertThat(ScriptedAgents.read(rerun)).contains("\"replayed\":true");
        assertThat(after.get(1)).as("turn 2: a charge of its own").isNotEqualTo(firstAnswer);
        assertThat(f.charges(opId)).as("one charge for the re-run turn, one for turn 2").isEqualTo(2);
        for (Path p : List.of(killed, rerun)) {
            System.out.println("---- " + p.getFileName() + "\n" + ScriptedAgents.read(p));
        }
    }

    private static ServiceProcess agent(String name, String conversation, String turns, String opId, String mode,
                                        Path transcript) {
        return ServiceProcess.start(name, SpringAiAgent.class.getName(), Map.of(),
                List.of(f.stack.jdbcUrl, f.stack.executorUrl, viewer, f.tenant, conversation, turns, opId, mode,
                        transcript.toAbsolutePath().toString()));
    }
}
