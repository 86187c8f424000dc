package io.github.flinkinfer.jobs.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code plan}'s options: --input as before (now with the cluster sizing), --workload instead of it, never both. */
class PlanCommandTest {
    @TempDir Path dir;

    @Test
    void planInputStillSweepsAndForecasts() {
        Path corpus = Corpus.writeJsonl(dir.resolve("c.jsonl"), Corpus.sample(60));
        PrintStream before = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            code = new CommandLine(new PlanCommand(RunOptions::embed)).execute("--input", corpus.toString(), "--sample", "24",
                    "--model", "all-minilm-l6-v2-q", "--parallelism", "2");
        } finally {
            System.setOut(before);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(text).isZero();
        assertThat(text).contains("60 records; sampled 24", "token-length histogram", "chosen: --bucket-edges",
                "forecast: 60 records", "cluster sizing at --parallelism 2 (embed's job graph):",
                "per TaskManager of 2 slot(s)");
    }

    @Test
    void needsAnInputOrAWorkloadAndRefusesWhatTheCardStates() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new PlanCommand(RunOptions::embed)).setErr(new PrintWriter(err, true));

        assertThat(cli.execute()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("Missing required option: '--input' (or --workload)");

        assertThat(cli.execute("--workload", "card.yaml", "--model", "all-minilm-l6-v2"))
                .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("drop --model");
    }
}
