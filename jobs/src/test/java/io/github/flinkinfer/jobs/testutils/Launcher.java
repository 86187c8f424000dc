package io.github.flinkinfer.jobs.testutils;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code bin/flink-inference} in its own process as a user does (the classpath the
 * package phase wrote, so ITCases only), and keeps its exit code, stdout and stderr.
 *
 * <pre>{@code
 * Launcher.Result r = Launcher.run(dir, Map.of(), "embed", "--input", "x.jsonl", "--output", "out");
 * assertThat(r.exitCode()).isEqualTo(2);
 * }</pre>
 */
public final class Launcher {
    public static final Path SCRIPT = Corpus.locate("bin/flink-inference");

    private Launcher() {}

    /** What one invocation left. */
    public record Result(int exitCode, String stdout, String stderr) {
        /** The lines of stderr that start with {@code error:}. */
        public List<String> errorLines() {
            return stderr.lines().filter(l -> l.startsWith("error:")).toList();
        }
    }

    /** Runs the launcher in {@code workDir} with {@code env} added to this JVM's environment. */
    public static Result run(Path workDir, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "launcher", ".out");
        Path err = Files.createTempFile(workDir, "launcher", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("bin/flink-inference " + String.join(" ", args) + " did not end in 5 min");
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
