package io.github.flinkinfer.jobs.report;

import io.github.flinkinfer.jobs.RunSummary;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code report}: rebuilds {@code report-<run-id>.json/.html} and the console summary from the
 * committed metrics and error records of any run (for example one copied back from a cluster).
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Rebuild a run's report (JSON, HTML, console) from its metrics and error records.")
public final class ReportCommand implements Callable<Integer> {
    @Option(names = {"-o", "--output"}, required = true, description = "The run's output directory.")
    Path output;

    @Option(names = "--run-id", required = true, description = "The run id to report on.")
    String runId;

    @Override
    public Integer call() throws Exception {
        RunSummary report = RunSummary.read(output, runId, 0);
        if (report.batches == 0 && report.failed == 0) {
            throw new IllegalArgumentException("No committed records of run '" + runId + "' under " + output);
        }
        report.write(output);
        report.print(System.out);
        System.out.println("  report: " + output.resolve("report-" + runId + ".html"));
        return 0;
    }
}
