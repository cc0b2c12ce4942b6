package dev.toolonce.security.web;

import java.util.NoSuchElementException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Errors of ToolOnce's own controllers (and only theirs: an application's controllers keep their handling) as RFC 9457
 * problem details: a bad request 400, something that does not exist — or belongs to another tenant — 404, a refused
 * move (someone else won, a step already sent, a stale approval) 409; Spring MVC's own errors (an unreadable body, a
 * missing parameter, a wrong method) likewise.
 */
@RestControllerAdvice(basePackages = "dev.toolonce")
public class ProblemAdvice extends ResponseEntityExceptionHandler {

    /**
     * The status of a refusal, the one mapping of every door: a bad request 400, an unknown (or another tenant's)
     * thing 404, a refused change 409; anything else is not a refusal (null).
     */
    public static HttpStatus statusOf(RuntimeException e) {
        return e instanceof IllegalArgumentException ? HttpStatus.BAD_REQUEST
                : e instanceof NoSuchElementException ? HttpStatus.NOT_FOUND
                : e instanceof IllegalStateException ? HttpStatus.CONFLICT : null;
    }

    @ExceptionHandler({IllegalArgumentException.class, NoSuchElementException.class, IllegalStateException.class})
    public ProblemDetail refused(RuntimeException e) {
        return ProblemDetail.forStatusAndDetail(statusOf(e), String.valueOf(e.getMessage()));
    }
}
