package io.github.flinkinfer.jobs;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The console progress line of a local run: items done, estimated total, items/s, ETA. Items
 * done are counted from the batch metrics rows written so far (in-progress files included), the
 * total is estimated from the input files' line counts. Local output only.
 */
final class ProgressReporter implements AutoCloseable {
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
        if (!Files.isDirectory(metricsDir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(metricsDir)) {
            for (Path f : files.toList()) {
                for (String line : Files.readAllLines(f)) {
                    int i = line.indexOf("\"items\":");
                    if (i >= 0) {
                        int j = i + 8;
                        int k = j;
                        while (k < line.length() && Character.isDigit(line.charAt(k))) {
                            k++;
                        }
                        items += Long.parseLong(line.substring(j, k));
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            // files roll while we read: report what we have
        }
        return items;
    }

    /** Lines of local input files (directories: their files); a cheap estimate of the records. */
    static long estimateRecords(List<String> inputs) {
        long lines = 0;
        for (String input : inputs) {
            Path p = Path.of(input);
            try (Stream<Path> files = Files.isDirectory(p) ? Files.list(p) : Stream.of(p)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    if (f.toString().endsWith(".parquet")) {
                        continue;
                    }
                    try (Stream<String> l = Files.lines(f, java.nio.charset.StandardCharsets.ISO_8859_1)) {
                        lines += l.count();
                    }
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                return -1;
            }
        }
        return lines;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
