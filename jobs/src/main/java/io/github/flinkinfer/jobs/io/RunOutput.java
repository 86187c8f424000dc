package io.github.flinkinfer.jobs.io;

import java.io.IOException;
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
 * the rerun guard, in-progress clean-up, the run's driver-written files, the job's ledger and the
 * list of its committed files (never their records). The driver never touches the output any other way, so a run on object storage
 * gets exactly what a local run gets.
 *
 * <p>A run's files are {@code <dir>/part-<run-id>-<uuid>-<n><suffix>} in each output directory
 * (and their hidden in-progress forms), plus {@code run-info-<run-id>.json}, the job's
 * {@code ledger-<run-id>.json}, {@code report-<run-id>.json|html} and the manifest
 * {@code _SUCCESS-<run-id>} at the top.
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
        // committed or in progress (.<name>.inprogress.<uuid>), any suffix
        this.partFile = Pattern.compile("\\.?" + committedPartFiles(runId, "") + ".*");
    }

    /**
     * The names of run {@code runId}'s committed part files ending in {@code suffix}, as a regex.
     * FileSink names them {@code <prefix>-<uuid>-<counter><suffix>}; matching the uuid keeps run
     * "a" from claiming the files of run "a-2".
     */
    public static String committedPartFiles(String runId, String suffix) {
        return "part-" + Pattern.quote(runId) + "-" + WRITER_UUID + "-\\d+" + Pattern.quote(suffix);
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

    /** The run's success marker: its manifest, written last (docs/errors.md, "Accounting"). */
    public Path successMarker() {
        return resolve(SUCCESS_PREFIX + runId);
    }

    /** The ledger the job writes at its end: {@code ledger-<run-id>.json}. */
    public Path ledger() {
        return ledgerPath(root, runId);
    }

    /** Where the job writes the ledger of run {@code runId} under {@code root}. */
    public static Path ledgerPath(Path root, String runId) {
        return new Path(root, "ledger-" + runId + ".json");
    }

    private FileSystem fs() {
        try {
            return root.getFileSystem();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Readies the output for this run, refusing an output that is a file. An earlier run with this
     * id that committed (its success marker is there) is refused unless {@code overwrite}; one that
     * never committed (a failed or killed attempt: no marker) is cleaned up, so a scheduler's retry
     * just works. Either way the marker goes first and a failed delete stops the run, so a marker
     * never outlives the files it vouches for. Returns the number of files removed; other runs
     * under the same output stay.
     */
    public int prepare(boolean overwrite) throws IOException {
        if (fs().exists(root)) {
            if (!fs().getFileStatus(root).isDir()) {
                throw new IllegalArgumentException("--output " + root + " is a file; the output is a directory:"
                        + " name a directory (created if missing) or move the file away");
            }
        } else {
            refuseFileAbove();
        }
        List<Path> earlier = files();
        if (earlier.isEmpty()) {
            return 0;
        }
        if (committed() && !overwrite) {
            throw new IllegalArgumentException("Output " + root + " already holds run '" + runId
                    + "' (" + earlier.size() + " files, committed: " + successMarker().getName()
                    + "); pass --overwrite to replace it or use another --run-id");
        }
        delete(earlier);
        return earlier.size();
    }

    /**
     * Refuses an output that cannot be created because its nearest existing ancestor is a file
     * ({@code rf/sub} where {@code rf} is a file): said now, not as a write failing in the job.
     */
    private void refuseFileAbove() throws IOException {
        for (Path p = root.getParent(); p != null; p = p.getParent()) {
            if (fs().exists(p)) {
                if (!fs().getFileStatus(p).isDir()) {
                    throw new IllegalArgumentException("--output " + root + " cannot be created: " + p
                            + " is a file; name a directory whose parents are directories, or move the file away");
                }
                return;
            }
        }
    }

    /** Whether this run committed: its success marker (manifest) exists. */
    public boolean committed() throws IOException {
        return fs().exists(successMarker());
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

    /**
     * Every file of this run: part files and commit receipts one level down, and the driver's
     * files at the top.
     */
    public List<Path> files() throws IOException {
        List<Path> found = new ArrayList<>();
        for (FileStatus s : list(root)) {
            String name = s.getPath().getName();
            if (s.isDir()) {
                for (FileStatus f : list(s.getPath())) {
                    String file = f.getPath().getName();
                    if (!f.isDir() && (partFile.matcher(file).matches()
                            || io.github.flinkinfer.jobs.io.CommitReceipts.isReceipt(file, runId))) {
                        found.add(f.getPath());
                    }
                }
            } else if (name.equals(SUCCESS_PREFIX + runId) || name.equals(runInfo().getName())
                    || name.equals(ledger().getName())
                    || name.equals(report("json").getName()) || name.equals(report("html").getName())
                    || partFile.matcher(name).matches()) {
                found.add(s.getPath());
            }
        }
        return found;
    }

    /** The committed (never in-progress) part files of this run in an output directory. */
    public List<Path> committedParts(String dir) throws IOException {
        return committedFiles(dir).stream().map(FileStatus::getPath).toList();
    }

    public boolean exists(Path file) throws IOException {
        return fs().exists(file);
    }

    /** Opens one of the output's files for reading (a footer, a ledger). */
    public FSDataInputStream open(Path file) throws IOException {
        return fs().open(file);
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

    /** Deletes {@code files}, the success marker first; stops at the first that stays. */
    private void delete(List<Path> files) throws IOException {
        FileSystem fs = fs();
        List<Path> ordered = new ArrayList<>(files);
        ordered.sort(java.util.Comparator.comparing((Path p) -> !p.equals(successMarker())));
        for (Path p : ordered) {
            if (!fs.delete(p, false) && fs.exists(p)) {
                throw new IOException("Could not delete " + p + " of run '" + runId + "'; nothing"
                        + " after it was deleted. Check permissions and delete the run's files by hand");
            }
        }
    }

    /**
     * Writes a small file so that readers see all of it or nothing: on a file system with atomic
     * rename, a hidden temporary file renamed into place; on object stores (a file appears when its
     * upload completes) directly.
     */
    public void writeAtomically(Path file, String content) throws IOException {
        FileSystem fs = fs();
        if (fs.isDistributedFS() || !"file".equals(fs.getUri().getScheme())) {
            write(file, content);
            return;
        }
        Path tmp = new Path(file.getParent(), "." + file.getName() + ".tmp-" + java.util.UUID.randomUUID());
        write(tmp, content);
        if (!fs.rename(tmp, file)) {
            fs.delete(tmp, false);
            throw new IOException("Could not publish " + file);
        }
    }

    /** The output's directories (embeddings/, metrics/, errors/, ...), by name. */
    public List<String> outputDirectories() throws IOException {
        List<String> dirs = new ArrayList<>();
        for (FileStatus s : list(root)) {
            if (s.isDir()) {
                dirs.add(s.getPath().getName());
            }
        }
        dirs.sort(null);
        return dirs;
    }

    /** Name and size of each committed part file of this run in {@code dir} (the manifest's list). */
    public List<FileStatus> committedFiles(String dir) throws IOException {
        List<FileStatus> out = new ArrayList<>();
        for (FileStatus f : list(resolve(dir))) {
            String name = f.getPath().getName();
            if (!f.isDir() && !name.startsWith(".") && partFile.matcher(name).matches()) {
                out.add(f);
            }
        }
        out.sort(java.util.Comparator.comparing(f -> f.getPath().getName()));
        return out;
    }

    @Override
    public String toString() {
        return root + " (run " + runId + ")";
    }
}
