package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.Corpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A local Flink session cluster of separate JVMs, driven through the user-facing scripts in
 * {@code deploy/standalone/} (start, add a TaskManager, submit, stop), so the tests exercise
 * exactly what a user runs. Closing it always stops every process it started.
 */
final class StandaloneCluster implements AutoCloseable {
    static final Path SCRIPTS = Corpus.locate("deploy/standalone/start-cluster.sh").getParent();

    private final Path dir;
    private final Map<String, String> env;
    /** Stops the cluster if the test JVM exits without closing it (e.g. a failsafe timeout). */
    private final Thread stopOnExit = new Thread(this::stopQuietly, "stop-standalone-cluster");

    private StandaloneCluster(Path dir) {
        this.dir = dir;
        this.env = Map.of(
                "FLINK_CLUSTER_DIR", dir.toString(),
                "FLINK_REST_PORT", String.valueOf(freePort()),
                "FLINK_RPC_PORT", String.valueOf(freePort()));
    }

    /** Runs {@code start-cluster.sh} with the given arguments; stops what started on failure. */
    static StandaloneCluster start(Path dir, String... args) throws Exception {
        StandaloneCluster cluster = new StandaloneCluster(dir);
        try {
            Runtime.getRuntime().addShutdownHook(cluster.stopOnExit);
            cluster.script("start-cluster.sh", Duration.ofMinutes(3), args);
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    /** The shaded job jar that {@code mvn package} builds (ITCases run after package); its size goes to the log. */
    static Path jobJar() throws IOException {
        Path target = Corpus.locate("jobs/pom.xml").resolveSibling("target");
        try (Stream<Path> files = Files.list(target)) {
            Path jar = files.filter(p -> p.getFileName().toString().matches("jobs-.*-job\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no job jar in " + target + ": run mvn package"));
            System.out.printf("job jar %s: %,d bytes%n", jar.getFileName(), Files.size(jar));
            return jar;
        }
    }

    /** Starts {@code submit.sh <job jar> args...} without waiting; its output goes to a file. */
    Process submit(Path output, String... jobArgs) throws IOException {
        List<String> command = new ArrayList<>(List.of(SCRIPTS.resolve("submit.sh").toString(),
                jobJar().toString()));
        command.addAll(List.of(jobArgs));
        return process(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    /** Starts one more TaskManager and returns its name ({@code taskmanager-N}). */
    String startTaskManager() throws Exception {
        List<String> lines = script("start-taskmanager.sh", Duration.ofMinutes(1)).strip().lines().toList();
        return lines.get(lines.size() - 1);
    }

    /** {@code kill -9}: the TaskManager gets no chance to say goodbye. */
    void killHard(String process) throws IOException {
        long pid = Long.parseLong(Files.readString(dir.resolve("pids/" + process + ".pid")).strip());
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    Path log(String process) {
        return dir.resolve("log/" + process + ".log");
    }

    /** Waits until a process of the cluster (e.g. an application's JobManager) has exited. */
    boolean awaitExit(String process, Duration timeout) throws Exception {
        long pid = Long.parseLong(Files.readString(dir.resolve("pids/" + process + ".pid")).strip());
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(500);
        }
        return true;
    }

    /** Names of the processes whose log contains {@code text}, e.g. the TaskManagers running a task. */
    List<String> processesLogging(String text) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> logs = Files.list(dir.resolve("log"))) {
            for (Path log : logs.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
                if (Files.readString(log).contains(text)) {
                    names.add(log.getFileName().toString().replace(".log", ""));
                }
            }
        }
        return names;
    }

    /** A condition polled while a job runs. */
    interface MidJob {
        boolean reached() throws Exception;
    }

    /**
     * Polls until {@code midJob} is reached while {@code job} still runs (the point to kill a
     * TaskManager at); fails when the job ends first or after {@code seconds}, saying
     * "{@code missing} in N s".
     */
    void awaitMidJob(Process job, Path client, long seconds, String missing, MidJob midJob) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!midJob.reached()) {
            assertThat(job.isAlive())
                    .as("job ended before the kill:\n%s%s", Files.readString(client), logTails())
                    .isTrue();
            assertThat(System.nanoTime()).as("%s in %d s\n%s", missing, seconds, logTails())
                    .isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    /**
     * Waits for a job submitted before a TaskManager was killed: it must finish within the time,
     * exit 0 and the JobManager must have noticed the kill and recovered the tasks (a task of the
     * killed TaskManager failed: one still opening, such as the inference chain loading its model
     * while keep-first's id pass runs, fails from INITIALIZING).
     */
    void assertJobRecovered(Process job, Path client, long seconds) throws Exception {
        assertThat(job.waitFor(seconds, TimeUnit.SECONDS)).as("job still running after %d s", seconds).isTrue();
        assertThat(job.exitValue())
                .as("submit.sh failed:\n%s%s", Files.readString(client), logTails())
                .isZero();
        assertThat(Files.readString(log("jobmanager")))
                .as("the kill was noticed and tasks were recovered")
                .containsPattern("switched from (INITIALIZING|RUNNING) to FAILED");
    }

    /** The tail of every process log, for failure messages. */
    String logTails() {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> logs = Files.list(dir.resolve("log"))) {
            for (Path log : logs.sorted().toList()) {
                List<String> lines = Files.readAllLines(log);
                sb.append("==> ").append(log.getFileName()).append('\n');
                lines.subList(Math.max(0, lines.size() - 25), lines.size())
                        .forEach(l -> sb.append(l).append('\n'));
            }
        } catch (IOException | UncheckedIOException e) {
            sb.append("(logs unreadable: ").append(e.getMessage()).append(")\n");
        }
        return sb.toString();
    }

    @Override
    public void close() throws Exception {
        script("stop-cluster.sh", Duration.ofMinutes(1));
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException | IllegalArgumentException alreadyExitingOrRemoved) {
            // nothing to undo
        }
    }

    private void stopQuietly() {
        try {
            script("stop-cluster.sh", Duration.ofMinutes(1));
        } catch (Exception | AssertionError e) {
            System.err.println("Could not stop the cluster in " + dir + ": " + e.getMessage());
        }
    }

    private String script(String name, Duration timeout, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(SCRIPTS.resolve(name).toString()));
        command.addAll(List.of(args));
        Path output = Files.createTempFile("standalone-" + name, ".out");
        try {
            Process p = process(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(name + " timed out:\n" + Files.readString(output) + logTails());
            }
            String out = Files.readString(output);
            if (p.exitValue() != 0) {
                throw new AssertionError(name + " failed:\n" + out + logTails());
            }
            return out;
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private ProcessBuilder process(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        return pb;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
