package dev.toolonce.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The agent schema's migration scripts as the classpath holds them, in version order: what a test expects a migrated
 * agent schema's history to hold, without a count to edit whenever a migration is added.
 */
public final class AgentMigrationScripts {
    private AgentMigrationScripts() {
    }

    /** The script names ({@code V1__agent_steps_inbox_outbox.sql}, …), lowest version first. */
    public static List<String> all() {
        try {
            Resource[] found = new PathMatchingResourcePatternResolver()
                    .getResources("classpath*:dev/toolonce/agent/db/migration/V*__*.sql");
            List<String> names = Arrays.stream(found).map(Resource::getFilename).distinct()
                    .sorted(Comparator.comparingInt(AgentMigrationScripts::version)).toList();
            if (names.isEmpty()) {
                throw new IllegalStateException("no agent migrations on the classpath");
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int version(String script) {
        return Integer.parseInt(script.substring(1, script.indexOf("__")));
    }
}
