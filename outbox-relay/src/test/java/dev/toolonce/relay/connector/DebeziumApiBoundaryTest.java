package dev.toolonce.relay.connector;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The relay talks to Debezium through its published embedding API only ({@code io.debezium.engine}, the
 * {@code Connect} format, and the PostgreSQL connector class named in the configuration); the internals it cannot
 * do without stay in {@link RelayPostgresTask}, where their reasons are written down and
 * {@link DebeziumInternalsTest} checks them.
 */
class DebeziumApiBoundaryTest {

    private static final Pattern DEBEZIUM_IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?(io\\.debezium\\.[\\w.]+);",
            Pattern.MULTILINE);
    private static final Pattern PUBLISHED = Pattern.compile(
            "io\\.debezium\\.engine\\..+|io\\.debezium\\.embedded\\.Connect");
    private static final String TASK = "RelayPostgresTask.java";
    private static final String CONNECTOR = "RelayPostgresConnector.java";

    @Test
    void onlyTheTaskImportsDebeziumInternals() throws IOException {
        Path main = Path.of("src/main/java/dev/toolonce/relay");
        assertThat(Files.isDirectory(main)).isTrue();
        List<String> offenders;
        try (Stream<Path> files = Files.walk(main)) {
            offenders = files.filter(p -> p.toString().endsWith(".java"))
                    .flatMap(p -> internalImports(p).stream().map(i -> p.getFileName() + ": " + i))
                    .toList();
        }
        assertThat(offenders).as("Debezium internals imported outside RelayPostgresTask").isEmpty();
    }

    @Test
    void theCheckRecognisesAnInternalImport() {
        assertThat(internal("X.java", "import io.debezium.connector.base.QueueProvider;\n")).isNotEmpty();
        assertThat(internal("X.java", "import io.debezium.engine.DebeziumEngine;\n")).isEmpty();
        assertThat(internal(CONNECTOR, "import io.debezium.connector.postgresql.PostgresConnector;\n")).isEmpty();
        assertThat(internal(TASK, "import io.debezium.service.spi.ServiceRegistry;\n")).isEmpty();
    }

    private static List<String> internalImports(Path file) {
        try {
            return internal(file.getFileName().toString(), Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> internal(String fileName, String source) {
        if (fileName.equals(TASK)) {
            return List.of();
        }
        Matcher m = DEBEZIUM_IMPORT.matcher(source);
        List<String> found = new ArrayList<>();
        while (m.find()) {
            String name = m.group(1);
            boolean connectorClass = fileName.equals(CONNECTOR)
                    && name.equals("io.debezium.connector.postgresql.PostgresConnector");
            if (!PUBLISHED.matcher(name).matches() && !connectorClass) {
                found.add(name);
            }
        }
        return found;
    }
}
