package io.github.flinkinfer.jobs.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.io.RunOutput;
import io.github.flinkinfer.jobs.spec.RunDescription;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's summary is computed once: it and every type it is made of have no public field that can
 * be reassigned, its collections refuse changes, and the driver's later measurement is a copy.
 */
class RunSummaryImmutableTest {
    /** RunSummary and the types its fields hold (the ledger apart: the job's accounting, JSON-ignored). */
    static final List<Class<?>> SUMMARY_TYPES = List.of(RunSummary.class, RunSummary.Cost.class,
            RunSummary.Quality.class, RunSummary.Series.class, RunSummary.ClusterStart.class, Timeline.class,
            Timeline.Lane.class, RunBound.class, WorkloadVerdicts.Actuals.class, DriverWork.Measured.class,
            RunDescription.class, RunDescription.Model.class, RunDescription.Execution.class,
            RunDescription.Inference.class, RunDescription.Quality.class);

    @TempDir Path out;

    @Test
    void noPublicFieldCanBeReassigned() {
        for (Class<?> type : SUMMARY_TYPES) {
            List<String> mutable = Arrays.stream(type.getDeclaredFields())
                    .filter(f -> Modifier.isPublic(f.getModifiers()) && !Modifier.isFinal(f.getModifiers()))
                    .map(Field::getName).toList();
            assertThat(mutable).as("public non-final fields of " + type.getSimpleName()).isEmpty();
        }
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
