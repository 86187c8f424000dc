package io.github.flinkinfer.jobs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The console progress line of a run: items done, estimated total, items/s, ETA. Items done are
 * counted from the batch metrics rows visible so far (on a local file system in-progress files
 * too; object stores show part files once committed), the total is estimated from the input
 * files' sizes and line lengths. Any Flink file system.
 */
final class ProgressReporter implements AutoCloseable {
    /** Bytes read from each input file to learn its mean line length. */
    private static final int SAMPLE_BYTES = 1 << 20;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "progress");
        t.setDaemon(true);
        return t;
    });
    private final Path metricsDir;
    private final long estimatedTotal;
    private final long startNanos = System.nanoTime();
    private final PrintStream out;

    ProgressReporter(Path metricsDir, long estimatedTotal, PrintStream out) {
        this.metricsDir = metricsDir;
        this.estimatedTotal = estimatedTotal;
        this.out = out;
    }

    void start(long periodSeconds) {
        timer.scheduleAtFixedRate(this::print, periodSeconds, periodSeconds, TimeUnit.SECONDS);
    }

    private void print() {
        long done = itemsDone();
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        double rate = done / Math.max(1e-9, seconds);
        String eta = rate > 0 && estimatedTotal > done
                ? String.format("%.0f s", (estimatedTotal - done) / rate) : "-";
        out.printf("progress: %,d / ~%,d items, %.1f items/s, ETA %s%n", done, estimatedTotal, rate, eta);
    }

    long itemsDone() {
        long items = 0;
        try {
            FileSystem fs = metricsDir.getFileSystem();
            if (!fs.exists(metricsDir)) {
                return 0;
            }
            for (FileStatus f : fs.listStatus(metricsDir)) {
                try (BufferedReader r = new BufferedReader(
                        new InputStreamReader(fs.open(f.getPath()), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        items += itemsOf(line);
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            // files roll while we read: report what we have
        }
        return items;
    }

    private static long itemsOf(String metricsLine) {
        int i = metricsLine.indexOf("\"items\":");
        if (i < 0) {
            return 0;
        }
        int j = i + 8;
        int k = j;
        while (k < metricsLine.length() && Character.isDigit(metricsLine.charAt(k))) {
            k++;
        }
        return Long.parseLong(metricsLine.substring(j, k));
    }

    /**
     * Records in the input files (directories: their files), estimated as size / mean line
     * length of each file's first MiB (exact for smaller files); -1 when unknown.
     */
    static long estimateRecords(List<String> inputs) {
        long lines = 0;
        try {
            for (String input : inputs) {
                Path p = new Path(input);
                FileSystem fs = p.getFileSystem();
                FileStatus status = fs.getFileStatus(p);
                FileStatus[] files = status.isDir() ? fs.listStatus(p) : new FileStatus[] {status};
                for (FileStatus f : files) {
                    if (!f.isDir() && !f.getPath().getName().endsWith(".parquet")) {
                        lines += estimateLines(fs, f);
                    }
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return lines;
    }

    private static long estimateLines(FileSystem fs, FileStatus f) throws IOException {
        byte[] head;
        try (InputStream in = fs.open(f.getPath())) {
            head = in.readNBytes(SAMPLE_BYTES);
        }
        long newlines = 0;
        for (byte b : head) {
            if (b == '\n') {
                newlines++;
            }
        }
        if (head.length == f.getLen()) {
            return newlines + (head.length > 0 && head[head.length - 1] != '\n' ? 1 : 0);
        }
        return newlines == 0 ? 1 : Math.round(f.getLen() * (double) newlines / head.length);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
