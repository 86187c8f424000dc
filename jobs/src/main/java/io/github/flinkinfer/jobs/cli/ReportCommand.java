package io.github.flinkinfer.jobs.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.io.RunOutput;
import io.github.flinkinfer.jobs.push.PushOptions;
import io.github.flinkinfer.jobs.push.RunMetrics;
import io.github.flinkinfer.jobs.report.RunReports;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.spec.RunDescription;
import io.github.flinkinfer.jobs.run.InferenceRun;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code report}: rebuilds {@code report-<run-id>.json/.html} and the console summary from the
 * ledger the job of any run wrote at its end (never its records), where it lies (a path or any Flink file
 * system: s3://, hdfs://, ...), and judges it as the driver would, from the spec its run-info
 * recorded as data (the quality floor, and a workload card's clauses with {@code
 * --fail-on-missed-contract}), never from its flags. For a run submitted detached, {@code --mark-success} then writes the success
 * marker the driver could not.
 *
 * <pre>{@code
 * flink-inference report --output s3://bucket/out --run-id 2026-11-30 --mark-success
 * }</pre>
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Rebuild a run's report (JSON, HTML, console) from its metrics and error records"
                + " and judge it (quality floor); --mark-success completes a detached run.")
public final class ReportCommand implements Callable<Integer> {
    @Option(names = {"-o", "--output"}, required = true,
            description = "The run's output directory (a path or any Flink file system URI).")
    String output;

    @Option(names = "--run-id", required = true, description = "The run id to report on.")
    String runId;

    @Option(names = "--mark-success",
            description = "Write _SUCCESS-<run-id> (the run's manifest) when the run's job wrote its"
                    + " ledger (it writes it only at its end), every file output's committers left"
                    + " their receipts, the accounting reconciles, the verdicts pass and no in-progress"
                    + " files remain (for runs submitted with flink run --detached).")
    boolean markSuccess;

    /** {@code --push-gateway URL}: push the run's numbers with the outcome judged here. */
    @Mixin PushOptions push = new PushOptions();

    @Override
    public Integer call() throws Exception {
        io.github.flinkinfer.jobs.run.FlinkDefaults.initializeFileSystems(); // as a run does
        RunOutput out = RunOutput.of(output, runId);
        RunSummary report = RunSummary.read(out); // refuses a run whose job wrote no ledger
        RunReports.write(report, out);
        report.print(System.out);
        System.out.println("  report: " + out.report("html"));
        RunMetrics.judgeAndPush(push.pushGateway, report, () -> judge(report, out));
        return 0;
    }

    /** The driver's verdicts again, from the spec the run recorded; then the marker when asked. */
    private void judge(RunSummary report, RunOutput out) throws java.io.IOException {
        RunDescription spec = report.spec;
        if (spec != null && spec.quality().sample() > 0) {
            RunDescription.Quality q = spec.quality();
            InferenceRun.judge(report, q.floor(), q.meanFloor(), q.reference(), out);
        }
        if (report.workloadVerdicts != null && spec != null && spec.failOnMissedContract()) {
            io.github.flinkinfer.jobs.report.WorkloadVerdicts.enforce(report.workloadVerdicts);
        }
        if (markSuccess) {
            int inProgress = out.inProgress().size();
            if (inProgress > 0) {
                throw new IllegalArgumentException(inProgress + " in-progress files of run '" + runId
                        + "' under " + output + ": the job is still running, or attempts of it were"
                        + " killed. Mark it only after `flink list` shows it FINISHED; then these files"
                        + " are abandoned and may be deleted");
            }
            refuseUncommitted(report, out);
            InferenceRun.commit(report, out, null, "report --mark-success");
            System.out.println("  marked: " + out.successMarker());
        }
    }

    /**
     * Refuses a run whose file outputs are not all committed yet: on an object store the job's
     * ledger can be there while its committers still commit, and uncommitted files are invisible.
     */
    private void refuseUncommitted(RunSummary report, RunOutput out) throws java.io.IOException {
        JsonNode sinks = report.runInfo == null ? null : report.runInfo.get("fileSinks");
        if (sinks == null || !sinks.isArray()) {
            return; // a run info of an older version: no receipts were written
        }
        var refs = java.util.Arrays.asList(new com.fasterxml.jackson.databind.ObjectMapper()
                .treeToValue(sinks, io.github.flinkinfer.jobs.io.CommitReceipts.FileSinkRef[].class));
        java.util.List<String> missing = io.github.flinkinfer.jobs.io.CommitReceipts.missing(out.root(), runId, refs);
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("Run '" + runId + "' under " + output + " is not committed yet: "
                    + String.join("; ", missing) + ". The job is still committing, or it failed after"
                    + " writing its ledger; mark it once `flink list` shows it FINISHED and its receipts"
                    + " (_committed-" + runId + ".*) are there");
        }
    }
}
