package dev.toolonce.bench.report;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

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
     * CPU-ms per call (= CPU-seconds per 1,000 calls) summed over whole components; null when {@code uses} is null or
     * empty or a component was not measured.
     */
    public static Double totalPerCall(List<ResourceUse> uses) {
        return uses == null ? null : total(uses, ResourceUse::isPart, ResourceUse::cpuSecondsPer1000);
    }

    /**
     * The one rule every total of CPU per call follows, over rows of any form (this record, a report's JSON): a part
     * (the walsenders) is inside its component and not added again, and a total with a component unmeasured is no total.
     *
     * @return the sum over whole components, or null when there is no row or a whole component has no figure
     */
    public static <T> Double total(Iterable<T> rows, Predicate<T> isPart, Function<T, Double> perCall) {
        double sum = 0;
        boolean any = false;
        for (T row : rows) {
            if (isPart.test(row)) {
                continue;
            }
            Double v = perCall.apply(row);
            if (v == null) {
                return null;
            }
            sum += v;
            any = true;
        }
        return any ? sum : null;
    }

    /** A component whose process exited or was restarted during the burst: only the memory sampled before counts. */
    public static ResourceUse gone(String component, double peakRssMiB) {
        return new ResourceUse(component, 0, null, null, peakRssMiB, null, "exited or restarted during the burst");
    }
}
