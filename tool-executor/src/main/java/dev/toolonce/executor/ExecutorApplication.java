package dev.toolonce.executor;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The tool executor: intake of intents, claims, tool calls and completions (docs/protocol.md §5–§9). */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ExecutorApplication {

    /** Common-pool parallelism the executor needs at least; see {@link #main}. */
    static final int MIN_COMMON_POOL_PARALLELISM = 2;

    public static void main(String[] args) {
        // The JDK HttpClient hands each response of sendAsync to the CompletableFuture default executor. With
        // a common pool of parallelism 1 (any machine with 2 cores or fewer) that executor starts a new thread
        // per task: one thread per tool call. Set before anything touches the common pool; an explicit
        // setting wins.
        if (System.getProperty("java.util.concurrent.ForkJoinPool.common.parallelism") == null
                && Runtime.getRuntime().availableProcessors() - 1 < MIN_COMMON_POOL_PARALLELISM) {
            System.setProperty("java.util.concurrent.ForkJoinPool.common.parallelism",
                    Integer.toString(MIN_COMMON_POOL_PARALLELISM));
        }
        // A config name of its own (several ToolOnce apps share one classpath in the system tests), then
        // Spring's standard name, so that an application.yml (./config/, the working directory,
        // spring.config.location) overrides the defaults as in any Spring Boot application.
        new SpringApplicationBuilder(ExecutorApplication.class)
                .properties("spring.config.name=toolonce-executor,application")
                .run(args);
    }
}
