package dev.toolonce.relay.publish;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

class SendFailureTest {

    @Test
    void recordSpecificFailuresAreDeadLettered() {
        assertThat(SendFailure.classify(new RecordTooLargeException("big")))
                .extracting(SendFailure::deadLetter, SendFailure::code).containsExactly(true, "RECORD_TOO_LARGE");
        assertThat(SendFailure.classify(new InvalidTopicException("bad")).code()).isEqualTo("INVALID_TOPIC");
        assertThat(SendFailure.classify(new TopicAuthorizationException("no")).code())
                .isEqualTo("TOPIC_AUTHORIZATION_FAILED");
    }

    @Test
    void clusterFailuresRetryTheBatch() {
        assertThat(SendFailure.classify(new TimeoutException("Expiring 3 record(s)")).deadLetter()).isFalse();
        assertThat(SendFailure.classify(new NetworkException("down")).deadLetter()).isFalse();
        assertThat(SendFailure.classify(new NotEnoughReplicasException("isr")).deadLetter()).isFalse();
        assertThat(SendFailure.classify(new OutOfOrderSequenceException("seq")).deadLetter()).isFalse();
        assertThat(SendFailure.classify(new IllegalStateException("closed")).deadLetter()).isFalse();
    }

    @Test
    void recognisesAMetadataTimeout() {
        assertThat(SendFailure.isMissingMetadata(
                new TimeoutException("Topic nope not present in metadata after 5000 ms."))).isTrue();
        assertThat(SendFailure.isMissingMetadata(new TimeoutException("Expiring 1 record(s)"))).isFalse();
    }
}
