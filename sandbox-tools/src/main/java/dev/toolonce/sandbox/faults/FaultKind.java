package dev.toolonce.sandbox.faults;

/** The kinds of injected faults, named as {@code GET /_faults} reports them. */
public enum FaultKind {
    LATENCY("latency"),
    HTTP_5XX("http5xx"),
    HTTP_429("http429"),
    DROP_RESPONSE("dropResponse"),
    STALL("stall"),
    /** A status answered by {@code failStatus}/{@code failStatusNext}, without applying. */
    STATUS("status"),
    /** A status answered by {@code failStatus} after the effect was applied ({@code failStatusAfterApply}). */
    STATUS_AFTER_APPLY("statusAfterApply"),
    /** A request or lookup answered 401 because it carried the {@code refusedAuthorization} value. */
    REFUSED_AUTHORIZATION("refusedAuthorization"),
    /** A lookup answered by {@code lookupFailStatus}. */
    LOOKUP_STATUS("lookupStatus"),
    /** A drop caused by {@code failNext}; such a drop also counts as {@link #DROP_RESPONSE}. */
    FAIL_NEXT("failNext");

    private final String jsonName;

    FaultKind(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }
}
