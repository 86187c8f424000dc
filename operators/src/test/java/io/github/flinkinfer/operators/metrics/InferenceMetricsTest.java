package io.github.flinkinfer.operators.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.metrics.Counter;
import org.junit.jupiter.api.Test;

class InferenceMetricsTest {
    private final RecordingMetricGroup group = new RecordingMetricGroup();
    private final InferenceMetrics metrics =
            new InferenceMetrics(group, "m", List.of("out_of_memory", "inference_failed"), () -> 1500, () -> 7);

    @Test
    void everyCounterExistsAtZeroBeforeTheFirstBatch() {
        assertThat(group.metrics.values().stream().filter(m -> m instanceof Counter)
                .mapToLong(m -> ((Counter) m).getCount()).sum()).isZero();
        assertThat(group.metrics.keySet()).contains(
                "model_items_total{model=m}", "model_real_tokens_total{model=m}",
                "model_padded_tokens_total{model=m}", "model_batches_total{model=m}",
                "model_retries_total{model=m}", "model_reason_errors_total{model=m,reason=out_of_memory}",
                "model_reason_errors_total{model=m,reason=inference_failed}",
                "model_batch_latency_millis_count{model=m}", "model_batch_latency_millis_sum{model=m}",
                "model_batch_latency_millis_le_bucket{le=1,model=m}",
                "model_batch_latency_millis_le_bucket{le=Inf,model=m}",
                "model_busy_fraction{model=m}", "model_cost_busy_total{model=m}");
        assertThat(group.metrics.keySet().stream().filter(k -> k.contains("_le_bucket")))
                .hasSize(LatencyBuckets.BOUNDS_MILLIS.length + 1);
    }

    @Test
    void latencyBucketsAreCumulativeWithCountAndSum() {
        for (double ms : new double[] {0.4, 3, 70, 100, 99_999}) {
            metrics.onBatch(2, 10, 16, 0, 1, 2, 3, ms, 0.001);
        }
        assertThat(bucket("1")).isEqualTo(1);
        assertThat(bucket("2")).isEqualTo(1);
        assertThat(bucket("5")).isEqualTo(2);
        assertThat(bucket("100")).as("a bound is inclusive").isEqualTo(4);
        assertThat(bucket("60000")).isEqualTo(4);
        assertThat(bucket("Inf")).isEqualTo(5);
        assertThat(group.count("model_batch_latency_millis_count{model=m}")).isEqualTo(5);
        assertThat(group.count("model_batch_latency_millis_sum{model=m}")).isEqualTo(100_172); // 100172.4
        assertThat(group.count("model_items_total{model=m}")).isEqualTo(10);
        assertThat(group.count("model_batches_total{model=m}")).isEqualTo(5);
        assertThat(group.count("model_padded_tokens_total{model=m}")).isEqualTo(80);
        assertThat(group.count("model_inference_millis_total{model=m}")).isEqualTo(15);
    }

    @Test
    void errorsCountByReasonAndAnUnforeseenReasonGetsItsOwnCounter() {
        metrics.onError("out_of_memory");
        metrics.onError("out_of_memory");
        metrics.onError("something_new");
        assertThat(group.count("model_reason_errors_total{model=m,reason=out_of_memory}")).isEqualTo(2);
        assertThat(group.count("model_reason_errors_total{model=m,reason=inference_failed}")).isZero();
        assertThat(group.count("model_reason_errors_total{model=m,reason=something_new}")).isEqualTo(1);
    }

    @Test
    void fractionalMillisecondsAddUpInsteadOfRoundingAway() {
        MillisCounter c = new MillisCounter();
        for (int i = 0; i < 1000; i++) {
            c.add(0.3);
        }
        assertThat(c.getCount()).isEqualTo(300);
    }

    private long bucket(String le) {
        return group.count("model_batch_latency_millis_le_bucket{le=" + le + ",model=m}");
    }
}
