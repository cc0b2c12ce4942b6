package dev.toolonce.boot.agent;

import dev.toolonce.agent.call.ToolCalls;
import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.results.ResultHandler;
import dev.toolonce.agent.results.ResultListener;
import dev.toolonce.agent.results.StepResults;
import dev.toolonce.agent.task.DryRunCatalog;
import dev.toolonce.agent.task.TaskEngine;
import dev.toolonce.agent.task.TaskEvents;
import dev.toolonce.agent.task.TaskStore;
import dev.toolonce.jdbc.DatabaseProbe;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.messaging.ConsumerContainers;
import dev.toolonce.messaging.ConsumerDeadLetterSink;
import dev.toolonce.messaging.KafkaClientDefaults;
import dev.toolonce.schemas.signing.Keyring;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.toolonce.agent.publish.TraceContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What {@code toolonce-agent-spring-boot-starter} gives an agent application (docs/agent-tasks.md): the agent's
 * schema migrated, an {@link IntentPublisher} and the task API ({@link TaskEngine}) configured from
 * {@code toolonce.agent.*}, and — unless {@code toolonce.agent.consumer=false} — the result consumer, which advances
 * tasks and hands every new result to the application's {@link ResultHandler} beans and as a
 * {@link ToolResultReceived} event, in the transaction of its inbox row. Every bean backs off when the application
 * defines its own; {@code toolonce.agent.enabled=false} switches all of it off. Its package lies outside
 * {@code dev.toolonce.agent}, so that an application scanning that package does not register its beans twice.
 */
@AutoConfiguration(afterName = {"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration"})
@ConditionalOnBooleanProperty(name = "toolonce.agent.enabled", matchIfMissing = true)
@EnableConfigurationProperties(AgentProperties.class)
@Import({ToolOnceAgentAutoConfiguration.Consumer.class, ToolOnceAgentAutoConfiguration.Api.class})
public class ToolOnceAgentAutoConfiguration {
    private static final Logger log = LoggerFactory.getLogger(ToolOnceAgentAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    AgentMigrations toolonceAgentMigrations(DataSource dataSource, AgentProperties p) {
        return new AgentMigrations(dataSource, p);
    }

    /**
     * The agent's signing keys (docs/security.md §6b): its own key signs its intents, compensation requests and task
     * events; the executor's result key checks every result. There is no unsigned mode: without
     * {@value Keyring#PROPERTY} the application does not start.
     */
    @Bean
    @ConditionalOnMissingBean
    Keyring toolonceKeyring(@Value("${" + Keyring.PROPERTY + ":}") String file) {
        Keyring keyring = Keyring.required(file, "the ToolOnce agent");
        log.info("signing keys from {}: {}", keyring.path(), keyring.keys());
        return keyring;
    }

    @Bean
    @ConditionalOnMissingBean
    IntentPublisher intentPublisher(AgentProperties p, Keyring keyring, AgentMigrations migrated) {
        if (p.tenantShards().sharded()) { // each intent to its tenant's shard (docs/scaling.md §3)
            Map<String, String> topics = new HashMap<>();
            p.shards().forEach(s -> topics.put(s.name(), s.intentsTopic()));
            return IntentPublisher.sharded(p.schema(), p.tenantShards(), topics, p.source(), TraceContext.MDC_ENTRIES,
                    keyring);
        }
        return new IntentPublisher(p.schema(), p.intentsTopic(), p.source(), keyring);
    }

    @Bean
    @ConditionalOnMissingBean
    TaskEngine taskEngine(DataSource dataSource, PlatformTransactionManager tm, IntentPublisher publisher,
                          Keyring keyring, AgentProperties p, AgentMigrations migrated) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        return new TaskEngine(new TaskStore(jdbc, p.schema()), publisher,
                new TaskEvents(jdbc, p.schema(), p.tasksTopic(), p.source(), keyring), dataSource, new TransactionTemplate(tm),
                DryRunCatalog.of(p.dryRuns()));
    }

    /**
     * The awaitable call (docs/agent-calls.md §2). Its waits end through the database: with this application's
     * consumer, as soon as the consumer commits the answer; without it, at the next poll.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    ToolCalls toolCalls(DataSource dataSource, PlatformTransactionManager tm, IntentPublisher publisher,
                        AgentProperties p, AgentMigrations migrated) {
        return new ToolCalls(dataSource, new TransactionTemplate(tm), publisher, p.schema(), p.callsPoll());
    }

    /** Resumes open tasks once the application is ready: steps in flight go out again with their original keys. */
    @Bean
    @ConditionalOnBooleanProperty(name = "toolonce.agent.resume-on-start", matchIfMissing = true)
    ApplicationListener<ApplicationReadyEvent> toolonceResumeOpenTasks(TaskEngine tasks) {
        return e -> log.info("resumed {} open task(s) at start-up", tasks.resumeAll());
    }

    /** The result consumer: its own byte-array container factory, so the application's Kafka settings stay its own. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "toolonce.agent.consumer", matchIfMissing = true)
    static class Consumer {

        @Bean
        ConcurrentKafkaListenerContainerFactory<byte[], byte[]> toolonceResultsContainerFactory(KafkaProperties kafka,
                                                                                               AgentProperties p) {
            Map<String, Object> props = KafkaClientDefaults.withQuickReconnect(kafka.buildConsumerProperties());
            props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
            // docs/protocol.md §14: offsets are committed after the batch's transaction; a new group starts at the beginning
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            ConcurrentKafkaListenerContainerFactory<byte[], byte[]> f = new ConcurrentKafkaListenerContainerFactory<>();
            f.setConsumerFactory(new DefaultKafkaConsumerFactory<>(props));
            f.setBatchListener(true);
            ConsumerContainers.commitOffsetsWithoutWaiting(f.getContainerProperties(), p.offsetCommitInterval());
            f.setCommonErrorHandler(ConsumerContainers.redeliverWhileInfrastructureIsDown());
            Integer concurrency = kafka.getListener().getConcurrency();
            f.setConcurrency(concurrency == null ? 3 : concurrency);
            return f;
        }

        @Bean
        @ConditionalOnMissingBean
        DatabaseProbe databaseProbe(DataSource dataSource) {
            return new DatabaseProbe(new JdbcTemplate(dataSource));
        }

        @Bean
        @ConditionalOnMissingBean
        ResultListener resultListener(DataSource dataSource, PlatformTransactionManager tm, KafkaProperties kafka,
                                      AgentProperties p, DatabaseProbe probe, TaskEngine tasks, ToolCalls calls,
                                      Keyring keyring,
                                      ObjectProvider<ResultHandler> handlers, ApplicationEventPublisher events,
                                      ObjectProvider<MeterRegistry> meters, AgentMigrations migrated) {
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            Map<String, Object> producer = KafkaClientDefaults.withQuickReconnect(kafka.buildProducerProperties());
            producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            producer.put(ProducerConfig.ACKS_CONFIG, "all");
            KafkaTemplate<byte[], byte[]> dlq = new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(producer));
            List<ResultHandler> all = new ArrayList<>();
            all.add(tasks.resultHandler());
            handlers.orderedStream().forEach(all::add);
            all.add(calls.resultHandler());
            all.add(r -> events.publishEvent(new ToolResultReceived(r)));
            return new ResultListener(p.consumerGroup(), new InboxStore(jdbc, p.schema()), new StepResults(jdbc, p.schema()),
                    keyring, new ConsumerDeadLetterSink(dlq, p.deadLetterTopic()), new TransactionTemplate(tm), probe,
                    p.poisonAttempts(), meters.getIfAvailable(SimpleMeterRegistry::new), all);
        }
    }

    /**
     * {@code /tasks}: query, approve, change arguments, resume (docs/agent-tasks.md) — only with
     * {@code toolonce.agent.api=true}, and then only behind a credential: {@link TaskApiGuard} refuses to start
     * otherwise, naming what to set.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(name = "org.springframework.web.bind.annotation.RestController")
    @ConditionalOnBooleanProperty(name = "toolonce.agent.api")
    static class Api {
        @Bean
        TaskApiGuard toolonceTaskApiGuard(ListableBeanFactory beans, Environment env) {
            return new TaskApiGuard(beans, env);
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = {"dev.toolonce.security.TenantScope",
                "org.springframework.security.web.SecurityFilterChain"})
        static class Controller {
            @Bean
            TaskController toolonceTaskController(TaskEngine tasks) {
                return new TaskController(tasks);
            }
        }
    }
}
