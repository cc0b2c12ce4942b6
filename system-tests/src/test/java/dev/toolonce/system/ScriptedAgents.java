package dev.toolonce.system;

import dev.toolonce.agent.call.ToolCalls;
import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.testsupport.TestStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** What the scripted agent processes ({@link SpringAiAgent}, {@link LangChain4jAgent}) and their tests share. */
final class ScriptedAgents {
    private ScriptedAgents() {
    }

    /** The agent's awaitable calls on the system database, signed with the keyring the process was given. */
    static ToolCalls toolCalls(String jdbcUrl, String source) {
        DataSource ds = TestStack.pooled(jdbcUrl);
        Keyring keyring = Keyring.required(System.getenv("TOOLONCE_SIGNING_KEYRINGFILE"), source);
        return new ToolCalls(ds, new TransactionTemplate(new DataSourceTransactionManager(ds)),
                new IntentPublisher("agent", Contract.INTENTS_TOPIC, source, keyring), "agent", Duration.ofMillis(50));
    }

    /** Appends a line to a transcript. */
    static void write(Path file, String line) {
        try {
            Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Appends a line and forces it to disk: an effect that must survive the process being killed right after. */
    static void writeSynced(Path file, String line) {
        try {
            Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.SYNC);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The model was handed the tool's answer: write that down and hang until the test kills the process. */
    static void halt(Path transcript) {
        write(transcript, "HALTED before the model used the answer");
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A transcript so far; empty before it exists. */
    static String read(Path p) throws IOException {
        return Files.exists(p) ? Files.readString(p) : "";
    }
}
