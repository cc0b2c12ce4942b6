package dev.toolonce.messaging;

import java.util.Map;

import org.apache.kafka.clients.CommonClientConfigs;

/** Settings ToolOnce gives the Kafka clients it creates inside an application, unless the application set them. */
public final class KafkaClientDefaults {

    /**
     * How long a client waits at most before it tries a broker again that it could not reach. Kafka's default grows to
     * 1 s, so a client can learn of a restarted broker up to a second late; the services use 250 ms
     * (docs/failure-model.md).
     */
    public static final int RECONNECT_BACKOFF_MAX_MS = 250;

    private KafkaClientDefaults() {
    }

    /**
     * @param client a consumer's or producer's settings, as the application's Kafka properties built them
     * @return the same map, with {@link #RECONNECT_BACKOFF_MAX_MS} where the application set no back-off of its own
     */
    public static Map<String, Object> withQuickReconnect(Map<String, Object> client) {
        client.putIfAbsent(CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, RECONNECT_BACKOFF_MAX_MS);
        return client;
    }
}
