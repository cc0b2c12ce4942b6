package dev.toolonce.executor.review;

import dev.toolonce.core.call.CallScope;
import dev.toolonce.core.call.ToolCall;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The operator API behind {@code ./toolonce review list | resolve}. */
@RestController
public class ReviewController {
    private final ReviewService reviews;

    public ReviewController(ReviewService reviews) {
        this.reviews = reviews;
    }

    /** A resolution request: {@code scope} is the record key {@code tenant/tool/operation/key}. */
    public record Resolve(String scope, String action, String externalId, String operator, String note) {
    }

    @GetMapping("/review")
    public List<Map<String, Object>> list(@RequestParam(defaultValue = "100") int limit) {
        return reviews.pending(limit).stream().map(ReviewController::view).toList();
    }

    @PostMapping("/review/resolve")
    public Map<String, Object> resolve(@RequestBody Resolve r) {
        ReviewService.Action action = ReviewService.Action.valueOf(String.valueOf(r.action()).toUpperCase());
        String operator = r.operator() == null || r.operator().isBlank() ? "operator" : r.operator();
        return view(reviews.resolve(parse(r.scope()), action, r.externalId(), operator, r.note()));
    }

    @ExceptionHandler(IllegalArgumentException.class)
    public ResponseEntity<Map<String, String>> badRequest(IllegalArgumentException e) {
        return ResponseEntity.badRequest().body(Map.of("error", String.valueOf(e.getMessage())));
    }

    @ExceptionHandler(IllegalStateException.class)
    public ResponseEntity<Map<String, String>> conflict(IllegalStateException e) {
        return ResponseEntity.status(409).body(Map.of("error", String.valueOf(e.getMessage())));
    }

    /** Splits a record key: the first three segments cannot contain '/', the key is the rest. */
    static CallScope parse(String scope) {
        String[] parts = scope == null ? new String[0] : scope.split("/", 4);
        if (parts.length != 4) {
            throw new IllegalArgumentException("scope must be tenant/tool/operation/idempotencyKey, was " + scope);
        }
        return new CallScope(parts[0], parts[1], parts[2], parts[3]);
    }

    private static Map<String, Object> view(ToolCall c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scope", c.scope().recordKey());
        m.put("state", c.state().name());
        m.put("attempts", c.attempts());
        m.put("fence", c.fence());
        m.put("externalObjectId", c.externalObjectId());
        m.put("errorCode", c.errorCode());
        m.put("errorMessage", c.errorMessage());
        return m;
    }
}
