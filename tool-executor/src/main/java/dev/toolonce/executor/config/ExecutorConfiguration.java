package dev.toolonce.executor.config;

import dev.toolonce.core.decide.Decider;
import dev.toolonce.core.retry.RetryBudget;
import dev.toolonce.core.lifecycle.CallLifecycle;
import dev.toolonce.core.retry.RetryPolicy;
import dev.toolonce.executor.execution.GroupCommitter;
import dev.toolonce.executor.faults.FaultInjectionProperties;
import dev.toolonce.executor.faults.FaultPoints;
import dev.toolonce.executor.execution.CallFinisher;
import dev.toolonce.executor.execution.Completion;
import dev.toolonce.executor.ledger.ToolCallClaims;
import dev.toolonce.executor.ledger.ToolCallCompensations;
import dev.toolonce.executor.ledger.ToolCallRetention;
import dev.toolonce.executor.reconcile.Reconciler;
import dev.toolonce.executor.retention.RetentionGuard;
import dev.toolonce.executor.retention.RetentionJobs;
import dev.toolonce.executor.retention.RetentionPurger;
import dev.toolonce.executor.review.ReviewService;
import java.util.List;
import org.springframework.kafka.core.KafkaAdmin;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import dev.toolonce.executor.execution.Dispatcher;
import dev.toolonce.executor.ledger.PausedToolStore;
import dev.toolonce.executor.history.CallHistory;
import dev.toolonce.executor.ledger.ReviewAuditStore;
import dev.toolonce.executor.ledger.DeadLetterReplayStore;
import dev.toolonce.executor.deadletter.DeadLetters;
import dev.toolonce.executor.history.Overview;
import dev.toolonce.executor.ledger.TaskHoldStore;
import dev.toolonce.executor.adapter.AdapterRegistry;
import dev.toolonce.executor.catalogue.ToolCatalogue;
import dev.toolonce.executor.compensation.CompensationDriver;
import dev.toolonce.executor.compensation.CompensationGateway;
import dev.toolonce.executor.retention.TaskHolds;
import dev.toolonce.schemas.signing.Keyring;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.executor.adapter.HttpAdapterFactory;
import dev.toolonce.executor.execution.ToolGateway;
import dev.toolonce.messaging.ConsumerContainers;
import dev.toolonce.messaging.ConsumerDeadLetterSink;
import dev.toolonce.executor.intake.Intake;
import dev.toolonce.executor.intake.IntentListener;
import dev.toolonce.executor.intake.IntentParser;
import dev.toolonce.executor.results.ResultEvents;
import dev.toolonce.executor.metrics.ExecutorStats;
import dev.toolonce.executor.metrics.LedgerGauges;
import dev.toolonce.jdbc.DatabaseProbe;
import dev.toolonce.jdbc.InboxStore;
import dev.toolonce.jdbc.OutboxStore;
import dev.toolonce.executor.ledger.PendingReplyStore;
import dev.toolonce.executor.ledger.ToolCallStore;
import dev.toolonce.schemas.ContractValidator;
import dev.toolonce.schemas.EventCodec;
import java.time.Clock;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.config.ContainerCustomizer;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.transaction.support.TransactionTemplate;

/** Wires the executor from plain classes; only this class and the web layer know Spring. */
@Configuration(proxyBeanMethods = false)
public class ExecutorConfiguration {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ExecutorConfiguration.class);

    @Bean
    CommonErrorHandler kafkaErrorHandler() {
        return ConsumerContainers.redeliverWhileInfrastructureIsDown();
    }

    /**
     * Every listener of the executor (intake, task holds) is an inbox: see {@link ConsumerContainers#commitOffsetsWithoutWaiting}.
     * {@code toolonce.executor.offset-commit-interval} (default 1 s; 0: after every batch) says how often.
     */
    @Bean
    ContainerCustomizer<Object, Object, ConcurrentMessageListenerContainer<Object, Object>> asyncOffsetCommits(
            @Value("${toolonce.executor.offset-commit-interval:1s}") Duration interval) {
        return container -> ConsumerContainers.commitOffsetsWithoutWaiting(container.getContainerProperties(), interval);
    }

    @Bean
    DatabaseProbe databaseProbe(JdbcTemplate jdbc) {
        return new DatabaseProbe(jdbc);
    }

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    EventCodec eventCodec() {
        return new EventCodec();
    }

    @Bean
    ExecutorStats executorStats(MeterRegistry registry) {
        return new ExecutorStats(registry);
    }

    @Bean
    ToolCallStore toolCallStore(JdbcTemplate jdbc, ExecutorProperties p) {
        return new ToolCallStore(jdbc, p.schema());
    }

    @Bean
    ToolCallClaims toolCallClaims(JdbcTemplate jdbc, ExecutorProperties p) {
        return new ToolCallClaims(jdbc, p.schema());
    }

    @Bean
    ToolCallCompensations toolCallCompensations(JdbcTemplate jdbc, ExecutorProperties p) {
        return new ToolCallCompensations(jdbc, p.schema());
    }

    @Bean
    PendingReplyStore pendingReplyStore(JdbcTemplate jdbc, ExecutorProperties p) {
        return new PendingReplyStore(jdbc, p.schema());
    }

    /** docs/security.md §6b: every agent key it accepts, and its own result key. */
    @Bean
    Keyring keyring(@Value("${" + Keyring.PROPERTY + ":}") String file) {
        return Keyring.required(file, "tool-executor", Power.RESULT);
    }

    @Bean
    ResultEvents resultEvents(JdbcTemplate jdbc, Keyring keyring, EventCodec codec, ExecutorProperties p, Clock clock) {
        return new ResultEvents(new OutboxStore(jdbc, p.schema()), keyring, codec, p.resultsTopic(), p.source(), clock);
    }

    /**
     * One generic HTTP adapter per configured tool; a configuration that cannot work stops the start-up
     * with a message naming the tool and the field.
     */
    @Bean
    ToolGateway toolGateway(ExecutorProperties p, EventCodec codec, ToolCallStore calls) {
        var adapters = new HttpAdapterFactory(p.lease(), System::getenv, codec.mapper()).buildAll(p.tools());
        adapters.values().forEach(a -> log.info("tool ready: {} {}", a, a.descriptor().capabilities()));
        return new CompensationGateway(new AdapterRegistry(adapters), calls, adapters.keySet());
    }

    /** The tools as agents see them (docs/adapters.md §8): descriptions, argument schemas, guarantees. */
    @Bean
    ToolCatalogue toolCatalogue(ExecutorProperties p, ToolGateway gateway) {
        return ToolCatalogue.of(p.tools(), gateway::descriptor);
    }

    /** docs/protocol.md §13: open tasks' calls are kept from the purge, from the agents' task events. */
    @Bean
    TaskHolds taskHolds(JdbcTemplate jdbc, Keyring keyring, ExecutorProperties p, KafkaTemplate<byte[], byte[]> kafka,
                        TransactionTemplate tx, DatabaseProbe probe, MeterRegistry meters) {
        return new TaskHolds(new TaskHoldStore(jdbc, p.schema()), keyring, new ConsumerDeadLetterSink(kafka,
                p.tasksDeadLetterTopic()), tx, probe, p.poisonAttempts(), meters);
    }

    /** docs/protocol.md §17: releases held compensations and settles their originals, every reconcile interval. */
    @Bean
    CompensationDriver compensationDriver(ToolCallStore calls, ToolCallCompensations holds, CallFinisher finisher,
                                          CallLifecycle lifecycle, TransactionTemplate tx, ExecutorStats stats,
                                          ExecutorProperties p) {
        return new CompensationDriver(calls, holds, finisher, lifecycle, tx, stats, p.reconcileInterval());
    }

    @Bean
    RetryPolicy retryPolicy(ExecutorProperties p) {
        return new RetryPolicy(p.retryBase(), p.retryCap(), p.maxAttempts());
    }

    /** The protocol's rules for every move of a call after intake (docs/protocol.md §9–§12, §16, §17). */
    @Bean
    CallLifecycle callLifecycle(RetryPolicy retry) {
        return new CallLifecycle(retry);
    }

    @Bean
    RetryBudget retryBudget(ExecutorProperties p, Clock clock) {
        return new RetryBudget(p.retryBudgetPerMinute(), Duration.ofMinutes(1), clock);
    }

    @Bean
    CallFinisher callFinisher(ToolCallStore calls, PendingReplyStore pending, ResultEvents results) {
        return new CallFinisher(calls, pending, results);
    }

    @Bean
    PausedToolStore pausedToolStore(JdbcTemplate jdbc, ExecutorProperties p) {
        return new PausedToolStore(jdbc, p.schema());
    }

    @Bean
    Completion completion(ToolCallStore calls, CallFinisher finisher, ToolGateway gateway, CallLifecycle lifecycle,
                          RetryBudget budget, TransactionTemplate tx, ExecutorStats stats, PausedToolStore pauses) {
        return new Completion(calls, finisher, gateway, lifecycle, budget, tx, stats, pauses);
    }

    @Bean
    LedgerGauges ledgerGauges(JdbcTemplate jdbc, ExecutorProperties p, MeterRegistry meters) {
        return new LedgerGauges(jdbc, p.schema(), Duration.ofSeconds(15), meters);
    }

    @Bean
    Dispatcher dispatcher(ToolCallClaims claims, ToolGateway gateway, Completion completion, TransactionTemplate tx,
                          ExecutorProperties p, ExecutorStats stats, FaultInjectionProperties faults) {
        return new Dispatcher(claims, gateway, new GroupCommitter(completion, p.committers(), p.commitGroup()), tx,
                new Dispatcher.Settings(p.workers(), p.claimBatch(), p.lease(), p.heartbeat(), p.idlePoll(),
                        p.startAtIntake()),
                new FaultPoints(faults), stats);
    }

    @Bean
    Reconciler reconciler(ToolCallStore calls, ToolCallClaims claims, CallFinisher finisher, ToolGateway gateway,
                          CallLifecycle lifecycle, RetryBudget budget, TransactionTemplate tx, ExecutorStats stats,
                          ExecutorProperties p) {
        return new Reconciler(calls, claims, finisher, gateway, lifecycle, budget, tx, stats, p.lease(),
                p.reconcileInterval(), Duration.ofSeconds(1));
    }

    /** Refuses to start (the bean fails) when the ledger would forget calls Kafka can still redeliver. */
    @Bean
    RetentionGuard retentionGuard(KafkaAdmin admin, ExecutorProperties p) {
        RetentionGuard guard = new RetentionGuard(admin.getConfigurationProperties(),
                List.of(p.intentsTopic(), p.deadLetterTopic()), p.retention(), p.retryHorizon(),
                p.allowInfiniteTopicRetention());
        guard.check();
        return guard;
    }

    @Bean
    RetentionJobs retentionJobs(JdbcTemplate jdbc, RetentionGuard guard, ExecutorProperties p) {
        return new RetentionJobs(new RetentionPurger(new ToolCallRetention(jdbc, p.schema()),
                new InboxStore(jdbc, p.schema()), new OutboxStore(jdbc, p.schema()), p.retention(), Duration.ofDays(1), 1000),
                guard, Duration.ofMinutes(1), Duration.ofMinutes(10));
    }

    @Bean
    ReviewAuditStore reviewAuditStore(JdbcTemplate jdbc, ExecutorProperties p) {
        return new ReviewAuditStore(jdbc, p.schema());
    }

    @Bean
    CallHistory callHistory(JdbcTemplate jdbc, ExecutorProperties p) {
        return new CallHistory(jdbc, p.schema());
    }

    @Bean
    Overview overview(JdbcTemplate jdbc, ExecutorProperties p, ExecutorStats stats) {
        return new Overview(jdbc, p.schema(), stats);
    }

    @Bean
    DeadLetterReplayStore deadLetterReplayStore(JdbcTemplate jdbc, ExecutorProperties p) {
        return new DeadLetterReplayStore(jdbc, p.schema());
    }

    @Bean
    DeadLetters deadLetters(ConsumerFactory<byte[], byte[]> consumers, KafkaTemplate<byte[], byte[]> kafka,
                            DeadLetterReplayStore replays, ExecutorProperties p, OperatorProperties o) {
        return new DeadLetters(consumers, kafka, replays, o.deadLetterTopics(), o.replayTopics(),
                p.retention().minus(p.retentionMargin()));
    }

    @Bean
    ReviewService reviewService(ToolCallStore calls, ToolCallCompensations holds, CallFinisher finisher,
                                CallLifecycle lifecycle, ReviewAuditStore audit, TransactionTemplate tx,
                                ExecutorStats stats) {
        return new ReviewService(calls, holds, finisher, lifecycle, audit, tx, stats);
    }

    @Bean
    Intake intake(JdbcTemplate jdbc, ToolCallStore calls, ToolCallCompensations holds, PendingReplyStore pending,
                  ResultEvents results, ToolGateway gateway, ToolCatalogue catalogue, ExecutorProperties p,
                  Clock clock) {
        return new Intake(p.consumerGroup(), new InboxStore(jdbc, p.schema()), calls, holds, pending, results, gateway,
                catalogue, new Decider(p.acceptanceWindow()), clock, p.tenantShards(), p.shard());
    }

    @Bean
    IntentListener intentListener(EventCodec codec, Keyring keyring, Intake intake, KafkaTemplate<byte[], byte[]> kafka,
                                  TransactionTemplate tx, Dispatcher dispatcher, ExecutorProperties p,
                                  ExecutorStats stats, KafkaProperties kafkaProperties, DatabaseProbe probe,
                                  MeterRegistry meters) {
        checkOffsetSettings(kafkaProperties.buildConsumerProperties());
        IntentParser parser = new IntentParser(codec, new ContractValidator(), p.maxPayloadBytes(), keyring);
        return new IntentListener(parser, intake, new ConsumerDeadLetterSink(kafka, p.deadLetterTopic()), tx, dispatcher, stats,
                probe, p.poisonAttempts(), meters);
    }

    /** docs/protocol.md §5: offsets are committed by us after intake, and a new group starts at the beginning. */
    static void checkOffsetSettings(Map<String, Object> consumer) {
        Object autoCommit = consumer.get(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG);
        Object reset = consumer.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG);
        if (!"false".equals(String.valueOf(autoCommit))) {
            throw new IllegalStateException("spring.kafka.consumer.enable-auto-commit must be false (is " + autoCommit
                    + "): offsets are committed only after intake recorded the batch");
        }
        if (!"earliest".equals(String.valueOf(reset))) {
            throw new IllegalStateException("spring.kafka.consumer.auto-offset-reset must be earliest (is " + reset
                    + "): a new consumer group must not skip intents already on the topic");
        }
    }
}
