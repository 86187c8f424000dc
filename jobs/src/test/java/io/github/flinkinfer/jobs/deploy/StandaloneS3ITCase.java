package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.ModelDirectories;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.jobs.testutils.S3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failure drill on object storage: the multi-process standalone cluster with Flink's S3 file
 * system under {@code plugins/s3-fs-hadoop/} as in a distribution, configured by {@code -D s3.…},
 * the thin job jar submitted with {@code flink run}, the model card and its files, the corpus
 * and every output on {@code s3://} of a local S3 endpoint, and one TaskManager {@code kill
 * -9}ed mid-run: every id exactly once in the bucket and the run's success marker.
 */
class StandaloneS3ITCase {
    @RegisterExtension static final S3Server S3 = new S3Server();

    @TempDir Path tmp;

    @Test
    void jobOnS3SurvivesATaskManagerKilledMidJob() throws Exception {
        Set<String> inputIds = Corpus.sample(Integer.MAX_VALUE).keySet();
        S3.put("corpus/wordnet-sample.jsonl", Corpus.SAMPLE);
        S3.putDirectory("models/mini-q", ModelDirectories.copyOfBuiltIn("all-minilm-l6-v2-q", tmp.resolve("mini-q")));
        Path client = tmp.resolve("client.out");
        List<String> args = new ArrayList<>(List.of("-n", "2", "--s3"));
        S3.configuration().toMap().forEach((key, value) -> args.addAll(List.of("-D", key + "=" + value)));
        try (StandaloneCluster cluster = StandaloneCluster.start(tmp.resolve("cluster"), args.toArray(String[]::new))) {
            Process job = cluster.submit(client,
                    "embed", "--input", S3.uri("corpus/wordnet-sample.jsonl"), "--output", S3.uri("out"),
                    "--run-id", "x", "--parallelism", "2", "--model", S3.uri("models/mini-q/card.json"),
                    "--restart-attempts", "5");

            // Mid-job: a TaskManager runs inference. Part files on S3 are multipart uploads, not
            // listable objects, until the job commits them at its end.
            cluster.awaitMidJob(job, client, 180, "no model loaded",
                    () -> !cluster.processesLogging("loaded model").isEmpty());
            List<String> running = cluster.processesLogging("loaded model");
            assertThat(S3.keys("out/")).as("no part file committed before the kill")
                    .noneMatch(k -> k.contains("/part-"));
            cluster.killHard(running.get(0));
            cluster.startTaskManager();

            cluster.assertJobRecovered(job, client, 240);
        }

        Path out = S3.copyTo("out/", tmp.resolve("out"));
        Outputs.assertEveryIdOnce(out, inputIds);
        assertThat(S3.keys("out/")).contains("out/_SUCCESS-x");
    }
}
