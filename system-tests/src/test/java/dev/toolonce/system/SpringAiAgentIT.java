package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.agent.call.LocalCalls;
import dev.toolonce.security.Role;
import dev.toolonce.testsupport.ServiceProcess;
import dev.toolonce.testsupport.TestStack;
import dev.toolonce.testsupport.TestTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

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

    /**
     * The application's own {@code @Tool} method made effectively once ({@code EffectivelyOnce}): killed after the
     * method answered, the turn run again gets the same booking; a later turn's identical call books again; killed
     * inside the method after its effect, the turn run again is held for review instead of booking twice, and a
     * person's resolution is then its answer.
     */
    @Test
    void anApplicationsOwnToolMethodRunsOnceThroughKillsAndIsHeldForReviewWhenKilledInsideIt() throws Exception {
        String conversation = f.tenant + "-local";
        String note = f.tenant + ":booking";
        Path dir = Files.createDirectories(Path.of("target", "spring-ai-agent"));
        Path bookings = dir.resolve(f.tenant + "-bookings.txt");

        Path killed = dir.resolve(f.tenant + "-local-killed.txt");
        try (ServiceProcess agent = agent("spring-ai-local-killed", conversation, "1", note, "halt", killed, bookings)) {
            await().atMost(WAIT).until(() -> ScriptedAgents.read(killed).contains("HALTED"));
            agent.kill9();
        }
        String firstBooking = Fixtures.answeredIds(ScriptedAgents.read(killed)).get(0);
        assertThat(booked(bookings)).as("the method ran once").isEqualTo(1);

        Path rerun = dir.resolve(f.tenant + "-local-rerun.txt");
        runToTheEnd(agent("spring-ai-local-rerun", conversation, "1,2", note, "complete", rerun, bookings), rerun, 2);
        List<String> after = Fixtures.answeredIds(ScriptedAgents.read(rerun));
        assertThat(after.get(0)).as("the re-run turn gets the same booking").isEqualTo(firstBooking);
        assertThat(ScriptedAgents.read(rerun)).contains("\"replayed\":true");
        assertThat(after.get(1)).as("turn 2: a booking of its own").isNotEqualTo(firstBooking);
        assertThat(booked(bookings)).isEqualTo(2);

        Path inside = dir.resolve(f.tenant + "-local-inside.txt");
        try (ServiceProcess agent = agent("spring-ai-local-inside", conversation, "3", note, "halt-in-method", inside,
                bookings)) {
            await().atMost(WAIT).until(() -> ScriptedAgents.read(inside).contains("HALTED inside the method"));
            agent.kill9();
        }
        assertThat(booked(bookings)).as("turn 3's effect happened, its answer was never written").isEqualTo(3);
        // PostgreSQL ends the killed process's session, and with it the call's lock, once it sees the socket close
        JdbcTemplate db = new JdbcTemplate(TestStack.pooled(f.stack.jdbcUrl));
        await().atMost(WAIT).until(() -> db.queryForObject("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                + "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())", Long.class) == 0);

        Path review = dir.resolve(f.tenant + "-local-review.txt");
        runToTheEnd(agent("spring-ai-local-review", conversation, "3", note, "complete", review, bookings), review, 1);
        assertThat(ScriptedAgents.read(review)).contains("\"status\":\"NEEDS_REVIEW\"");
        assertThat(booked(bookings)).as("not booked again: held for a person").isEqualTo(3);

        LocalCalls local = new LocalCalls(db.getDataSource(), "agent", f.tenant, Duration.ofSeconds(1));
        List<LocalCalls.Held> held = local.inReview(10);
        assertThat(held).hasSize(1);
        assertThat(local.resolve(held.get(0).ref(), true, "{\"externalObjectId\":\"bk_found\"}", "spring-ai-it",
                "the restaurant's book shows the table")).isTrue();
        Path resolved = dir.resolve(f.tenant + "-local-resolved.txt");
        runToTheEnd(agent("spring-ai-local-resolved", conversation, "3", note, "complete", resolved, bookings),
                resolved, 1);
        assertThat(Fixtures.answeredIds(ScriptedAgents.read(resolved))).containsExactly("bk_found");
        assertThat(booked(bookings)).isEqualTo(3);
        for (Path p : List.of(killed, rerun, inside, review, resolved)) {
            System.out.println("---- " + p.getFileName() + "\n" + ScriptedAgents.read(p));
        }
    }

    private static void runToTheEnd(ServiceProcess agent, Path transcript, int answers) throws Exception {
        try (agent) {
            await().atMost(WAIT).until(() -> ScriptedAgents.read(transcript).split("ANSWER: ", -1).length == answers + 1
                    || !agent.isAlive());
            assertThat(ScriptedAgents.read(transcript).split("ANSWER: ", -1)).as(agent.logTail(40)).hasSize(answers + 1);
        }
    }

    private static long booked(Path bookings) throws Exception {
        return ScriptedAgents.read(bookings).lines().filter(l -> l.startsWith("BOOKED ")).count();
    }

    private static ServiceProcess agent(String name, String conversation, String turns, String opId, String mode,
                                        Path transcript, Path... bookings) {
        List<String> args = new java.util.ArrayList<>(List.of(f.stack.jdbcUrl, f.stack.executorUrl, viewer, f.tenant,
                conversation, turns, opId, mode, transcript.toAbsolutePath().toString()));
        for (Path b : bookings) {
            args.add(b.toAbsolutePath().toString());
        }
        return ServiceProcess.start(name, SpringAiAgent.class.getName(), Map.of(), args);
    }
}
