package dev.toolonce.testsupport;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The ACLs of docs/security.md §6a, one principal per process kind, as {@link SecureKafka} grants them: nothing else
 * is allowed ({@code allow.everyone.if.no.acl.found=false}). Keep the two in step: a system test over this broker
 * fails when a process needs an ACL the table does not list.
 */
final class KafkaAcls {

  static final String INTENTS = "toolonce.tool-intents";
  static final String RESULTS = "toolonce.tool-results";
  static final String TASKS = "toolonce.agent-tasks";
  static final String INTENTS_DLQ = "toolonce.tool-intents.dlq";
  static final String RESULTS_DLQ = "toolonce.tool-results.dlq";
  static final String TASKS_DLQ = "toolonce.agent-tasks.dlq";
  static final String RELAY_DLQ = "toolonce.relay.dlq";

  private KafkaAcls() {}

  static List<AclBinding> of6a() {
    List<AclBinding> acls = new ArrayList<>();
    // relay: publishes what its outboxes name, dead-letters to its own topic (created if missing), and describes
    // any topic a row names, to tell a missing topic from an unreachable cluster
    for (String topic : List.of(INTENTS, RESULTS, TASKS, RELAY_DLQ)) {
      acls.add(topic(SecureKafka.RELAY, topic, AclOperation.WRITE));
    }
    acls.add(topic(SecureKafka.RELAY, RELAY_DLQ, AclOperation.CREATE));
    acls.add(new AclBinding(new ResourcePattern(ResourceType.TOPIC, ResourcePattern.WILDCARD_RESOURCE, PatternType.LITERAL),
        allow(SecureKafka.RELAY, AclOperation.DESCRIBE)));
    // executor: consumes intents and task events in its two groups, dead-letters both, and reads the retention of
    // the intents topic and of its dead-letter topic (RetentionGuard)
    acls.add(topic(SecureKafka.EXECUTOR, INTENTS, AclOperation.READ));
    acls.add(topic(SecureKafka.EXECUTOR, TASKS, AclOperation.READ));
    acls.add(group(SecureKafka.EXECUTOR, "toolonce-executor"));
    acls.add(group(SecureKafka.EXECUTOR, "toolonce-executor-task-holds"));
    acls.add(topic(SecureKafka.EXECUTOR, INTENTS_DLQ, AclOperation.WRITE));
    acls.add(topic(SecureKafka.EXECUTOR, TASKS_DLQ, AclOperation.WRITE));
    acls.add(topic(SecureKafka.EXECUTOR, INTENTS, AclOperation.DESCRIBE_CONFIGS));
    acls.add(topic(SecureKafka.EXECUTOR, INTENTS_DLQ, AclOperation.DESCRIBE_CONFIGS));
    // result consumer (inbox-consumer, group toolonce-agent): consumes results, dead-letters them
    acls.add(topic(SecureKafka.CONSUMER, RESULTS, AclOperation.READ));
    acls.add(group(SecureKafka.CONSUMER, "toolonce-agent"));
    acls.add(topic(SecureKafka.CONSUMER, RESULTS_DLQ, AclOperation.WRITE));
    // an agent that produces intents straight to Kafka
    acls.add(topic(SecureKafka.AGENT, INTENTS, AclOperation.WRITE));
    return List.copyOf(acls);
  }

  private static AclBinding topic(String user, String topic, AclOperation operation) {
    return new AclBinding(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), allow(user, operation));
  }

  private static AclBinding group(String user, String group) {
    return new AclBinding(new ResourcePattern(ResourceType.GROUP, group, PatternType.LITERAL),
        allow(user, AclOperation.READ));
  }

  private static AccessControlEntry allow(String user, AclOperation operation) {
    return new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW);
  }
}
