package io.github.flinkinfer.jobs.index;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** deploy/schedule: the CronJob and the cron line run an incremental embed the job accepts. */
class ScheduleManifestTest {
    static final Path DIR = Corpus.locate("deploy/schedule/README.md").getParent();

    @Test
    void cronJobSubmitsAnIncrementalRunWithArgumentsThatParse() throws Exception {
        JsonNode cron = new YAMLMapper().readTree(DIR.resolve("embed-cronjob.yaml").toFile());
        assertThat(cron.get("kind").asText()).isEqualTo("CronJob");
        assertThat(cron.at("/spec/concurrencyPolicy").asText()).isEqualTo("Forbid");
        JsonNode container = cron.at("/spec/jobTemplate/spec/template/spec/containers/0");
        assertThat(container.at("/command/0").asText()).isEqualTo("/opt/flink/bin/flink");
        List<String> args = new ArrayList<>();
        container.get("args").forEach(a -> args.add(a.asText()));
        assertThat(args.subList(0, 3)).containsExactly("run", "-m", "flink-session-rest:8081");
        // --run-id $(RUN_ID): the Job's name (deploy/CronJobManifestTest), one run id per schedule.
        List<String> embed = args.subList(args.indexOf("embed") + 1, args.size()).stream()
                .map(a -> a.replace("$(RUN_ID)", "embed-wordnet-nightly-29412345")).toList();
        assertThat(checkEmbedArgs(embed).runId).isEqualTo("embed-wordnet-nightly-29412345");
    }

    @Test
    void cronLineSubmitsAnIncrementalRunWithArgumentsThatParse() throws Exception {
        String line = Files.readAllLines(DIR.resolve("crontab.txt")).stream()
                .filter(l -> !l.startsWith("#") && !l.isBlank()).findFirst().orElseThrow();
        assertThat(line).contains("deploy/standalone/submit.sh").contains("flock -n");
        assertThat(Files.exists(DIR.resolveSibling("standalone/submit.sh"))).isTrue();
        List<String> words = Arrays.asList(line.substring(0, line.indexOf(">>")).trim().split("\\s+"));
        RunOptions o = checkEmbedArgs(words.subList(words.indexOf("embed") + 1, words.size()));
        assertThat(o.runId).as("a timestamp run id per run").isNull();
    }

    static RunOptions checkEmbedArgs(List<String> args) {
        RunOptions o = Jobs.options(args.toArray(new String[0]));
        o.validate();
        assertThat(o.index.previousOutput).isEqualTo(o.output);
        assertThat(o.outputFormats).contains(io.github.flinkinfer.jobs.spec.OutputFormat.PARQUET);
        return o;
    }
}
