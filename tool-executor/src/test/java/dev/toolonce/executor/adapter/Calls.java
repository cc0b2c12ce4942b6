package dev.toolonce.executor.adapter;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.CallState;
import dev.toolonce.core.call.ToolCall;
import dev.toolonce.core.hash.ProviderKey;
import dev.toolonce.core.hash.RequestHash;
import dev.toolonce.executor.config.ExecutorProperties;
import dev.toolonce.executor.config.ToolProperties;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Test data: calls, and tool configurations bound the way Spring binds the YAML. */
final class Calls {
    private Calls() {
    }

    static ToolCall call(String tool, String operation, String key, String argumentsJson) {
        return call("acme", tool, operation, key, argumentsJson);
    }

    static ToolCall call(String tenant, String tool, String operation, String key, String argumentsJson) {
        CallScope scope = new CallScope(tenant, tool, operation, key);
        return new ToolCall(7, scope, ProviderKey.of(scope), new RequestHash("sha256:" + "a".repeat(64)),
                argumentsJson, CallState.STARTED, 3, 1, 1, null, null, null, null, null, null, "m-1", null, null,
                ToolCall.Facts.planned(operation));
    }

    static ToolCall committed(ToolCall call, String externalId) {
        return new ToolCall(call.id(), call.scope(), call.providerKey(), call.requestHash(), call.argumentsJson(),
                CallState.COMMITTED, call.fence(), call.callVersion(), call.attempts(), externalId, null, null, null,
                null, null, call.intentMessageId(), call.traceparent(), null, call.facts());
    }

    /** Binds {@code toolonce.executor.tools.<tool>.*} from flat properties (keys relative to the tool). */
    static ToolProperties tool(String tool, Map<String, String> properties) {
        Map<String, String> full = new java.util.HashMap<>();
        properties.forEach((k, v) -> full.put("toolonce.executor.tools." + tool + "." + k, v));
        return new Binder(new MapConfigurationPropertySource(full))
                .bind("toolonce.executor", ExecutorProperties.class).get().tools().get(tool);
    }
}
