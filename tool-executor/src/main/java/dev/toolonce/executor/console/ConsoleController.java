package dev.toolonce.executor.console;

import dev.toolonce.executor.config.OperatorProperties;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.util.UriUtils;

/**
 * The operator console (issue 23; docs/operations.md §4): a page and its scripts under {@code /console/} (static
 * resources, served without a credential: they hold no data), which call API v1 with the token the operator gives.
 * Tasks live on the agent side, so the console's task pages reach the agent's task API through
 * {@code /console/tasks-api/…}: the request goes on to {@code toolonce.operator.tasks-url} with the operator's own
 * {@code Authorization}, and the agent decides, as it would for the CLI. This executor adds no authority of its own
 * (the request is forwarded only for a principal it authenticated, and only to the configured URL's
 * {@code /api/v1/tasks} paths).
 */
@Controller
public class ConsoleController {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private final URI tasksUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    public ConsoleController(OperatorProperties p) {
        this.tasksUrl = p.tasksUrl();
    }

    @GetMapping("/console")
    public String console() {
        return "redirect:/console/";
    }

    @GetMapping("/console/")
    public String index() {
        return "forward:/console/index.html";
    }

    /** The agent's task API, for the console: {@code /console/tasks-api/tasks…} → {@code <tasks-url>/api/v1/tasks…}. */
    @GetMapping("/console/tasks-api/**")
    @PreAuthorize("hasRole('VIEWER')")
    @ResponseBody
    public ResponseEntity<byte[]> readTasks(HttpServletRequest request) {
        return forward(request, null);
    }

    /**
     * A change of a task (approve, change arguments, resume), forwarded as the operator asked it: the agent checks the
     * role and tenant again; this executor refuses a viewer first, as it would any state change.
     */
    @PostMapping("/console/tasks-api/**")
    @PreAuthorize("hasRole('OPERATOR')")
    @ResponseBody
    public ResponseEntity<byte[]> changeTask(HttpServletRequest request, @RequestBody(required = false) byte[] body) {
        return forward(request, body == null ? new byte[0] : body);
    }

    /**
     * {@code <tasks-url>/api/v1/tasks/<segments>?<query>}: each segment of the request's path after
     * {@code /console/tasks-api/} decoded once and encoded again, so that no segment is {@code .} or {@code ..} or holds
     * a slash, whatever its encoding; the first must be {@code tasks}.
     */
    URI target(String requestUri, String queryString) {
        String rest = requestUri.substring("/console/tasks-api/".length());
        StringBuilder path = new StringBuilder();
        String[] segments = rest.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = UriUtils.decode(segments[i], StandardCharsets.UTF_8);
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || segment.contains("/")
                    || (i == 0 && !segment.equals("tasks")) || segments.length > 6) {
                throw new IllegalArgumentException("not a task API path: " + rest);
            }
            path.append('/').append(UriUtils.encodePathSegment(segment, StandardCharsets.UTF_8));
        }
        String query = queryString == null ? "" : "?" + queryString;
        return URI.create(tasksUrl.toString().replaceAll("/+$", "") + "/api/v1" + path + query);
    }

    private ResponseEntity<byte[]> forward(HttpServletRequest request, byte[] body) {
        if (tasksUrl == null) {
            throw new IllegalStateException("this executor knows no task API: set toolonce.operator.tasks-url "
                    + "(TOOLONCE_TASKS_URL) to the agent side's URL");
        }
        HttpRequest.Builder out = HttpRequest.newBuilder(target(request.getRequestURI(), request.getQueryString())).timeout(TIMEOUT);
        String auth = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (auth != null) {
            out.header(HttpHeaders.AUTHORIZATION, auth);
        }
        if (body != null) {
            out.header(HttpHeaders.CONTENT_TYPE, "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body));
        }
        try {
            HttpResponse<byte[]> r = http.send(out.build(), HttpResponse.BodyHandlers.ofByteArray());
            // JSON or a problem, whatever the other side says: this executor serves no other content from there
            boolean problem = r.headers().firstValue(HttpHeaders.CONTENT_TYPE).orElse("")
                    .startsWith("application/problem+json");
            return ResponseEntity.status(r.statusCode()).header(HttpHeaders.CONTENT_TYPE,
                    problem ? "application/problem+json" : "application/json").body(r.body());
        } catch (IOException e) {
            throw new ResponseStatusException(HttpStatus.BAD_GATEWAY, "the task API at the configured URL did not "
                    + "answer");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
