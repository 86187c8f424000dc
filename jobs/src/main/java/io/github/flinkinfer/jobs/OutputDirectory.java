package io.github.flinkinfer.jobs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Keeps re-runs from duplicating outputs: files of a run are named after its run id, and a run
 * id that already has files is refused, or its files removed first with {@code --overwrite}.
 * Only local output directories are checked (remote ones rely on unique run ids).
 */
final class OutputDirectory {
    private OutputDirectory() {}

    static void prepare(String output, String runId, boolean overwrite) {
        if (output.contains("://") && !output.startsWith("file://")) {
            return;
        }
        Path dir = Path.of(output.replaceFirst("^file://", ""));
        List<Path> existing = filesOf(dir, runId);
        if (existing.isEmpty()) {
            return;
        }
        if (!overwrite) {
            throw new IllegalArgumentException(
                    "Output " + dir + " already holds " + existing.size() + " files of run '" + runId
                            + "'; pass --overwrite to replace them or use another --run-id");
        }
        for (Path p : existing) {
            try {
                Files.delete(p);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * After a successful run, deletes the hidden in-progress part files that attempts killed
     * mid-write (a lost TaskManager) left behind. Committed files are final by then, so only
     * garbage goes. Works on any Flink file system (local, S3, HDFS).
     */
    static int removeAbandonedInProgress(String output, String runId) throws IOException {
        int removed = 0;
        org.apache.flink.core.fs.Path root = new org.apache.flink.core.fs.Path(output);
        org.apache.flink.core.fs.FileSystem fs = root.getFileSystem();
        if (!fs.exists(root)) {
            return 0;
        }
        for (org.apache.flink.core.fs.FileStatus dir : fs.listStatus(root)) {
            if (!dir.isDir()) {
                continue;
            }
            for (org.apache.flink.core.fs.FileStatus f : fs.listStatus(dir.getPath())) {
                String n = f.getPath().getName();
                if (n.startsWith(".part-" + runId + "-") && n.contains(".inprogress")) {
                    fs.delete(f.getPath(), false);
                    removed++;
                }
            }
        }
        return removed;
    }

    /** Removes a run's files from a local output directory (after a failed run). */
    static void discard(String output, String runId) {
        if (output.contains("://") && !output.startsWith("file://")) {
            return;
        }
        for (Path p : filesOf(Path.of(output.replaceFirst("^file://", "")), runId)) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static List<Path> filesOf(Path dir, String runId) {
        List<Path> found = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return found;
        }
        try (Stream<Path> all = Files.walk(dir, 2)) {
            all.filter(Files::isRegularFile)
                    .filter(p -> {
                        String n = p.getFileName().toString();
                        return n.startsWith("part-" + runId + "-") || n.startsWith(".part-" + runId + "-")
                                || n.equals("_SUCCESS-" + runId)
                                || n.equals("run-info-" + runId + ".json")
                                || n.equals("report-" + runId + ".json")
                                || n.equals("report-" + runId + ".html");
                    })
                    .forEach(found::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }
}
