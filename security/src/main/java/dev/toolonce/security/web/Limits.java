package dev.toolonce.security.web;

/** Bounds of what one request may ask for, so that no request costs more than a page. */
public final class Limits {
    /** The most rows one list request returns. */
    public static final int MAX_PAGE = 500;

    private Limits() {
    }

    /**
     * @return {@code limit} when it lies in 1..{@value #MAX_PAGE}
     * @throws IllegalArgumentException (400) naming the bounds otherwise
     */
    public static int page(int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_PAGE + " (was " + limit + ")");
        }
        return limit;
    }
}
