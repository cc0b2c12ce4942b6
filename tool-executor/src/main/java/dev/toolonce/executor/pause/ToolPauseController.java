package dev.toolonce.executor.pause;

import dev.toolonce.executor.execution.Dispatcher;
import dev.toolonce.executor.ledger.PausedToolStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** The operator API behind {@code ./toolonce tools paused | resume <tool>}. */
@RestController
public class ToolPauseController {
    private final PausedToolStore pauses;
    private final Dispatcher dispatcher;

    public ToolPauseController(PausedToolStore pauses, Dispatcher dispatcher) {
        this.pauses = pauses;
        this.dispatcher = dispatcher;
    }

    @GetMapping("/tools/paused")
    public List<Map<String, Object>> paused() {
        return pauses.paused();
    }

    /** Resumes a paused tool: its waiting calls are claimed again at once. Idempotent. */
    @PostMapping("/tools/{tool}/resume")
    public Map<String, Object> resume(@PathVariable String tool) {
        boolean resumed = pauses.resume(tool);
        dispatcher.wake();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tool", tool);
        m.put("resumed", resumed);
        return m;
    }
}
