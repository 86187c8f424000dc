package io.github.flinkinfer.jobs.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.io.RunOutput;
import io.github.flinkinfer.jobs.spec.RunDescription;
import io.github.flinkinfer.jobs.testutils.NoPublicMutableFields;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's summary is computed once: it and every type it is made of have no public field that can
 * be reassigned, its collections refuse changes, and the driver's later measurement is a copy.
 */
class RunSummaryImmutableTest {
    /** The job's accounting the summary was read from: JSON-ignored, not part of the description. */
    private static final String LEDGER = "io.github.flinkinfer.operators.ledger.";

    @TempDir Path out;

    @Test
    void noPublicFieldCanBeReassigned() {
        assertThat(NoPublicMutableFields.inTypes(RunSummary.class))
                .filteredOn(problem -> !problem.startsWith(LEDGER))
                .isEmpty();
        assertThat(NoPublicMutableFields.reachable(RunSummary.class))
                .as("the types it is made of are walked")
                .contains(RunSummary.Cost.class, Timeline.Lane.class, RunBound.class, RunDescription.class);
    }

    @Test
    void itsCollectionsRefuseChangesAndTheDriversMeasurementIsACopy() throws Exception {
        RunSummaryCostTest.ledger(out, List.of(RunSummaryCostTest.batch(0, 0, 10, 0, 500, 300),
                RunSummaryCostTest.batch(1, 1, 10, 0, 500, 0)), List.of(), 3.0);
        RunSummary s = RunSummary.read(RunOutput.of(out.toString(), "c"));

        assertThatThrownBy(() -> s.errorsByReason.put("x", 1L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.batchLatencyMs.clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.series.throughput.clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.series.timeline.subtasks.get(0).batches.clear())
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.bound.hostLoads().clear()).isInstanceOf(UnsupportedOperationException.class);

        RunSummary measured = s.withAfterJob(new DriverWork.Measured(0.5, 1024, 1 << 20));
        assertThat(s.afterJob).isNull();
        assertThat(measured.afterJob.seconds()).isEqualTo(0.5);
        ObjectMapper json = new ObjectMapper();
        assertThat(json.writeValueAsString(measured)).as("the measurement is not in the report")
                .isEqualTo(json.writeValueAsString(s));
    }
}
