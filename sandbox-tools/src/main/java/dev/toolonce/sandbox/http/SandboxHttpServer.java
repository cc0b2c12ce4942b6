package dev.toolonce.sandbox.http;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The JDK HTTP server of the sandbox. As a {@link SmartLifecycle} it starts after every bean,
 * Flyway's migration included, is ready, and stops first when the context closes.
 *
 * <p>Its sockets send without Nagle's delay ({@value #NODELAY} unless set otherwise): the JDK server writes a
 * response's headers and its body as two segments, and with Nagle the body can wait for the client's delayed
 * acknowledgement of the headers, about 40 ms: on a dev stack at 100 calls/s through the agent outbox that was most of
 * a call's latency (docs/performance.md, fifth round; clean clones did not show it) — the sandbox measuring itself,
 * not ToolOnce. The JDK reads the property once, when its first server is made in the JVM.
 */
public final class SandboxHttpServer implements SmartLifecycle {
    static final String NODELAY = "sun.net.httpserver.nodelay";

    static {
        if (System.getProperty(NODELAY) == null) {
            System.setProperty(NODELAY, "true");
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(SandboxHttpServer.class);
    /** Small stacks keep the resident memory of up to {@code threads} handler threads low. */
    private static final long THREAD_STACK_BYTES = 512 * 1024;
    private static final int BACKLOG = 128;

    private final String bindAddress;
    private final int port;
    private final int threads;
    private final Router router;
    private volatile HttpServer server;
    private volatile ExecutorService pool;

    public SandboxHttpServer(String bindAddress, int port, int threads, Router router) {
        this.bindAddress = bindAddress;
        this.port = port;
        this.threads = threads;
        this.router = router;
    }

    @Override
    public void start() {
        try {
            HttpServer created = HttpServer.create(new InetSocketAddress(bindAddress, port), BACKLOG);
            created.createContext("/", router);
            pool = Executors.newFixedThreadPool(threads, handlerThreads());
            created.setExecutor(pool);
            created.start();
            server = created;
            LOG.info("sandbox tools listening on http://{}:{}", bindAddress, boundPort());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the sandbox to " + bindAddress + ":" + port
                    + " (set SANDBOX_PORT to a free port)", e);
        }
    }

    @Override
    public void stop() {
        HttpServer running = server;
        if (running != null) {
            running.stop(0);
            pool.shutdownNow();
            server = null;
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    /** @return the port actually bound (useful with port 0) */
    public int boundPort() {
        HttpServer running = server;
        if (running == null) {
            throw new IllegalStateException("the sandbox HTTP server is not running");
        }
        return running.getAddress().getPort();
    }

    private static java.util.concurrent.ThreadFactory handlerThreads() {
        AtomicInteger counter = new AtomicInteger();
        return task -> new Thread(null, task, "sandbox-http-" + counter.incrementAndGet(), THREAD_STACK_BYTES);
    }
}
