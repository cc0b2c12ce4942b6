package dev.toolonce.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {
    private static final String BODY = """
            # HELP toolonce_intake_total Intents by disposition
            # TYPE toolonce_intake_total counter
            toolonce_intake_total{disposition="PLANNED",application="x"} 42.0
            toolonce_intake_total{disposition="REPLAYED",application="x"} 3.0
            toolonce_reviews_total{action="arrived in review"} 1.0 1700000000000
            toolonce_relay_slot_retained_wal_bytes{slot="s"} NaN
            jvm_threads_live_threads 31.0
            """;

    @Test
    void samplesAreReadWithTheirLabelsAndSummedBySelection() {
        assertThat(PrometheusText.parse(BODY)).hasSize(5);
        assertThat(PrometheusText.sum(BODY, "toolonce_intake_total", Map.of())).isEqualTo(45.0);
        assertThat(PrometheusText.sum(BODY, "toolonce_intake_total", Map.of("disposition", "REPLAYED"))).isEqualTo(3.0);
        assertThat(PrometheusText.sum(BODY, "toolonce_reviews_total", Map.of("action", "arrived in review"))).isEqualTo(1.0);
        assertThat(PrometheusText.samples(BODY, "toolonce_relay_slot_retained_wal_bytes", Map.of()).get(0).value()).isNaN();
        assertThat(PrometheusText.sum(BODY, "absent_total", Map.of())).isZero();
    }

    @Test
    void aSeriesIsWrittenWithItsLabelsInNameOrder() {
        PrometheusText.Sample s = PrometheusText.parse(BODY).get(0);
        assertThat(s.series()).isEqualTo("toolonce_intake_total{application=\"x\",disposition=\"PLANNED\"}");
        assertThat(PrometheusText.name(s.series())).isEqualTo("toolonce_intake_total");
        assertThat(PrometheusText.parse("jvm_threads_live_threads 31.0").get(0).series()).isEqualTo("jvm_threads_live_threads");
    }

    @Test
    void aLineThatIsNoSampleIsRefused() {
        assertThatThrownBy(() -> PrometheusText.parse("not a sample")).isInstanceOf(IllegalArgumentException.class);
    }
}
