package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No secret is written into deploy/: every container command and args, job args, Flink option
 * and literal env value of every YAML file, and the cron line, hold no password, key or token,
 * only references to Secrets mounted as files or passed as environment variables.
 */
class ManifestSecretsTest {

    @Test
    void noDeployFileHoldsASecret() throws Exception {
        List<String> found = new ArrayList<>();
        List<String> kinds = new ArrayList<>();
        for (Path file : DeployFiles.yamlFiles()) {
            String name = DeployFiles.DEPLOY.relativize(file).toString();
            for (JsonNode doc : DeployFiles.documents(file)) {
                if (doc.has("kind")) {
                    kinds.add(doc.path("kind").asText());
                    SecretScan.inResource(doc).forEach(f -> found.add(name + " " + f));
                } else {
                    // A Flink configuration file (standalone/conf/config.yaml): key: value pairs.
                    doc.fields().forEachRemaining(e -> SecretScan.inWords(List.of(e.getKey() + "=" + e.getValue().asText()))
                            .forEach(f -> found.add(name + " " + f)));
                }
            }
        }
        for (String line : Files.readAllLines(DeployFiles.DEPLOY.resolve("schedule/crontab.txt"))) {
            if (!line.startsWith("#")) {
                SecretScan.inWords(List.of(line.trim().split("\\s+"))).forEach(f -> found.add("crontab.txt " + f));
            }
        }
        assertThat(kinds).containsExactlyInAnyOrder(
                "FlinkDeployment", "FlinkDeployment", "FlinkDeployment", "CronJob", "PodMonitor");
        assertThat(found).isEmpty();
    }

    @Test
    void theScanFindsSecretsWrittenInline() throws Exception {
        JsonNode leaky = new YAMLMapper().readTree("""
                kind: FlinkDeployment
                spec:
                  flinkConfiguration:
                    s3.secret-key: abc123
                    env.java.opts.all: -Dai.djl.offline=true -Dssl.keystore.password=hunter2
                  podTemplate:
                    spec:
                      containers:
                        - name: flink-main-container
                          env:
                            - {name: AWS_SECRET_ACCESS_KEY, value: abc123}
                            - {name: AWS_ACCESS_KEY_ID, valueFrom: {secretKeyRef: {name: s3, key: id}}}
                  job:
                    args:
                      - --kafka-property
                      - sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";
                      - --kafka-property
                      - sasl.jaas.config=${dir:/etc/kafka-secrets:sasl.jaas.config}
                      - --api-token
                      - t0k3n
                      - --s3-access-key=AKIAABCDEFGHIJKLMNOP
                      - --max-batch-tokens
                      - "32768"
                """);
        assertThat(SecretScan.inResource(leaky)).containsExactly(
                "/spec/job/args: inline secret in 'sasl.jaas.co…'",
                "/spec/job/args: value for sasl.jaas.config",
                "/spec/job/args: value for --api-token",
                "/spec/job/args: inline secret in '--s3-access-…'",
                "/spec/job/args: value for s3-access-key",
                "/spec/flinkConfiguration: value for s3.secret-key",
                "/spec/flinkConfiguration/env.java.opts.all: value for ssl.keystore.password",
                "/spec/podTemplate/spec/containers/flink-main-container/env/AWS_SECRET_ACCESS_KEY: literal value");
    }
}
