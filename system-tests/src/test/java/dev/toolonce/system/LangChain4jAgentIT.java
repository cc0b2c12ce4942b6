package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.security.Role;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, the LangChain4j test: an {@code AiServices} assistant over a scripted model asks for a charge through
 * ToolOnce ({@link LangChain4jAgent}, its own process). Killed after the tool was called and before the model saw the
 * answer, the conversation run again gives the model the same answer and leaves one charge; a deliberate second
 * identical charge later in the conversation (after the model saw the first) is a second charge.
 */
class LangChain4jAgentIT {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static Fixtures f;
    private static String viewer;

    @BeforeAll
    static void setUp() throws Exception {
        f = new Fixtures(SystemStack.get());
        f.clearFaults();
        viewer = TestTokens.create("langchain4j-it", Role.VIEWER, f.tenant);
    }

    @AfterAll
    static void tearDown() {
        f.close();
    }

    @Test
    void aConversationKilledBeforeTheModelSawTheAnswerRunsAgainToTheSameAnswerAndOneCharge() throws Exception {
        String conversation = f.tenant + "-l4j";
        String opId = f.tenant + ":langchain4j-charge";
        Path dir = Files.createDirectories(Path.of("target", "langchain4j-agent"));

        Path killed = dir.resolve(f.tenant + "-killed.txt");
        try (ServiceProcess agent = agent("langchain4j-agent-killed", conversation, opId, "halt", killed,
                "charge me 12.50 EUR")) {
            await().atMost(WAIT).until(() -> ScriptedAgents.read(killed).contains("HALTED"));
            agent.kill9();
        }
        List<String> before = Fixtures.answeredIds(ScriptedAgents.read(killed));
        assertThat(f.charges(opId)).as("the tool was called once").isEqualTo(1);

        Path rerun = dir.resolve(f.tenant + "-rerun.txt");
        try (ServiceProcess agent = agent("langchain4j-agent-rerun", conversation, opId, "complete", rerun,
                "charge me 12.50 EUR", "charge me 12.50 EUR again")) {
            await().atMost(WAIT).until(() -> ScriptedAgents.read(rerun).split("ANSWER: ", -1).length == 3 || !agent.isAlive());
            assertThat(ScriptedAgents.read(rerun).split("ANSWER: ", -1)).as(agent.logTail(40)).hasSize(3);
        }
        List<String> after = Fixtures.answeredIds(ScriptedAgents.read(rerun));

        assertThat(after).hasSize(2);
        assertThat(after.get(0)).as("the re-run gets the same answer").isEqualTo(before.get(0));
        assertThat(ScriptedAgents.read(rerun)).contains("\"replayed\":true");
        assertThat(after.get(1)).as("the deliberate second charge is a charge of its own").isNotEqualTo(after.get(0));
        assertThat(f.charges(opId)).as("one charge for the re-run, one for the deliberate second").isEqualTo(2);
        for (Path p : List.of(killed, rerun)) {
            System.out.println("---- " + p.getFileName() + "\n" + ScriptedAgents.read(p));
        }
    }

    private static ServiceProcess agent(String name, String conversation, String opId, String mode, Path transcript,
                                        String... messages) {
        List<String> args = new ArrayList<>(List.of(f.stack.jdbcUrl, f.stack.executorUrl, viewer, f.tenant,
                conversation, opId, mode, transcript.toAbsolutePath().toString()));
        args.addAll(List.of(messages));
        return ServiceProcess.start(name, LangChain4jAgent.class.getName(), Map.of(), args);
    }
}
