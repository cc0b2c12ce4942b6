package dev.toolonce.testsupport;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;

/** A minimal service for {@link TestStackIT}: answers 200 at /ready on the port given as argument. */
public final class HttpOkMain {
  public static void main(String[] args) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 0);
    server.createContext("/ready", exchange -> {
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
    System.out.println("HttpOkMain listening on " + args[0] + ", FLAVOR=" + System.getenv("FLAVOR"));
  }
}
