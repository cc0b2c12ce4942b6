package dev.toolonce.sandbox.faults;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Fault configuration and counters of every tool. Kept in memory on purpose: faults are a test
 * knob set by whoever drives a run, not state that should survive a restart (a restarted
 * sandbox starting without faults is the safe default).
 */
public final class FaultRegistry {

    private final Map<String, ToolFaults> tools = new LinkedHashMap<>();

    /** @param toolNames the tools faults can be injected into */
    public FaultRegistry(List<String> toolNames) {
        toolNames.forEach(name -> tools.put(name, new ToolFaults()));
    }

    Optional<ToolFaults> tool(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    ToolFaults require(String name) {
        return tool(name).orElseThrow(() -> new IllegalArgumentException("unknown tool " + name));
    }

    Map<String, ToolFaults> all() {
        return tools;
    }
}
