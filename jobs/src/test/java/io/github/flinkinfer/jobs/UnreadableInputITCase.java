package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Launcher;
import io.github.flinkinfer.jobs.testutils.NoRestarts;
import io.github.flinkinfer.jobs.testutils.S3Server;
import io.github.flinkinfer.operators.errors.UnreadableInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An input that cannot be read is not transient: a file the user may not read, an {@code s3://}
 * object that is not there, a store without credentials, a scheme without a file system. Each
 * ends the run with exit code 2 and one {@code error:} line naming the input and the cause, no
 * stack trace on the console and no restart: found by the driver before submission when it can
 * be (a named file, a directory's first file), else by the reader that cannot open its file.
 */
class UnreadableInputITCase extends ClusterTestBase {
    @RegisterExtension static final S3Server S3 = S3Server.serverOnly();

    @Test
    void anUnreadableFileIsOneLineBeforeSubmission() throws Exception {
        Path file = unreadable(tmp.resolve("locked.jsonl"));

        Launcher.Result r = embedWithLauncher(Map.of(), file.toString());

        assertOneErrorLine(r, "Input " + file + " cannot be read: permission denied for user");
    }

    /** The driver opens a directory's first file only; the reader of another fails the job at once. */
    @Test
    void anUnreadableFileInADirectoryFailsTheJobWithoutARestart(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("corpus"));
        Corpus.writeJsonl(dir.resolve("a.jsonl"), Corpus.sample(10));
        Path locked = unreadable(dir.resolve("b.jsonl"));

        assertThatThrownBy(() -> embed(dir, tmp.resolve("out"), "locked", "--parallelism", "2"))
                .as("the reader's refusal, as the driver reports its own")
                .isInstanceOf(UnreadableInputException.class)
                .hasMessageContaining("Input file:" + locked + " cannot be read: permission denied");
        NoRestarts.assertFailedOnce(cluster, "locked", UnreadableInputException.class);

        Launcher.Result r = embedWithLauncher(Map.of(), dir.toString());
        assertOneErrorLine(r, "Input file:" + locked + " cannot be read: permission denied for user");
    }

    @Test
    void aMissingObjectOnS3IsOneLine() throws Exception {
        Launcher.Result r = embedWithLauncher(Map.of("FLINK_CONF_DIR", config(true).toString()),
                S3.uri("missing/corpus.jsonl"));

        assertOneErrorLine(r, "Input s3://bucket/missing/corpus.jsonl does not exist");
        assertThat(r.stdout() + r.stderr()).as("the AWS SDK's deprecation notice, without --verbose")
                .doesNotContain("AWS SDK for Java 1.x");
    }

    /** An input, and (the same contract) an output, on a store without credentials. */
    @Test
    void s3WithoutCredentialsIsOneLine() throws Exception {
        S3.put("creds/corpus.jsonl", Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), Corpus.sample(5)));

        Launcher.Result r = embedWithLauncher(Map.of("FLINK_CONF_DIR", config(false).toString(),
                "AWS_ACCESS_KEY_ID", "", "AWS_SECRET_ACCESS_KEY", ""), S3.uri("creds/corpus.jsonl"));

        assertOneErrorLine(r, "Input s3://bucket/creds/corpus.jsonl cannot be read: No AWS Credentials",
                "AWS_ACCESS_KEY_ID");

        Launcher.Result output = Launcher.run(tmp, Map.of("FLINK_CONF_DIR", config(false).toString(),
                "AWS_ACCESS_KEY_ID", "", "AWS_SECRET_ACCESS_KEY", ""), "embed", "--input",
                Corpus.writeJsonl(tmp.resolve("local.jsonl"), Corpus.sample(3)).toString(),
                "--output", S3.uri("creds/out"), "--run-id", "cli", "--progress-seconds", "0");
        assertOneErrorLine(output, "Output s3://bucket/creds/out cannot be used: No AWS Credentials",
                "AWS_ACCESS_KEY_ID");
    }

    /** docs/operations.md's "No Flink file system for --input", for a scheme no plugin serves. */
    @Test
    void aSchemeWithoutAFileSystemIsOneLine() throws Exception {
        Launcher.Result r = embedWithLauncher(Map.of(), "foo://x");

        assertOneErrorLine(r, "No Flink file system for --input 'foo://x'", "docs/operations.md");
    }

    private Launcher.Result embedWithLauncher(Map<String, String> env, String input) throws Exception {
        return Launcher.run(tmp, env, "embed", "--input", input, "--output", tmp.resolve("cli-out").toString(),
                "--run-id", "cli", "--progress-seconds", "0");
    }

    private static void assertOneErrorLine(Launcher.Result r, String... contains) {
        assertThat(r.exitCode()).as("exit code; stdout:%n%s%nstderr:%n%s", r.stdout(), r.stderr()).isEqualTo(2);
        assertThat(r.errorLines()).as("stderr:%n%s", r.stderr()).singleElement()
                .satisfies(line -> assertThat(line).contains(contains));
        assertThat(r.stdout() + r.stderr()).as("no stack trace on the console").doesNotContain("\tat ", "Exception:");
    }

    /** A config.yaml for the test store, with or without its keys. */
    private Path config(boolean withKeys) throws IOException {
        Path conf = Files.createDirectories(tmp.resolve(withKeys ? "conf" : "conf-no-keys"));
        Files.writeString(conf.resolve("config.yaml"), S3.configuration().toMap().entrySet().stream()
                .filter(e -> withKeys || !e.getKey().endsWith("-key"))
                .map(e -> e.getKey() + ": " + e.getValue()).sorted().collect(Collectors.joining("\n", "", "\n")));
        return conf;
    }

    /**
     * A corpus file this user cannot open: mode 000, or for root (who opens anything) a link to
     * a write-only sysfs file, which the kernel refuses even root.
     */
    private static Path unreadable(Path file) throws IOException {
        Corpus.writeJsonl(file, Corpus.sample(3));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
        if (opens(file)) {
            Files.delete(file);
            Files.createSymbolicLink(file, Path.of("/sys/bus/pci/rescan"));
        }
        assumeTrue(Files.exists(file) && !opens(file),
                "no file this user is denied to open (root, and /sys/bus/pci/rescan is missing or readable)");
        return file;
    }

    private static boolean opens(Path file) {
        try (var in = Files.newInputStream(file)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
