package dev.toolonce.testsupport;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * podman's Docker-compatible API for Testcontainers ({@link ContainerStack}): checks the environment, and starts
 * {@code podman system service} on {@code DOCKER_HOST}'s socket when nothing answers there.
 *
 * <p>The service is started with the containers.conf that deploy/images/lib.sh writes (runc; ulimits no higher than
 * the host's) and an idle timeout of {@value #IDLE_SECONDS} s, so that it ends by itself after the last test JVM;
 * while this JVM runs, a daemon thread pings it every {@value #PING_SECONDS} s, so that it still answers when
 * Testcontainers removes the containers in its shutdown hook.
 */
final class PodmanService {

  static final int IDLE_SECONDS = 60;
  static final int PING_SECONDS = 15;
  private static final Logger log = LoggerFactory.getLogger(PodmanService.class);
  private static ScheduledExecutorService pinger;

  private PodmanService() {}

  /**
   * @throws IllegalStateException if {@code DOCKER_HOST} is not a unix socket, Ryuk is not disabled, or the service
   *     does not answer within 30 s of being started (the message holds the service's log)
   */
  static synchronized void ensureAnswering(Path repoRoot) {
    Path socket = socketOfEnvironment();
    if (!answers(socket)) {
      start(repoRoot, socket);
    }
    if (pinger == null) {
      pinger = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "podman-service-ping");
        t.setDaemon(true);
        return t;
      });
      pinger.scheduleWithFixedDelay(() -> answers(socket), PING_SECONDS, PING_SECONDS, TimeUnit.SECONDS);
    }
  }

  static Path socketOfEnvironment() {
    String host = System.getenv("DOCKER_HOST");
    if (host == null || !host.startsWith("unix://")) {
      throw new IllegalStateException("DOCKER_HOST must name podman's API socket (unix:///...), but is " + host
          + ": run Maven with -Pcontainers, which sets it (property toolonce.docker.host)");
    }
    if (!"true".equals(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) {
      throw new IllegalStateException("TESTCONTAINERS_RYUK_DISABLED must be true: Ryuk's image cannot be pulled here"
          + " (-Pcontainers sets it)");
    }
    return Path.of(host.substring("unix://".length()));
  }

  private static void start(Path repoRoot, Path socket) {
    Path work = Path.of(System.getProperty("user.dir"), "target", "podman").toAbsolutePath();
    Path logFile = work.resolve("service.log");
    Process service;
    try {
      Files.createDirectories(work);
      Files.createDirectories(socket.getParent());
      Files.deleteIfExists(socket);   // a socket nobody answers on: a service that ended
      service = new ProcessBuilder("bash", "-c",
          "source \"$1\" && containers_conf \"$2\" && exec podman system service --time=\"$3\" \"unix://$4\"",
          "podman-service", repoRoot.resolve("deploy/images/lib.sh").toString(), work.toString(),
          Integer.toString(IDLE_SECONDS), socket.toString())
          .redirectErrorStream(true)
          .redirectOutput(logFile.toFile())
          .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start 'podman system service' (is podman installed? apt-get install"
          + " podman runc)", e);
    }
    log.info("Started podman system service on {} (idle timeout {} s, log {})", socket, IDLE_SECONDS, logFile);
    try {
      Awaitility.await("podman's API on " + socket).atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100)).until(() -> answers(socket));
    } catch (ConditionTimeoutException e) {
      service.destroyForcibly();   // not left running, unanswering, on a socket the next start would find taken
      throw new IllegalStateException("podman system service did not answer on " + socket + " within 30 s; its log:\n"
          + LogFiles.tail(logFile, 40), e);
    }
  }

  /** GET /_ping on the socket: true when it answers 200 OK within 5 s (a unix channel has no read timeout). */
  static boolean answers(Path socket) {
    if (!Files.exists(socket)) {
      return false;
    }
    try {
      return CompletableFuture.supplyAsync(() -> ping(socket)).get(5, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static boolean ping(Path socket) {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      channel.write(ByteBuffer.wrap("GET /_ping HTTP/1.0\r\nHost: podman\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
      ByteBuffer reply = ByteBuffer.allocate(512);
      channel.read(reply);
      String head = new String(reply.array(), 0, reply.position(), StandardCharsets.US_ASCII);
      return head.startsWith("HTTP/1.") && head.contains(" 200 ");
    } catch (IOException e) {
      return false;
    }
  }
}
