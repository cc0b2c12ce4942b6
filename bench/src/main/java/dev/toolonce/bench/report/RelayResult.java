package dev.toolonce.bench.report;

import java.util.List;

/**
 * The relay alone.
 *
 * @param topic   the bench topic the rows named
 * @param runs    one per offered rate
 * @param backlog the drain; null when not run
 */
public record RelayResult(String topic, List<RelayRunResult> runs, BacklogResult backlog) {
}
