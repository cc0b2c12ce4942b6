package dev.toolonce.bench.report;

/**
 * CPU and memory of one component while the burst ran.
 *
 * @param component          {@code postgres} (postmaster and every backend), {@code kafka} or a service name
 * @param processes          processes counted at the end of the burst
 * @param cpuSeconds         user + system CPU time spent during the burst
 * @param cpuSecondsPer1000  {@code cpuSeconds} per 1,000 answered calls
 * @param peakRssMiB         largest resident set sampled once a second (for postgres: the sum over its
 *                           processes, which counts shared buffers once per process that touched them)
 * @param hwmMiB             {@code VmHWM} at the end: the peak resident set over the process's whole life
 *                           (summed for postgres)
 */
public record ResourceUse(String component, int processes, double cpuSeconds, double cpuSecondsPer1000,
                          double peakRssMiB, double hwmMiB) {
}
