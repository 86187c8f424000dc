package io.github.flinkinfer.jobs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The console progress line of a run: items done, estimated total, items/s, ETA, and a final
 * line with the totals. Items done are counted from the batch metrics rows of each subtask's
 * current attempt visible so far (on a local file system in-progress files too; object stores
 * show part files once committed); the total is estimated from the input files' sizes and line
 * lengths, or a Kafka topic's offsets. Any Flink file system.
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
        out.println(line(itemsDone(), false));
    }

    String line(long done, boolean last) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        double rate = done / Math.max(1e-9, seconds);
        String total = estimatedTotal >= 0 ? String.format(" / ~%,d", estimatedTotal) : "";
        if (last) {
            return String.format("progress: done, %,d items in %.1f s (%.1f items/s)", done, seconds, rate);
        }
        String eta = rate > 0 && estimatedTotal > done
                ? String.format("%.0f s", (estimatedTotal - done) / rate) : "-";
        return String.format("progress: %,d%s items, %.1f items/s, ETA %s", done, total, rate, eta);
    }

    /**
     * Items in the metrics rows of the current attempt of each subtask: a part file belongs to
     * one writer attempt (the uuid in its name); rows of an attempt that a failure replaced stay
     * in their files, so per subtask only the attempt written to most recently counts.
     */
    long itemsDone() {
        Map<String, Attempt> attempts = new HashMap<>();
        try {
            FileSystem fs = metricsDir.getFileSystem();
            if (!fs.exists(metricsDir)) {
                return 0;
            }
            for (FileStatus f : fs.listStatus(metricsDir)) {
                Matcher m = WRITER.matcher(f.getPath().getName());
                Attempt a = attempts.computeIfAbsent(m.matches() ? m.group(1) : f.getPath().getName(),
                        k -> new Attempt());
                a.lastModified = Math.max(a.lastModified, f.getModificationTime());
                try (BufferedReader r = new BufferedReader(
                        new InputStreamReader(fs.open(f.getPath()), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        a.items += number(line, "\"items\":");
                        a.subtask = (int) number(line, "\"subtask\":");
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            // files roll while we read: report what we have
        }
        Map<Integer, Attempt> newest = new HashMap<>();
        for (Attempt a : attempts.values()) {
            newest.merge(a.subtask, a, (x, y) -> x.lastModified >= y.lastModified ? x : y);
        }
        return newest.values().stream().mapToLong(a -> a.items).sum();
    }

    private static final Pattern WRITER = Pattern.compile(
            "\\.?part-.+-(" + RunOutput.WRITER_UUID + ")-\\d+.*");

    /** One writer attempt's rows. */
    private static final class Attempt {
        long items;
        int subtask;
        long lastModified;
    }

    private static long number(String jsonLine, String key) {
        int i = jsonLine.indexOf(key);
        if (i < 0) {
            return 0;
        }
        int j = i + key.length();
        int k = j;
        while (k < jsonLine.length() && Character.isDigit(jsonLine.charAt(k))) {
            k++;
        }
        return Long.parseLong(jsonLine.substring(j, k));
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

    /** Stops the timer; {@code finished}: prints the final line with the run's totals. */
    void close(boolean finished) {
        timer.shutdownNow();
        if (finished) {
            out.println(line(itemsDone(), true));
        }
    }

    @Override
    public void close() {
        close(false);
    }
}
