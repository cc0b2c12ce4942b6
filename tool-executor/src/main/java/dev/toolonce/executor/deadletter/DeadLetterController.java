package dev.toolonce.executor.deadletter;

import dev.toolonce.security.TenantScope;
import dev.toolonce.security.web.ProblemAdvice;
import dev.toolonce.security.web.Limits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Operator API v1, dead letters (issue 23; docs/operations.md §4): the dead-letter topics and what they hold, one dead
 * letter with its original record, and the replay of one or a selection back to the topic each came from
 * ({@link DeadLetters} says why a replay is safe). Reads need the role viewer, a replay the role operator and a reason;
 * another tenant's dead letter is 404, as a missing one.
 */
@RestController
public class DeadLetterController {
    private static final int MOST_PER_REPLAY = 100;
    private final DeadLetters letters;

    public DeadLetterController(DeadLetters letters) {
        this.letters = letters;
    }

    /** A replay: the dead letters' ids ({@code <topic>/<partition>/<offset>}) and why they are sent again. */
    public record Replay(List<String> ids, String reason) {
    }

    @GetMapping("/api/v1/dead-letters")
    @PreAuthorize("hasRole('VIEWER')")
    public List<Map<String, Object>> topics(Authentication who) {
        return letters.topics(TenantScope.of(who));
    }

    @GetMapping("/api/v1/dead-letters/{topic}")
    @PreAuthorize("hasRole('VIEWER')")
    public DeadLetters.Page list(@PathVariable String topic, @RequestParam(required = false) String code,
                                 @RequestParam(required = false) String cursor,
                                 @RequestParam(defaultValue = "50") int limit, Authentication who) {
        return letters.page(topic, TenantScope.of(who), code, cursor, Limits.page(limit));
    }

    @GetMapping("/api/v1/dead-letters/{topic}/{partition}/{offset}")
    @PreAuthorize("hasRole('VIEWER')")
    public Map<String, Object> show(@PathVariable String topic, @PathVariable String partition,
                                    @PathVariable String offset, Authentication who) {
        return letters.show(topic + "/" + partition + "/" + offset, TenantScope.of(who));
    }

    /**
     * Replays each named dead letter on its own: the answer lists, per id, where its copy went or why it was refused
     * ({@code status} 404 unknown or another tenant's, 409 not replayable, 500 failed); nothing is sent for a refused
     * one. A replay that was sent but whose audit row could not be written says {@code "audited": false}.
     */
    @PostMapping("/api/v1/dead-letters/replay")
    @PreAuthorize("hasRole('OPERATOR')")
    public Map<String, Object> replay(@RequestBody Replay r, Authentication who) {
        if (r == null || r.reason() == null || r.reason().isBlank()) {
            throw new IllegalArgumentException("reason is required: say why these records are sent again");
        }
        if (r.ids() == null || r.ids().isEmpty() || r.ids().size() > MOST_PER_REPLAY) {
            throw new IllegalArgumentException("ids names 1 to " + MOST_PER_REPLAY + " dead letters");
        }
        TenantScope scope = TenantScope.of(who);
        List<Map<String, Object>> out = new ArrayList<>();
        int replayed = 0;
        for (String id : r.ids()) {
            try {
                out.add(letters.replay(id, scope, who.getName(), r.reason()));
                replayed++;
            } catch (RuntimeException e) { // each on its own: the answer says what became of every id
                HttpStatus refusal = ProblemAdvice.statusOf(e);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", id);
                m.put("status", refusal == null ? 500 : refusal.value());
                m.put("refused", refusal == null ? "failed, nothing sent: " + e : e.getMessage());
                out.add(m);
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("replayed", replayed);
        m.put("refused", r.ids().size() - replayed);
        m.put("results", out);
        return m;
    }
}
