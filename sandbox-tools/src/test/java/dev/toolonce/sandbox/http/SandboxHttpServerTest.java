package dev.toolonce.sandbox.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SandboxHttpServerTest {

    @Test
    void asksTheJdkForTcpNoDelay() {
        // the test JVM sets nothing: only the server's class, loaded at the latest here, asks the JDK for TCP_NODELAY
        new SandboxHttpServer("127.0.0.1", 0, 1, Router.builder().build());
        assertThat(System.getProperty("sun.net.httpserver.nodelay")).isEqualTo("true");
    }
}
