package io.github.flinkinfer.operators;

import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import org.apache.flink.util.OutputTag;

/** Side outputs every stage may write to. */
public final class Outputs {
    /** Inputs that failed, with a reason; every input ends in the results or here. */
    public static final OutputTag<ErrorRecord> ERRORS =
            new OutputTag<>("errors", org.apache.flink.api.common.typeinfo.TypeInformation.of(ErrorRecord.class));

    /** One {@link BatchMetrics} record per batch. */
    public static final OutputTag<BatchMetrics> BATCH_METRICS =
            new OutputTag<>("batch-metrics", org.apache.flink.api.common.typeinfo.TypeInformation.of(BatchMetrics.class));

    /**
     * Token windows of chunked documents that failed: not input records, so not errors rows; a
     * keyed step folds them into one {@code window_failed} row per document (docs/errors.md).
     */
    public static final OutputTag<WindowOutcome> WINDOW_FAILURES =
            new OutputTag<>("window-failures", org.apache.flink.api.common.typeinfo.TypeInformation.of(
                    WindowOutcome.class));

    private Outputs() {}
}
