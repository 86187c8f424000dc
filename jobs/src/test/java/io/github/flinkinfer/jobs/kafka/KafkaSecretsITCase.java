package io.github.flinkinfer.jobs.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.spec.Secrets;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A canary password passed as Kafka client properties (a JAAS config and a truststore password)
 * reaches no log file of the test run: a file appender at INFO records the whole job (our
 * settings line, Kafka's client configs, Flink's), and neither it nor any other test log holds it.
 */
class KafkaSecretsITCase extends ClusterTestBase {
    static final String CANARY = "canary-pw-7f3a9c";

    @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

    @Test
    void canaryPasswordIsInNoLogFile() throws Exception {
        KAFKA.createTopic("secret-corpus", 1);
        KAFKA.produce("secret-corpus", KafkaJobs.corpus("doc", 20));
        Path log = tmp.resolve("logs/kafka-secrets.log");
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        Configuration config = ctx.getConfiguration();
        FileAppender file = FileAppender.newBuilder().setName("kafka-secrets").withFileName(log.toString())
                .setLayout(PatternLayout.newBuilder().withPattern("%d %p %t %c - %m%n%throwable").build())
                .setConfiguration(config).build();
        file.start();
        LoggerConfig root = config.getRootLogger();
        Level before = root.getLevel();
        root.addAppender(file, Level.INFO, null);
        root.setLevel(Level.INFO);
        ctx.updateLoggers();
        try {
            MiniClusters.embed(Jobs.options(KafkaJobs.args(KAFKA.bootstrapServers(),
                    "--kafka-topic", "secret-corpus", "--output", tmp.resolve("out").toString(),
                    "--run-id", "secrets", "--kafka-output-topic", "secret-embeddings",
                    "--kafka-property", "ssl.truststore.password=" + CANARY,
                    "--kafka-property", "sasl.jaas.config=org.apache.kafka.common.security.plain."
                            + "PlainLoginModule required username=\"u\" password=\"" + CANARY + "\";")
                    .toArray(String[]::new)));
        } finally {
            root.removeAppender("kafka-secrets");
            root.setLevel(before);
            ctx.updateLoggers();
            file.stop();
        }
        assertThat(KAFKA.committedKeys("secret-embeddings")).hasSize(20);

        String text = Files.readString(log);
        assertThat(text).contains("ssl.truststore.password=" + Secrets.REDACTED)
                .contains("sasl.jaas.config=" + Secrets.REDACTED)
                .contains("ProducerConfig values") // Kafka's own config dump was captured too
                .doesNotContain(CANARY);
        List<Path> logs = new ArrayList<>(List.of(log));
        Path testLogs = Path.of("target/test-logs");
        if (Files.isDirectory(testLogs)) {
            try (Stream<Path> files = Files.walk(testLogs)) {
                files.filter(Files::isRegularFile).forEach(logs::add);
            }
        }
        for (Path f : logs) {
            assertThat(Files.readString(f)).as("log file %s", f).doesNotContain(CANARY);
        }
    }
}
