package io.github.flinkinfer.operators.metrics;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;

/**
 * Reads a line of {@code metrics/} (one {@link BatchMetrics} as JSON, public fields) back into
 * the record type, so readers use the same fields the operator writes instead of names in
 * strings. Strict: a field the record does not have fails the read rather than reading as 0.
 *
 * <pre>{@code
 * BatchMetrics m = BatchMetricsReader.parse(line);
 * double busyMs = m.totalMs;
 * }</pre>
 */
public final class BatchMetricsReader {
    private static final ObjectReader READER = JsonMapper.builder().build().readerFor(BatchMetrics.class);

    private BatchMetricsReader() {}

    /** One JSON line as written by the job's metrics sink. */
    public static BatchMetrics parse(String line) throws IOException {
        return READER.readValue(line);
    }
}
