package dev.toolonce.sandbox.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes each exchange to its endpoint, turns {@link HttpProblem}s into JSON errors and writes
 * the response, or closes the connection without one when the endpoint dropped it.
 */
public final class Router implements HttpHandler {

    private static final Logger LOG = LoggerFactory.getLogger(Router.class);

    private final List<Route> routes;

    private Router(List<Route> routes) {
        this.routes = List.copyOf(routes);
    }

    /** @return a builder for the route table */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Response response = dispatch(read(exchange));
            if (!response.isDropped()) {
                write(exchange, response);
            }
            // A dropped response: closing the exchange before any header was sent closes the
            // connection, so the client sees it end after the effect was applied.
        }
    }

    Response dispatch(Request request) {
        boolean pathKnown = false;
        for (Route route : routes) {
            var params = route.match(request.path());
            if (params.isEmpty()) {
                continue;
            }
            pathKnown = true;
            if (route.method().equals(request.method())) {
                return invoke(route.endpoint(), request.withPathParams(params.get()));
            }
        }
        return pathKnown
                ? Response.error(405, "method_not_allowed", request.method() + " " + request.path())
                : Response.error(404, "not_found", null);
    }

    private static Response invoke(Endpoint endpoint, Request request) {
        try {
            return endpoint.handle(request);
        } catch (HttpProblem problem) {
            return problem.toResponse();
        } catch (RuntimeException e) {
            LOG.error("{} {} failed", request.method(), request.path(), e);
            return Response.error(500, "internal_error", e.getClass().getSimpleName());
        }
    }

    private static Request read(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        var uri = exchange.getRequestURI();
        return new Request(exchange.getRequestMethod(), uri.getPath(), Map.of(),
                Request.parseQuery(uri.getRawQuery()), exchange.getRequestHeaders(), body);
    }

    private static void write(HttpExchange exchange, Response response) throws IOException {
        byte[] bytes = Json.bytes(response.body());
        var headers = exchange.getResponseHeaders();
        headers.set("Content-Type", "application/json");
        response.headers().forEach(headers::set);
        exchange.sendResponseHeaders(response.status(), bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** Collects routes in the order they are tried. */
    public static final class Builder {

        private final List<Route> routes = new ArrayList<>();

        public Builder get(String template, Endpoint endpoint) {
            return add("GET", template, endpoint);
        }

        public Builder post(String template, Endpoint endpoint) {
            return add("POST", template, endpoint);
        }

        public Builder put(String template, Endpoint endpoint) {
            return add("PUT", template, endpoint);
        }

        public Builder delete(String template, Endpoint endpoint) {
            return add("DELETE", template, endpoint);
        }

        private Builder add(String method, String template, Endpoint endpoint) {
            routes.add(Route.of(method, template, endpoint));
            return this;
        }

        public Router build() {
            return new Router(routes);
        }
    }
}
