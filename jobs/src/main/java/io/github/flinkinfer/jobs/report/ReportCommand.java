package io.github.flinkinfer.jobs.report;

import io.github.flinkinfer.jobs.RunOutput;
import io.github.flinkinfer.jobs.RunSummary;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code report}: rebuilds {@code report-<run-id>.json/.html} and the console summary from the
 * committed metrics and error records of any run, where they lie (a path or any Flink file
 * system: s3://, hdfs://, ...), for example one that ran on a cluster or was submitted detached.
 *
 * <pre>{@code
 * flink-inference report --output s3://bucket/out --run-id 2026-11-30
 * }</pre>
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Rebuild a run's report (JSON, HTML, console) from its metrics and error records.")
public final class ReportCommand implements Callable<Integer> {
    @Option(names = {"-o", "--output"}, required = true,
            description = "The run's output directory (a path or any Flink file system URI).")
    String output;

    @Option(names = "--run-id", required = true, description = "The run id to report on.")
    String runId;

    @Override
    public Integer call() throws Exception {
        RunOutput out = RunOutput.of(output, runId);
        RunSummary report = RunSummary.read(out, 0);
        if (report.batches == 0 && report.failed == 0) {
            throw new IllegalArgumentException("No committed records of run '" + runId + "' under " + output);
        }
        report.write(out);
        report.print(System.out);
        System.out.println("  report: " + out.report("html"));
        return 0;
    }
}
