package dev.toolonce.sandbox.http;

/**
 * A request the sandbox refuses, answered as {@code {"error":…,"message":…}} with the given
 * status. Thrown inside a ledger transaction it also rolls that transaction back, so a refused
 * request leaves no trace in the ledger.
 */
public final class HttpProblem extends RuntimeException {

    private final int status;
    private final String error;
    private final String detail;

    private HttpProblem(int status, String error, String detail) {
        super(status + " " + error + (detail == null ? "" : ": " + detail), null, false, false);
        this.status = status;
        this.error = error;
        this.detail = detail;
    }

    /** A 400 whose {@code error} names the offending field or header. */
    public static HttpProblem badRequest(String errorNamingTheField) {
        return new HttpProblem(400, errorNamingTheField, null);
    }

    /** A 404 {@code {"error":"not_found"}}. */
    public static HttpProblem notFound() {
        return new HttpProblem(404, "not_found", null);
    }

    /** Any other refusal; {@code detail} may be null. */
    public static HttpProblem of(int status, String error, String detail) {
        return new HttpProblem(status, error, detail);
    }

    Response toResponse() {
        return Response.error(status, error, detail);
    }
}
