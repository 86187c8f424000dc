package io.github.flinkinfer.operators.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import org.junit.jupiter.api.Test;

/** The metrics contract: what the job writes (Jackson, public fields) reads back field for field. */
class BatchMetricsReaderTest {

    @Test
    void aWrittenRecordReadsBackEqual() throws Exception {
        BatchMetrics m = new BatchMetrics();
        m.batchId = "r-1-0-3";
        m.runId = "r-1";
        m.subtask = 1;
        m.items = 7;
        m.realTokens = 91;
        m.paddedTokens = 112;
        m.paddingEfficiency = 91.0 / 112;
        m.totalMs = 12.5;
        m.startedAtMillis = 1_764_500_000_123L;
        m.subtaskOpenedAtMillis = 1_764_499_999_000L;
        m.modelLoadMs = 840;
        m.device = "cuda:1";
        m.qualityMetric = "cosine";
        m.qualityMin = 0.9993;
        m.currency = "EUR";

        BatchMetrics back = BatchMetricsReader.parse(new ObjectMapper().writeValueAsString(m));

        assertThat(back).usingRecursiveComparison().isEqualTo(m);
    }

    @Test
    void aFieldTheRecordDoesNotHaveFailsTheRead() {
        assertThatThrownBy(() -> BatchMetricsReader.parse("{\"items\":3,\"totalMillis\":12.5}"))
                .isInstanceOf(UnrecognizedPropertyException.class)
                .hasMessageContaining("totalMillis");
    }
}
