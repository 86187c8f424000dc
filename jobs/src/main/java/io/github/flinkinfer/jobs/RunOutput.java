package io.github.flinkinfer.jobs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * One run's files under an output location, on any file system Flink has (a relative or absolute
 * local path, {@code file://}, {@code s3://}, {@code hdfs://}, {@code gs://}, {@code abfs://}):
 * the rerun guard, in-progress clean-up, the run's driver-written files and reading its committed
 * records back. The driver never touches the output any other way, so a run on object storage
 * gets exactly what a local run gets.
 *
 * <p>A run's files are {@code <dir>/part-<run-id>-<uuid>-<n><suffix>} in each output directory
 * (and their hidden in-progress forms), plus {@code run-info-<run-id>.json},
 * {@code report-<run-id>.json|html} and {@code _SUCCESS-<run-id>} at the top.
 */
public final class RunOutput {
    /** The uuid FileSink puts in a part file's name: one per writer attempt. */
    public static final String WRITER_UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    /** The marker of a run whose verdicts all passed. */
    public static final String SUCCESS_PREFIX = "_SUCCESS-";

    private final Path root;
    private final String runId;
    private final Pattern partFile;

    private RunOutput(Path root, String runId) {
        this.root = root;
        this.runId = runId;
        // FileSink names: <prefix>-<uuid>-<counter><suffix>, in progress: .<name>.inprogress.<uuid>.
        // Matching the uuid keeps run "a" from claiming the files of run "a-2".
        this.partFile = Pattern.compile("\\.?part-" + Pattern.quote(runId) + "-" + WRITER_UUID + "-\\d+.*");
    }

    /** The output {@code location} (any scheme, or a path) of run {@code runId}. */
    public static RunOutput of(String location, String runId) {
        if (!runId.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("--run-id may use letters, digits, '.', '_' and '-'");
        }
        Path path = new Path(location);
        try {
            return new RunOutput(path.makeQualified(path.getFileSystem()), runId);
        } catch (IOException e) {
            throw new IllegalArgumentException("No Flink file system for output '" + location + "': "
                    + e.getMessage() + " (is the file system's plugin installed and configured?)", e);
        }
    }

    public Path root() {
        return root;
    }

    public String runId() {
        return runId;
    }

    /** A file or directory directly under the output. */
    public Path resolve(String name) {
        return new Path(root, name);
    }

    /** The run's report files: {@code report-<run-id>.<ext>}. */
    public Path report(String ext) {
        return resolve("report-" + runId + "." + ext);
    }

    public Path runInfo() {
        return resolve("run-info-" + runId + ".json");
    }

    public Path successMarker() {
        return resolve(SUCCESS_PREFIX + runId);
    }

    private FileSystem fs() {
        try {
            return root.getFileSystem();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Refuses an output that is a file, and to start over an earlier run with this run id, or with
     * {@code overwrite} removes exactly that run's files (other runs under the same output stay).
     */
    public void prepare(boolean overwrite) throws IOException {
        if (fs().exists(root) && !fs().getFileStatus(root).isDir()) {
            throw new IllegalArgumentException("--output " + root + " is a file; the output is a directory:"
                    + " name a directory (created if missing) or move the file away");
        }
        List<Path> earlier = files();
        if (earlier.isEmpty()) {
            return;
        }
        if (!overwrite) {
            throw new IllegalArgumentException("Output " + root + " already holds " + earlier.size()
                    + " files of run '" + runId + "'; pass --overwrite to replace them or use another"
                    + " --run-id");
        }
        delete(earlier);
    }

    /** Removes the run's files (outputs of a run that failed its error budget). */
    public int discard() throws IOException {
        List<Path> files = files();
        delete(files);
        return files.size();
    }

    /**
     * Deletes the hidden in-progress part files that attempts killed mid-write (a lost
     * TaskManager) left behind. Called after the job finished: committed files are final then,
     * so only garbage goes.
     */
    public int removeAbandonedInProgress() throws IOException {
        List<Path> abandoned = inProgress();
        delete(abandoned);
        return abandoned.size();
    }

    /** The run's hidden in-progress part files (of running or killed attempts). */
    public List<Path> inProgress() throws IOException {
        List<Path> found = new ArrayList<>();
        for (Path p : files()) {
            if (p.getName().startsWith(".") && p.getName().contains(".inprogress")) {
                found.add(p);
            }
        }
        return found;
    }

    /** Every file of this run: part files one level down, and the driver's files at the top. */
    public List<Path> files() throws IOException {
        List<Path> found = new ArrayList<>();
        for (FileStatus s : list(root)) {
            String name = s.getPath().getName();
            if (s.isDir()) {
                for (FileStatus f : list(s.getPath())) {
                    if (!f.isDir() && partFile.matcher(f.getPath().getName()).matches()) {
                        found.add(f.getPath());
                    }
                }
            } else if (name.equals(SUCCESS_PREFIX + runId) || name.equals(runInfo().getName())
                    || name.equals(report("json").getName()) || name.equals(report("html").getName())
                    || partFile.matcher(name).matches()) {
                found.add(s.getPath());
            }
        }
        return found;
    }

    /** The committed (never in-progress) part files of this run in an output directory. */
    public List<Path> committedParts(String dir) throws IOException {
        List<Path> parts = new ArrayList<>();
        for (FileStatus f : list(resolve(dir))) {
            String name = f.getPath().getName();
            if (!f.isDir() && !name.startsWith(".") && partFile.matcher(name).matches()) {
                parts.add(f.getPath());
            }
        }
        parts.sort(java.util.Comparator.comparing(Path::getName));
        return parts;
    }

    /** The non-blank lines of this run's committed part files in {@code dir}, in file order. */
    public List<String> committedLines(String dir) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Path part : committedParts(dir)) {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(
                    fs().open(part), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (!line.isBlank()) {
                        lines.add(line);
                    }
                }
            }
        }
        return lines;
    }

    public boolean exists(Path file) throws IOException {
        return fs().exists(file);
    }

    public String read(Path file) throws IOException {
        try (FSDataInputStream in = fs().open(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Creates output directories that no record created (an {@code errors/} of a clean run). */
    public void makeDirectories(String... dirs) throws IOException {
        for (String dir : dirs) {
            fs().mkdirs(resolve(dir));
        }
    }

    /** Writes (replaces) a small driver-side file. */
    public void write(Path file, String content) throws IOException {
        try (OutputStream out = fs().create(file, FileSystem.WriteMode.OVERWRITE)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
    }

    private List<FileStatus> list(Path dir) throws IOException {
        FileSystem fs = fs();
        if (!fs.exists(dir)) {
            return List.of();
        }
        FileStatus[] all = fs.listStatus(dir);
        return all == null ? List.of() : List.of(all);
    }

    private void delete(List<Path> files) throws IOException {
        FileSystem fs = fs();
        for (Path p : files) {
            fs.delete(p, false);
        }
    }

    @Override
    public String toString() {
        return root + " (run " + runId + ")";
    }
}
