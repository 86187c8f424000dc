package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.report.Timeline;
import io.github.flinkinfer.jobs.run.EmbeddedEnvironment;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs on the embedded cluster, as {@code java -jar} and {@code mvn -Prun} do (no test cluster
 * here): the cluster comes up while the driver checks the run, the subtasks take the sessions the
 * driver prepared meanwhile, and a job that needs more slots than the early cluster has still runs.
 */
class EmbeddedRunITCase {
    @TempDir
    Path tmp;

    @Test
    void theRunTakesTheEarlyClusterAndThePreparedSessions() throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), Corpus.sample(120));
        RunOptions o = Jobs.options("--input", input.toString(), "--output", tmp.resolve("out").toString(),
                "--run-id", "early", "--model", "all-minilm-l6-v2-q", "--parallelism", "2");
        StreamExecutionEnvironment env = o.environment();
        assertThat(env).isInstanceOf(EmbeddedEnvironment.class);

        RunSummary s = EmbeddingJob.run(o, env);

        assertThat(s.succeeded).isEqualTo(120);
        assertThat(s.clusterStart.taken()).isTrue();
        assertThat(s.clusterStart.seconds()).isPositive();
        List<Timeline.Lane> lanes = s.series.timeline.subtasks;
        // one session for both subtasks (a single-threaded CPU session is shared): prepared by the
        // driver, taken by the first load, reused by the other
        assertThat(lanes).hasSize(2).filteredOn(l -> l.sessionPrepared).hasSize(1);
        // the cold start split: inputs reach inference after the read and keep-first's id pass
        assertThat(lanes).allSatisfy(l -> assertThat(l.firstInputAt).isNotNull().isPositive()
                .isLessThanOrEqualTo(l.firstBatchStart));
        assertThat(s.series.timeline.firstInputSeconds).isPositive()
                .isLessThanOrEqualTo(s.series.timeline.firstBatchSeconds);
    }

    @Test
    void aJobWiderThanTheEarlyClusterRunsOnAClusterFlinkStarts() throws Exception {
        EmbeddedEnvironment env = EmbeddedEnvironment.create(new Configuration());
        env.prestart(1);
        env.setParallelism(2);
        List<Integer> out = env.fromData(1, 2, 3, 4, 5, 6).map(i -> i * 10).executeAndCollect(10);

        assertThat(out).containsExactlyInAnyOrder(10, 20, 30, 40, 50, 60);
        assertThat(env.clusterStart().taken()).isFalse();
        // the next job of this environment runs on a cluster of its own, as with createLocalEnvironment
        assertThat(env.fromData(7).executeAndCollect(1)).containsExactly(7);
    }

    @Test
    void aRunRefusedBeforeSubmissionShutsTheEarlyClusterDown() throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), Corpus.sample(3));
        RunOptions o = Jobs.options("--input", input.toString(), "--output", tmp.resolve("out").toString(),
                "--model", "no-such-model");
        EmbeddedEnvironment env = (EmbeddedEnvironment) o.environment();

        assertThatThrownBy(() -> EmbeddingJob.run(o, env)).hasMessageContaining("no-such-model");
        assertThat(env.clusterStart()).isNotNull();
        assertThat(env.clusterStart().taken()).isFalse();
    }
}
