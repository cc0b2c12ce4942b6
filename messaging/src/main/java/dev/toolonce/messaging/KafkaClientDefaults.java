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

    /**
     * How long a client waits at most before it asks again for what failed: metadata, the group coordinator, a
     * produce request. Kafka's default also grows to 1 s, and while a broker is down every metadata request fails,
     * so without this a client that has been refused for a few seconds asks a returned broker up to a second late
     * even when it reconnects at once.
     */
    public static final int RETRY_BACKOFF_MAX_MS = 250;

    private KafkaClientDefaults() {
    }

    /**
     * @param client a consumer's or producer's settings, as the application's Kafka properties built them
     *               ({@code Map<String, Object>} or {@link java.util.Properties})
     * @return the same map, with {@link #RECONNECT_BACKOFF_MAX_MS} unless the application set a reconnect back-off
     *         of its own, and {@link #RETRY_BACKOFF_MAX_MS} unless it set a retry back-off of its own
     */
    public static <M extends Map<? super String, Object>> M withQuickReconnect(M client) {
        if (!client.containsKey(CommonClientConfigs.RECONNECT_BACKOFF_MS_CONFIG)) {
            client.putIfAbsent(CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, RECONNECT_BACKOFF_MAX_MS);
        }
        if (!client.containsKey(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG)) {
            client.putIfAbsent(CommonClientConfigs.RETRY_BACKOFF_MAX_MS_CONFIG, RETRY_BACKOFF_MAX_MS);
        }
        return client;
    }
}
