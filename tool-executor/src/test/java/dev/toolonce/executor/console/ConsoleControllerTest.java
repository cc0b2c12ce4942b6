package dev.toolonce.executor.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolonce.executor.config.OperatorProperties;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where the console's task pages are forwarded: the agent's task API and nothing else, whatever the path's encoding. */
class ConsoleControllerTest {
    private final ConsoleController console = new ConsoleController(new OperatorProperties(List.of("d.dlq"),
            List.of("t"), URI.create("http://agent.example:18083/")));

    @Test
    void aTaskPathGoesToTheAgentsTaskApiWithItsSegmentsEncodedOnce() {
        assertThat(target("/console/tasks-api/tasks", "limit=5"))
                .isEqualTo("http://agent.example:18083/api/v1/tasks?limit=5");
        assertThat(target("/console/tasks-api/tasks/a%20b/steps/s-1/approve", "tenant=acme"))
                .isEqualTo("http://agent.example:18083/api/v1/tasks/a%20b/steps/s-1/approve?tenant=acme");
    }

    @Test
    void nothingButTheTaskApiIsReachedWhateverThePathSays() {
        for (String path : List.of("/console/tasks-api/actuator", "/console/tasks-api/tasks/../actuator",
                "/console/tasks-api/tasks/%2e%2e/%2e%2e/actuator", "/console/tasks-api/tasks/a%2Fb",
                "/console/tasks-api/tasks//x", "/console/tasks-api/tasks/.", "/console/tasks-api/",
                "/console/tasks-api/tasks/1/2/3/4/5/6")) {
            assertThatThrownBy(() -> target(path, null)).as(path).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private String target(String uri, String query) {
        return console.target(uri, query).toString();
    }
}
