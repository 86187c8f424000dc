package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.spec.Secrets;
import io.github.flinkinfer.jobs.testutils.Jobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka login of deploy/kubernetes/kafka-backfill comes from a mounted Secret: the
 * manifest's own {@code --kafka-property} arguments, parsed by the job, give every Kafka client
 * (consumer, producer, admin) the JAAS line read from a directory laid out as Kubernetes mounts
 * a Secret, while the job arguments and the job's settings log hold only the reference.
 */
class KafkaSecretFilesTest {
    static final String MANIFEST = "kubernetes/kafka-backfill/embed-kafka.yaml";
    static final String MOUNT = "/etc/kafka-secrets";
    static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"embed\" password=\"canary-pw-51c2\";";

    @TempDir Path tmp;

    @Test
    void everyKafkaClientReadsTheLoginFromTheMountedSecret() throws Exception {
        Path mount = secretVolume(tmp.resolve("kafka-secrets"), "sasl.jaas.config", JAAS);
        Properties props = clientProperties(mount);

        assertThat(props.getProperty(SaslConfigs.SASL_JAAS_CONFIG))
                .isEqualTo("${dir:" + mount + ":sasl.jaas.config}");
        assertThat(Secrets.redact(props).toString()).doesNotContain("canary-pw-51c2");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        assertThat(new ConsumerConfig(props).getPassword(SaslConfigs.SASL_JAAS_CONFIG).value()).isEqualTo(JAAS);
        assertThat(new ProducerConfig(props).getPassword(SaslConfigs.SASL_JAAS_CONFIG).value()).isEqualTo(JAAS);
        assertThat(new AdminClientConfig(props).getPassword(SaslConfigs.SASL_JAAS_CONFIG).value()).isEqualTo(JAAS);
        assertThat(new ConsumerConfig(props).getString("security.protocol")).isEqualTo("SASL_SSL");
    }

    @Test
    void theProviderReadsOnlyTheMountedDirectory() throws Exception {
        Path mount = secretVolume(tmp.resolve("kafka-secrets"), "sasl.jaas.config", JAAS);
        Path elsewhere = secretVolume(tmp.resolve("other"), "sasl.jaas.config", JAAS);
        Properties props = clientProperties(mount);
        props.setProperty(SaslConfigs.SASL_JAAS_CONFIG, "${dir:" + elsewhere + ":sasl.jaas.config}");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        assertThat(new ConsumerConfig(props).getPassword(SaslConfigs.SASL_JAAS_CONFIG).value())
                .isEqualTo("${dir:" + elsewhere + ":sasl.jaas.config}");
    }

    /** The manifest's job arguments, parsed by the job, with the mount point moved to {@code mount}. */
    private static Properties clientProperties(Path mount) throws Exception {
        List<String> args = DeployFiles.resource(MANIFEST, "FlinkDeployment").args().stream()
                .map(a -> a.replace(MOUNT, mount.toString())).toList();
        RunOptions o = Jobs.options(args.subList(1, args.size()).toArray(String[]::new));
        o.validate();
        return o.kafka.settings().clientProperties();
    }

    /** A directory as the kubelet writes a Secret volume: {@code ..data/<key>} and a link per key. */
    private static Path secretVolume(Path dir, String key, String value) throws Exception {
        Path data = Files.createDirectories(dir.resolve("..2026_11_30_12_00_00.000000001"));
        Files.writeString(data.resolve(key), value);
        Files.createSymbolicLink(dir.resolve("..data"), data.getFileName());
        Files.createSymbolicLink(dir.resolve(key), Path.of("..data", key));
        return dir;
    }
}
