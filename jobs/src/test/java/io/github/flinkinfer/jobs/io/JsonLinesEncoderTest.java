package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.metrics.BatchMetrics;
import io.github.flinkinfer.operators.metrics.BatchMetricsReader;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The metrics sink's encoder and the typed reader agree: one line per record, every field back. */
class JsonLinesEncoderTest {

    @Test
    void metricsLinesReadBackIntoTheRecordType() throws Exception {
        BatchMetrics a = new BatchMetrics();
        a.batchId = "r-1-0-0";
        a.items = 4;
        a.totalMs = 3.25;
        a.modelLoadMs = 510;
        BatchMetrics b = new BatchMetrics();
        b.batchId = "r-1-0-1";
        b.failedItems = 1;
        b.qualityMetric = "label_agreement";

        JsonLinesEncoder<BatchMetrics> encoder = new JsonLinesEncoder<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        encoder.encode(a, out);
        encoder.encode(b, out);
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");

        assertThat(lines).hasSize(2);
        assertThat(BatchMetricsReader.parse(lines[0])).usingRecursiveComparison().isEqualTo(a);
        assertThat(BatchMetricsReader.parse(lines[1])).usingRecursiveComparison().isEqualTo(b);
    }
}
