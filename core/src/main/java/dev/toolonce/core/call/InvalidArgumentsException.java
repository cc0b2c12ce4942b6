package dev.toolonce.core.call;

/** An intent that cannot be executed as sent; answered with {@code REJECTED INVALID_ARGUMENTS}. */
public final class InvalidArgumentsException extends IllegalArgumentException {
    private final String field;

    /** @param field the offending field, as a JSON path-ish name; @param problem what is wrong with it */
    public InvalidArgumentsException(String field, String problem) {
        super(field + " " + problem);
        this.field = field;
    }

    /** The offending field. */
    public String field() {
        return field;
    }
}
