package dev.toolonce.executor.adapter;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads a tool's response body with a bound: the first {@code limit} bytes are kept, the rest is only
 * hashed (SHA-256) and counted, and reading stops for good at {@code hashLimit} bytes. Memory never
 * exceeds the limit, so a hostile or broken tool cannot exhaust the executor, and the status of an
 * oversized answer is still classified. One instance per response.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<BoundedBody.Body> {

    /**
     * What was read.
     *
     * @param text      the kept bytes as UTF-8 (a character cut at the limit becomes U+FFFD)
     * @param bytes     bytes seen in all
     * @param truncated whether more than the kept bytes arrived
     * @param complete  whether the body was read to its end (false: reading stopped at the hash limit)
     * @param sha256    hex SHA-256 of every byte seen (the whole body when {@code complete})
     */
    record Body(String text, long bytes, boolean truncated, boolean complete, String sha256) {
    }

    private final int limit;
    private final long hashLimit;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final MessageDigest digest;
    private final CompletableFuture<Body> result = new CompletableFuture<>();
    private Flow.Subscription subscription;
    private long seen;

    /** @param limit bytes kept; @param hashLimit bytes read at most (≥ limit) */
    BoundedBody(int limit, long hashLimit) {
        this.limit = limit;
        this.hashLimit = Math.max(limit, hashLimit);
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** A handler for {@code HttpClient.send}: every response gets its own bounded reader. */
    static HttpResponse.BodyHandler<Body> handler(int limit, long hashLimit) {
        return info -> new BoundedBody(limit, hashLimit);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        this.subscription = s;
        s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        for (ByteBuffer b : items) {
            int n = b.remaining();
            int keep = (int) Math.min(n, Math.max(0, limit - kept.size()));
            if (keep > 0) {
                byte[] chunk = new byte[keep];
                b.duplicate().get(chunk);
                kept.write(chunk, 0, keep);
            }
            digest.update(b);
            seen += n;
        }
        if (seen >= hashLimit) {
            subscription.cancel();
            result.complete(body(false));
            return;
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable t) {
        result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        result.complete(body(true));
    }

    @Override
    public CompletionStage<Body> getBody() {
        return result;
    }

    private Body body(boolean complete) {
        return new Body(kept.toString(StandardCharsets.UTF_8), seen, seen > kept.size(), complete,
                HexFormat.of().formatHex(digest.digest()));
    }
}
