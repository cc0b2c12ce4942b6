package dev.toolonce.sandbox.http;

/** Handles one routed request; may throw {@link HttpProblem} to refuse it. */
@FunctionalInterface
public interface Endpoint {

    /**
     * @param request the request, body already read; never null
     * @return the response to send, or {@link Response#dropped()} to close the connection
     *         without one; never null
     */
    Response handle(Request request);
}
