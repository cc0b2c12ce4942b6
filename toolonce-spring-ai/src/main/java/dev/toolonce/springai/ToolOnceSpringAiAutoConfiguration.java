package dev.toolonce.springai;

import dev.toolonce.agent.call.Catalogue;
import dev.toolonce.agent.call.LocalCalls;
import dev.toolonce.agent.call.ModelCalls;
import dev.toolonce.agent.call.ToolCalls;
import dev.toolonce.agent.task.TaskEngine;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Bean;

/**
 * With the agent starter and {@code toolonce.spring-ai.executor-url} set: the executor's catalogue (or the subset
 * {@code toolonce.spring-ai.tools}) as a {@link ToolOnceTools} bean, a Spring AI {@code ToolCallbackProvider}, and a
 * {@link LocalCalls} bean that runs the application's own tool methods effectively once ({@link EffectivelyOnce}). The
 * catalogue is read once at start-up with a viewer token; an executor that cannot be reached yet is asked again for
 * {@code catalogue-wait} (2 min), then stops the start-up naming it; a refused token stops it at once.
 */
@AutoConfiguration(afterName = "dev.toolonce.boot.agent.ToolOnceAgentAutoConfiguration")
@ConditionalOnBean(ToolCalls.class)
@ConditionalOnProperty(name = "toolonce.spring-ai.executor-url")
@EnableConfigurationProperties(ToolOnceSpringAiAutoConfiguration.Properties.class)
public class ToolOnceSpringAiAutoConfiguration {

    /**
     * {@code toolonce.spring-ai.*}.
     *
     * @param executorUrl the executor's base URL, whose {@code /executor/catalogue} lists the tools
     * @param token       a viewer token for the catalogue (e.g. {@code ${TOOLONCE_TOKEN}})
     * @param tenant      the tenant every call is made for
     * @param tools       {@code tool/operation} entries to offer; empty for the whole catalogue
     * @param answerWait  how long a call waits for its answer before the model is told it is pending
     * @param catalogueWait how long the start waits for an executor that cannot be reached yet (or answers 502-504)
     */
    @ConfigurationProperties("toolonce.spring-ai")
    public record Properties(String executorUrl, String token, String tenant, List<String> tools,
                             @DefaultValue("20s") Duration answerWait,
                             @DefaultValue("2m") Duration catalogueWait) {
        public Properties {
            tools = tools == null ? List.of() : List.copyOf(tools);
            if (token == null || token.isBlank()) {
                throw new IllegalArgumentException("toolonce.spring-ai.token must name a viewer token for the catalogue");
            }
            if (tenant == null || tenant.isBlank()) {
                throw new IllegalArgumentException("toolonce.spring-ai.tenant must name the tenant the calls are for");
            }
        }
    }

    /**
     * Runs the application's own tool methods effectively once ({@link EffectivelyOnce}), in the agent schema
     * ({@code toolonce.agent.schema}) for {@code toolonce.spring-ai.tenant}.
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(DataSource.class)
    LocalCalls localCalls(DataSource dataSource, Properties p,
                          @Value("${toolonce.agent.schema:agent}") String schema) {
        return new LocalCalls(dataSource, schema, p.tenant(), p.answerWait());
    }

    @Bean
    @ConditionalOnMissingBean
    ToolOnceTools toolOnceTools(ToolCalls calls, ObjectProvider<TaskEngine> tasks, Properties p)
            throws InterruptedException {
        return new ToolOnceTools(Catalogue.fetch(URI.create(p.executorUrl()), p.token(), p.tools(), p.catalogueWait()),
                new ModelCalls(calls, tasks.getIfAvailable(), p.tenant(), p.answerWait()));
    }
}
