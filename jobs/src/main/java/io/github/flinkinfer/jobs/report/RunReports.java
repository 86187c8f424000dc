package io.github.flinkinfer.jobs.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.flinkinfer.jobs.io.RunOutput;
import java.io.IOException;

/**
 * A run's report files as the driver and {@code report} both write them from its summary (the
 * job's ledger with a workload card's verdicts, {@link RunSummary#read}): {@code
 * report-<run-id>.json} and the self-contained {@code report-<run-id>.html}.
 *
 * <pre>{@code
 * RunSummary s = RunSummary.read(out);
 * RunReports.write(s, out);
 * }</pre>
 */
public final class RunReports {
    private RunReports() {}

    /** Writes {@code report-<run-id>.json} and {@code report-<run-id>.html}. */
    public static void write(RunSummary s, RunOutput out) throws IOException {
        out.write(out.report("json"), new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s));
        out.write(out.report("html"), ReportHtml.render(s));
    }
}
