package dev.toolonce.relay.publish;

import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;

/**
 * What a failed send means for its record, decided by an explicit list: a failure that no
 * retry can cure for this record (too large, bad topic name, not authorised for that topic)
 * sends it to the dead-letter topic; anything else (broker down, timeouts, fatal producer
 * states) fails the batch so the engine delivers it again. Pure.
 *
 * @param deadLetter whether the record goes to the dead-letter topic
 * @param code       {@code toolonce.error.code} for the dead-letter record
 * @param message    {@code toolonce.error.message}
 */
public record SendFailure(boolean deadLetter, String code, String message) {

    public static final String RECORD_TOO_LARGE = "RECORD_TOO_LARGE";
    public static final String INVALID_TOPIC = "INVALID_TOPIC";
    public static final String UNKNOWN_TOPIC = "UNKNOWN_TOPIC";
    public static final String TOPIC_AUTHORIZATION = "TOPIC_AUTHORIZATION_FAILED";
    public static final String INVALID_RECORD = "INVALID_RECORD";
    public static final String RETRY = "RETRY";

    /** Classifies the cause of a failed send (the future's cause, or what {@code send} threw). */
    public static SendFailure classify(Throwable error) {
        String message = describe(error);
        if (error instanceof RecordTooLargeException || error instanceof RecordBatchTooLargeException) {
            return new SendFailure(true, RECORD_TOO_LARGE, message);
        }
        if (error instanceof InvalidTopicException) {
            return new SendFailure(true, INVALID_TOPIC, message);
        }
        if (error instanceof TopicAuthorizationException) {
            return new SendFailure(true, TOPIC_AUTHORIZATION, message);
        }
        if (error instanceof InvalidRecordException || error instanceof SerializationException) {
            return new SendFailure(true, INVALID_RECORD, message);
        }
        return new SendFailure(false, RETRY, message);
    }

    /**
     * Whether the producer gave up waiting for the topic's metadata: the topic may not exist
     * (auto-creation is off) or the cluster may be unreachable; only asking the cluster tells.
     */
    public static boolean isMissingMetadata(Throwable error) {
        return error instanceof TimeoutException && error.getMessage() != null
                && error.getMessage().contains("not present in metadata");
    }

    static String describe(Throwable error) {
        String text = error.getClass().getSimpleName() + ": " + error.getMessage();
        return text.length() > 1000 ? text.substring(0, 1000) : text;
    }
}
