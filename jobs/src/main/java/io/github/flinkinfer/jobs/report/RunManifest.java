package io.github.flinkinfer.jobs.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.flinkinfer.jobs.io.ParquetRows;
import io.github.flinkinfer.jobs.io.RunOutput;
import java.io.IOException;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileStatus;

/**
 * The success marker's content: one JSON document naming what a run committed — its ledger (every
 * count, the accounting verdict, and the headline {@code counts} every other reader shows), each
 * committed file with its size (and a Parquet file's rows, from its footer: {@link ParquetRows};
 * a JSON-lines or CSV file's rows are the ledger's counts, not re-read), and who committed it when.
 * Written last and atomically ({@link RunOutput#writeAtomically}), so a reader that finds it can
 * trust it without listing or reading the data (the S3A committers' {@code _SUCCESS} is the
 * model). Its size is O(subtasks + sources + files).
 */
public final class RunManifest {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RunManifest.class);
    /** Bumped when a field changes meaning. */
    public static final int VERSION = 1;

    private RunManifest() {}

    /**
     * The manifest of a run that passed its verdicts; {@code committer} says who wrote it (the
     * driver, or {@code report --mark-success}).
     */
    public static String json(RunSummary summary, RunOutput out, String jobId, String committer,
            String projectVersion) throws IOException {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode m = json.createObjectNode();
        m.put("manifestVersion", VERSION);
        m.put("runId", out.runId());
        m.put("jobId", jobId);
        m.put("committer", committer);
        m.put("flinkBatchInference", projectVersion);
        m.put("committedAtMillis", System.currentTimeMillis());
        m.put("wallSeconds", summary.wallSeconds);
        m.set("reconciliation", json.valueToTree(summary.reconciliation));
        m.set("counts", json.valueToTree(summary.ledger.counts())); // as the report, console and push show them
        ObjectNode files = m.putObject("files");
        long bytes = 0;
        int count = 0;
        for (String dir : out.outputDirectories()) {
            ArrayNode list = files.putArray(dir);
            for (FileStatus f : out.committedFiles(dir)) {
                ObjectNode file = list.addObject();
                file.put("name", f.getPath().getName());
                file.put("bytes", f.getLen());
                if (ParquetRows.isParquet(f.getPath().getName())) {
                    try (FSDataInputStream in = out.open(f.getPath())) {
                        file.put("rows", ParquetRows.count(in, f.getLen()));
                    } catch (IOException | RuntimeException | LinkageError e) {
                        // the counts and the verdict are the ledger's; a footer this client cannot read
                        // leaves the file's rows out of the manifest, not the run without one
                        LOG.warn("Rows of {} not in the manifest: {}", f.getPath(), e.toString());
                    }
                }
                bytes += f.getLen();
                count++;
            }
        }
        m.put("fileCount", count);
        m.put("bytes", bytes);
        m.set("ledger", json.readTree(summary.ledger.toJson()));
        return json.writeValueAsString(m);
    }
}
