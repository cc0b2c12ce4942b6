package dev.toolonce.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.bench.report.StatementUse;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatementCountsTest {

    @Test
    void statementsAndTransactionsAreCountedPerAnsweredCallMostFrequentFirst() {
        var before = new StatementCounts.Snapshot(Map.of("a", 100L, "b", 7L, "evicted", 50L),
                Map.of("a", 1_000L, "b", 0L, "evicted", 50L),
                Map.of("a", "INSERT  INTO inbox\n VALUES ($1)", "b", "COMMIT", "evicted", "SELECT 1"), 1_000, 3);
        var after = new StatementCounts.Snapshot(Map.of("a", 300L, "b", 407L, "evicted", 20L, "new", 100L),
                Map.of("a", 7_000L, "b", 0L, "evicted", 20L, "new", 250L),
                Map.of("a", "INSERT  INTO inbox\n VALUES ($1)", "b", "COMMIT", "evicted", "SELECT 1", "new", "UPDATE x"),
                1_300, 4);

        StatementUse use = StatementCounts.between(before, after, 100);

        // a: 200, b: 400, new: 100; 'evicted' fell from 50 to 20 (evicted and counted again): 0, never negative
        assertThat(use.statementsPerCall()).isEqualTo(7.0);
        assertThat(use.commitsPerCall()).isEqualTo(3.0);
        assertThat(use.rollbacksPerCall()).isEqualTo(0.01);
        assertThat(use.top()).extracting(StatementUse.Top::query)
                .containsExactly("COMMIT", "INSERT INTO inbox VALUES ($1)", "UPDATE x");
        assertThat(use.top()).extracting(StatementUse.Top::perCall).containsExactly(4.0, 2.0, 1.0);
        // rows per execution, the batch size: a ran 200 times for 6,000 rows, 'new' 100 times for 250
        assertThat(use.top()).extracting(StatementUse.Top::rowsPerRun).containsExactly(0.0, 30.0, 2.5);
        assertThat(use.note()).isNull();
    }

    @Test
    void withoutTheExtensionOrAnAnswerNothingIsGuessed() {
        var s = new StatementCounts.Snapshot(Map.of(), Map.of(), Map.of(), 0, 0);
        assertThat(StatementCounts.between(null, s, 10).statementsPerCall()).isNull();
        assertThat(StatementCounts.between(s, null, 10).note()).contains("pg_stat_statements");
        assertThat(StatementCounts.between(s, s, 0).note()).isEqualTo("no call was answered");
    }

    @Test
    void longQueriesAreCutAndWhitespaceCollapsed() {
        assertThat(StatementCounts.shorten("SELECT\n\t  1")).isEqualTo("SELECT 1");
        assertThat(StatementCounts.shorten("x".repeat(200))).hasSize(120).endsWith("...");
        assertThat(StatementCounts.shorten(null)).isEmpty();
    }
}
