package dev.toolonce.agent.call;

import dev.toolonce.schemas.EventCodec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads the executor's catalogue ({@code GET /executor/catalogue}, role viewer) for the framework adapters. */
public final class Catalogue {
    private static final Duration RETRY = Duration.ofSeconds(2);
    /** One client for every read: a client per read left one selector thread each behind a start that waited. */
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Logger log = LoggerFactory.getLogger(Catalogue.class);
    private Catalogue() {
    }

    /**
     * @param executor the executor's base URL, e.g. {@code http://127.0.0.1:18081}
     * @param token    a bearer token of role viewer
     * @param only     {@code tool/operation} entries to keep; empty for every operation
     * @throws Unavailable when the executor cannot be reached or answers 502, 503 or 504 (it may answer later)
     * @throws IllegalStateException when the executor answers another status than 200, naming it
     * @throws IllegalArgumentException when an entry of {@code only} is not in the catalogue
     */
    public static List<CatalogueTool> fetch(URI executor, String token, Collection<String> only) {
        HttpRequest request = HttpRequest.newBuilder(executor.resolve("/executor/catalogue"))
                .timeout(Duration.ofSeconds(10)).header("Authorization", "Bearer " + token).GET().build();
        HttpResponse<byte[]> response;
        try {
            response = HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new Unavailable("cannot read the catalogue at " + request.uri() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the catalogue at " + request.uri(), e);
        }
        if (response.statusCode() == 502 || response.statusCode() == 503 || response.statusCode() == 504) {
            throw new Unavailable("the catalogue at " + request.uri() + " answered " + response.statusCode(), null);
        }
        if (response.statusCode() != 200) {
            throw new IllegalStateException("the catalogue at " + request.uri() + " answered " + response.statusCode()
                    + (response.statusCode() == 401 || response.statusCode() == 403 ? " (needs a viewer token)" : ""));
        }
        return select(CatalogueTool.parse(new EventCodec().parse(response.body())), only);
    }

    /**
     * {@link #fetch(URI, String, Collection)}, asked again every 2 s while the executor cannot be reached or answers
     * 502–504, until {@code wait} has passed: an application, like the MCP gateway, may start before the executor it
     * reads (an orchestrator starts them side by side). A refusal (401, 403) or another status fails at once.
     */
    public static List<CatalogueTool> fetch(URI executor, String token, Collection<String> only, Duration wait)
            throws InterruptedException {
        return whenAvailable(() -> fetch(executor, token, only), wait, RETRY);
    }

    /** {@code read()}, again every {@code pause} (at most until the deadline) while it throws {@link Unavailable}. */
    static <T> T whenAvailable(Supplier<T> read, Duration wait, Duration pause) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            try {
                return read.get();
            } catch (Unavailable e) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw e;
                }
                long sleep = Math.min(pause.toMillis(), Math.max(1, left / 1_000_000));
                log.warn("{}; trying again in {} ms (waiting up to {} for the executor)", e.getMessage(), sleep, wait);
                Thread.sleep(sleep);
            }
        }
    }

    /** The executor is not there yet, or not ready: the same request may succeed later (a refusal never will). */
    public static final class Unavailable extends IllegalStateException {
        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The operations named in {@code only} ({@code tool/operation}), or all of them when it is empty. */
    public static List<CatalogueTool> select(List<CatalogueTool> all, Collection<String> only) {
        if (only == null || only.isEmpty()) {
            return all;
        }
        for (String wanted : only) {
            if (all.stream().noneMatch(t -> (t.tool() + "/" + t.operation()).equals(wanted))) {
                throw new IllegalArgumentException("no operation " + wanted + " in the catalogue (it has "
                        + all.stream().map(t -> t.tool() + "/" + t.operation()).toList() + ")");
            }
        }
        return all.stream().filter(t -> only.contains(t.tool() + "/" + t.operation())).toList();
    }
}
