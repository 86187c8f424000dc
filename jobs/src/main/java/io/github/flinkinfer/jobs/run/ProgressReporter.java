package io.github.flinkinfer.jobs.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import io.github.flinkinfer.operators.ledger.LedgerTally;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.JobListener;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The console progress line of a run: items done, estimated total, items/s, ETA, and a final
 * line with the totals. Items done are the job's own live count (the {@link
 * LedgerTally#ITEMS_DONE} accumulator of the batch tallies, which Flink collects from the
 * TaskManagers' heartbeats and serves through the {@link JobClient}), so nothing is listed or
 * read from the output while the job runs; the total is estimated from the input files' sizes
 * and line lengths, or a Kafka topic's offsets. Any Flink file system.
 */
final class ProgressReporter implements AutoCloseable {
    /** Bytes read from each input file to learn its mean line length. */
    private static final int SAMPLE_BYTES = 1 << 20;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "progress");
        t.setDaemon(true);
        return t;
    });
    private final long estimatedTotal;
    private final long startNanos = System.nanoTime();
    private final PrintStream out;
    private volatile JobClient job;
    private volatile long lastDone;

    ProgressReporter(long estimatedTotal, PrintStream out) {
        this.estimatedTotal = estimatedTotal;
        this.out = out;
    }

    /** Registers on {@code env} to learn the job once it is submitted; returns the listener. */
    JobListener listenTo(StreamExecutionEnvironment env) {
        JobListener listener = new JobListener() {
            @Override
            public void onJobSubmitted(JobClient client, Throwable failure) {
                job = client;
            }

            @Override
            public void onJobExecuted(JobExecutionResult result, Throwable failure) {}
        };
        env.registerJobListener(listener);
        return listener;
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

    /** Items done so far by the current attempts, as the JobManager last heard (0 before submission). */
    long itemsDone() {
        JobClient client = job;
        if (client != null) {
            try {
                Object v = client.getAccumulators().get(2, TimeUnit.SECONDS).get(LedgerTally.ITEMS_DONE);
                if (v instanceof Number n) {
                    lastDone = n.longValue();
                }
            } catch (Exception e) {
                // the job is between states (or gone): keep the last count
            }
        }
        return lastDone;
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

    /** Stops the timer; with the finished job's result, prints the final line with its total. */
    void close(JobExecutionResult finished) {
        timer.shutdownNow();
        if (finished != null) {
            Object v = finished.getAllAccumulatorResults().get(LedgerTally.ITEMS_DONE);
            out.println(line(v instanceof Number n ? n.longValue() : lastDone, true));
        }
    }

    @Override
    public void close() {
        close(null);
    }
}
