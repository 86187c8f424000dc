package io.github.flinkinfer.jobs.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.flinkinfer.jobs.io.RunOutput;
import java.io.IOException;

/**
 * A run's report as the driver and {@code report} both make it: the summary of the job's ledger
 * with a workload card's verdicts, and its files {@code report-<run-id>.json} and the
 * self-contained {@code report-<run-id>.html}.
 *
 * <pre>{@code
 * RunSummary s = RunReports.read(out);
 * RunReports.write(s, out);
 * }</pre>
 */
public final class RunReports {
    private RunReports() {}

    /** The run's summary ({@link RunSummary#read}) judged against its workload card, if any. */
    public static RunSummary read(RunOutput out) throws IOException {
        RunSummary s = RunSummary.read(out);
        if (s.workload != null) {
            long submitted = s.runInfo == null ? 0 : s.runInfo.path("submittedAtMillis").asLong(0);
            s.workloadVerdicts = WorkloadVerdicts.judge(s.workload, s, submitted);
        }
        return s;
    }

    /** Writes {@code report-<run-id>.json} and {@code report-<run-id>.html}. */
    public static void write(RunSummary s, RunOutput out) throws IOException {
        out.write(out.report("json"), new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s));
        out.write(out.report("html"), ReportHtml.render(s));
    }
}
