package dev.toolonce.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.bench.stats.LatencySummary;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
    private static final LatencySummary L = new LatencySummary(10, 1, 2, 3, 4);
    private static final List<double[]> CDF = List.of(new double[] {0.5, 0.5}, new double[] {40, 1});

    @Test
    void pageIsSelfContainedWithThreeWellFormedCharts() throws Exception {
        BenchReport report = new BenchReport("r1", "now", "s", 2, null, new CommitResult(16, 1, 100, 100, L),
                new RelayResult("t", List.of(new RelayRunResult(10, 1, 10, 10, 10, 0, 10, L, L, CDF)),
                        new BacklogResult(10, 1, 1, 10, 10, 0)),
                new BurstResult(10, 10, 0, 0, Map.of("COMMITTED", 10L), 1, 10, L, CDF,
                        List.of(new ResourceUse("kafka", 1, 1.0, 100.0, 300, 310.0, null), ResourceUse.gone("outbox-relay", 200)), L,
                        new StatementUse(4.5, 0.5, 0.0, List.of(new StatementUse.Top("COMMIT", 0.5, 0.0)), null)),
                new LoadResult(List.of(new LoadStepResult(250, 1, 250, 250, 250, 0, 0, 250, L, CDF, null, List.of(), null)), null, null),
                new AwaitableResult(20, 200, 5.0, L, 0));

        String html = HtmlReport.html(report);

        assertThat(html).doesNotContain("<script").doesNotContain("<link").doesNotContain("src=");
        Matcher svg = Pattern.compile("<svg.*?</svg>", Pattern.DOTALL).matcher(html);
        int charts = 0;
        while (svg.find()) {
            DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(svg.group().getBytes(StandardCharsets.UTF_8)));
            charts++;
        }
        assertThat(charts).isEqualTo(3);
        assertThat(html).contains("<h2>SQL during the burst</h2>")
                .contains("4.50 statements, 0.50 commits, 0.000 rollbacks").contains("   0.500       0.0  COMMIT");
        List<String[]> rows = new TableReport(report).rows();
        assertThat(rows).hasSize(8);
        assertThat(rows.get(5)[1]).isEqualTo("relay's commit→ack meanwhile");
        assertThat(rows.get(7)[0]).isEqualTo("await");
        assertThat(rows.get(7)[1]).isEqualTo("20 calls one at a time, call()→answer (poll 200 ms)");
    }

    @Test
    void axesEndOnRoundNumbers() {
        assertThat(SvgChart.niceCeil(236)).isEqualTo(500);
        assertThat(SvgChart.niceCeil(0.7)).isEqualTo(1);
        assertThat(SvgChart.niceCeil(2000)).isEqualTo(2000);
    }
}
