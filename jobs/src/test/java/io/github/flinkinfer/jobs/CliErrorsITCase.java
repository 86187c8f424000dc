package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Launcher;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad invocations of {@code bin/flink-inference}, run as a user runs them: each ends with exit
 * code 2 and one {@code error:} line naming the cause and what to do, no stack trace (only with
 * {@code --verbose}).
 */
class CliErrorsITCase {
    @TempDir Path tmp;

    private Path corpus() throws Exception {
        return Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), Corpus.sample(5));
    }

    private static void assertOneErrorLine(Launcher.Result r, String... contains) {
        assertThat(r.exitCode()).as("exit code; stderr:%n%s", r.stderr()).isEqualTo(2);
        assertThat(r.errorLines()).as("stderr:%n%s", r.stderr()).singleElement()
                .satisfies(line -> assertThat(line).contains(contains));
        assertThat(r.stderr()).as("no stack trace").doesNotContain("\tat ", "Exception:");
    }

    @Test
    void outputNamingAFileSaysSo() throws Exception {
        Path file = Files.writeString(tmp.resolve("existing.txt"), "not a directory");

        Launcher.Result r = Launcher.run(tmp, Map.of(), "embed", "--input", corpus().toString(),
                "--output", file.toString(), "--progress-seconds", "0");

        assertOneErrorLine(r, "--output", "existing.txt is a file", "name a directory");
        assertThat(Files.readString(file)).isEqualTo("not a directory");

        Launcher.Result verbose = Launcher.run(tmp, Map.of(), "embed", "--input", corpus().toString(),
                "--output", file.toString(), "--progress-seconds", "0", "--verbose");
        assertThat(verbose.exitCode()).isEqualTo(2);
        assertThat(verbose.errorLines()).singleElement().asString().contains("is a file");
        assertThat(verbose.stderr()).as("--verbose shows the trace").contains("\tat io.github.flinkinfer.jobs.io.RunOutput.prepare");
    }

    /** Issue 40: an output below a regular file cannot be created: said at once, no trace. */
    @Test
    void outputBelowAFileSaysWhichFileIsInTheWay() throws Exception {
        Path file = Files.writeString(tmp.resolve("rf"), "a regular file");

        Launcher.Result r = Launcher.run(tmp, Map.of(), "embed", "--input", corpus().toString(),
                "--output", file.resolve("sub").toString(), "--progress-seconds", "0");

        assertOneErrorLine(r, "--output", "rf/sub cannot be created", "rf is a file");
        assertThat(Files.readString(file)).isEqualTo("a regular file");
    }

    /** Issue 40: a mistyped option is one error line and a pointer at --help, not the whole usage. */
    @Test
    void mistypedOptionPointsAtHelpInsteadOfPrintingTheUsage() throws Exception {
        // with picocli's suggestions (--inputt is near --input), and without any (--colour)
        for (String typo : new String[] {"--inputt", "--colour"}) {
            Launcher.Result r = Launcher.run(tmp, Map.of(), "embed", typo, corpus().toString(),
                    "--output", tmp.resolve("out").toString());

            assertOneErrorLine(r, "Unknown option", typo);
            assertThat(r.stderr()).contains("Run 'flink-inference embed --help' for the options.")
                    .doesNotContain("Usage:");
            assertThat(r.stderr().lines().count()).as("stderr:%n%s", r.stderr()).isLessThanOrEqualTo(3);
            assertThat(r.stdout()).doesNotContain("Usage:");
        }
    }

    @Test
    void unreadableInputDirectoryIsPermissionDeniedNotEmpty() throws Exception {
        // a directory this user cannot list: mode 000, or for root (who lists anything) a
        // directory the kernel refuses even root in a container
        Path dir = Files.createDirectory(tmp.resolve("locked"));
        Files.copy(corpus(), dir.resolve("part.jsonl"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("---------"));
        Path locked = readable(dir) ? Path.of("/proc/1/map_files") : dir;
        assumeTrue(Files.isDirectory(locked) && !readable(locked),
                "no directory this user is denied to list (root, and /proc/1/map_files is readable)");
        try {
            Launcher.Result r = Launcher.run(tmp, Map.of(), "embed", "--input", locked.toString(),
                    "--output", tmp.resolve("out").toString(), "--progress-seconds", "0");

            assertOneErrorLine(r, "Input directory " + locked, "permission denied", "grant it read");
        } finally {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void workloadCardListsEveryProblemAtOnce() throws Exception {
        Path card = Files.writeString(tmp.resolve("card.yaml"), """
                task: embed
                corpus:
                  inputs: %s
                variants: [all-minilm-l6-v2]
                budget: -1
                prices:
                  cpu-core-hour: 0.0475
                quality:
                  min-cosine: 1.5
                colour: blue
                """.formatted(corpus()));

        Launcher.Result r = Launcher.run(tmp, Map.of(), "plan", "--workload", card.toString());

        assertOneErrorLine(r, "workload card " + card + " has 3 problems");
        assertThat(r.stderr()).contains("  - unknown field 'colour'", "  - 'budget' is negative (-1.0)",
                "  - 'quality.min-cosine' 1.5 is outside [0, 1]");
    }

    @Test
    void s3InputWithoutItsFileSystemNamesThePlugin() throws Exception {
        Launcher.Result r = Launcher.run(tmp, Map.of("FLINK_PLUGINS_DIR", tmp.resolve("none").toString()),
                "embed", "--input", "s3://bucket/corpus.jsonl", "--output", tmp.resolve("out").toString(),
                "--progress-seconds", "0");

        assertOneErrorLine(r, "No Flink file system for --input 's3://bucket/corpus.jsonl'",
                "FLINK_PLUGINS_DIR", "FLINK_CONF_DIR", "docs/operations.md");
    }

    private static boolean readable(Path dir) {
        try (var entries = Files.list(dir)) {
            return entries.count() >= 0;
        } catch (AccessDeniedException e) {
            return false;
        } catch (java.io.UncheckedIOException e) {
            return !(e.getCause() instanceof AccessDeniedException);
        } catch (java.io.IOException e) {
            return true;
        }
    }
}
