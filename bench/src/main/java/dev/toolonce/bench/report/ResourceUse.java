package dev.toolonce.bench.report;

/**
 * CPU and memory of one component while the burst ran.
 *
 * @param component          {@code postgres} (postmaster and every backend), {@code postgres walsenders} (the part of
 *                           {@code postgres} that decodes WAL for the relays, also counted in it), {@code kafka} or a
 *                           service name
 * @param processes          processes counted at the end of the burst
 * @param cpuSeconds         user + system CPU time spent during the burst; null when the process exited or was
 *                           restarted meanwhile (its ticks are gone with it)
 * @param cpuSecondsPer1000  {@code cpuSeconds} per 1,000 answered calls; null with {@code cpuSeconds}
 * @param peakRssMiB         largest resident set sampled once a second (for postgres: the sum over its
 *                           processes, which counts shared buffers once per process that touched them)
 * @param hwmMiB             {@code VmHWM} at the end: the peak resident set over the process's whole life
 *                           (summed for postgres); null when the process is gone
 * @param note               why figures are missing; null when all were measured
 */
public record ResourceUse(String component, int processes, Double cpuSeconds, Double cpuSecondsPer1000,
                          double peakRssMiB, Double hwmMiB, String note) {

    /** Whether this row is a part of another row (the walsenders of {@code postgres}), not a component of its own. */
    public boolean isPart() {
        return component.equals("postgres walsenders");
    }

    /**
     * CPU-seconds per 1,000 calls (= CPU-ms per call) summed over whole components (a part is inside its component);
     * null when {@code uses} is null or empty or a component was not measured.
     */
    public static Double totalPerCall(java.util.List<ResourceUse> uses) {
        if (uses == null || uses.isEmpty()) {
            return null;
        }
        double sum = 0;
        for (ResourceUse u : uses) {
            if (u.isPart()) {
                continue;
            }
            if (u.cpuSecondsPer1000() == null) {
                return null;
            }
            sum += u.cpuSecondsPer1000();
        }
        return sum;
    }

    /** A component whose process exited or was restarted during the burst: only the memory sampled before counts. */
    public static ResourceUse gone(String component, double peakRssMiB) {
        return new ResourceUse(component, 0, null, null, peakRssMiB, null, "exited or restarted during the burst");
    }
}
