package io.github.flinkinfer.jobs.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.SupportsConcurrentExecutionAttempts;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.connector.file.sink.writer.FileWriterBucketState;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.transformations.SinkTransformation;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proof that a file output's committers finished: once every committer subtask of a run's {@link
 * FileSink} has committed everything (BATCH: after its end-of-input commit; STREAMING: after the
 * commit of the final checkpoint), one subtask after them leaves {@code
 * <dir>/_committed-<run-id>.<sink>-0-of-1} (runs before 2026-12-06 left one receipt per committer
 * subtask, {@code -<i>-of-<n>}; both count). On an object store a committed file simply appears and an uncommitted one is
 * invisible, so a listing cannot tell a finished job from one still committing; the receipts can.
 * {@code report --mark-success} refuses a run while any receipt of the sinks its run info names is
 * missing. Names start with {@code _}, which Parquet, Spark, DuckDB and pandas readers skip.
 */
public final class CommitReceipts {
    private static final String PREFIX = "_committed-";

    private CommitReceipts() {}

    /** One file output of a run: its sink's name and directory (relative to the output). */
    public record FileSinkRef(String name, String directory) implements java.io.Serializable {}

    /**
     * {@code files} leaving receipts under {@code dir} for run {@code runId}, sink {@code name},
     * whose part files end in {@code suffix}.
     */
    static <T> Sink<T> around(FileSink<T> files, Path dir, String runId, String suffix, String name) {
        return new Receipted<>(files, new Path(dir, PREFIX + runId + "." + name).toString(),
                new FileSinkRef(name, dir.getName()), dir.toString(), RunOutput.committedPartFiles(runId, suffix));
    }

    /** The run's file outputs in {@code env} (each leaves receipts), for the run info. */
    public static List<FileSinkRef> sinks(StreamExecutionEnvironment env) {
        List<FileSinkRef> out = new ArrayList<>();
        for (Transformation<?> t : env.getTransformations()) {
            if (t instanceof SinkTransformation<?, ?> s && s.getSink() instanceof Receipted<?> r) {
                out.add(r.ref);
            }
        }
        return out;
    }

    /** Whether {@code fileName} is a receipt of run {@code runId} (for its clean-up). */
    public static boolean isReceipt(String fileName, String runId) {
        return receiptPattern(runId).matcher(fileName).matches();
    }

    private static Pattern receiptPattern(String runId) {
        // a sink name has no '.', so run "a" never claims the receipts of run "a.b"
        return Pattern.compile(Pattern.quote(PREFIX + runId + ".") + "([^.]+)-(\\d+)-of-(\\d+)");
    }

    /**
     * What keeps the file outputs {@code sinks} of run {@code runId} under {@code root} from
     * counting as committed: one line per sink with receipts missing; empty when all are there.
     */
    public static List<String> missing(Path root, String runId, Collection<FileSinkRef> sinks) throws IOException {
        FileSystem fs = root.getFileSystem();
        Pattern pattern = receiptPattern(runId);
        List<String> problems = new ArrayList<>();
        Map<String, List<FileSinkRef>> byDir = new TreeMap<>();
        for (FileSinkRef s : sinks) {
            byDir.computeIfAbsent(s.directory(), d -> new ArrayList<>()).add(s);
        }
        for (Map.Entry<String, List<FileSinkRef>> dir : byDir.entrySet()) {
            Path path = new Path(root, dir.getKey());
            FileStatus[] listed = fs.exists(path) ? fs.listStatus(path) : null;
            Map<String, TreeSet<Integer>> seen = new TreeMap<>();
            Map<String, Integer> of = new TreeMap<>();
            for (FileStatus f : listed == null ? new FileStatus[0] : listed) {
                Matcher m = pattern.matcher(f.getPath().getName());
                if (m.matches()) {
                    seen.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(Integer.parseInt(m.group(2)));
                    of.put(m.group(1), Integer.parseInt(m.group(3)));
                }
            }
            for (FileSinkRef s : dir.getValue()) {
                TreeSet<Integer> got = seen.getOrDefault(s.name(), new TreeSet<>());
                Integer n = of.get(s.name());
                if (n == null) {
                    problems.add(s.name() + " (" + s.directory() + "/): no committer subtask has finished");
                } else if (got.size() < n) {
                    problems.add(s.name() + " (" + s.directory() + "/): " + got.size() + " of " + n
                            + " committer subtasks have finished");
                }
            }
        }
        return problems;
    }

    /** {@link FileSink} as it is, plus the receipts in its post-commit topology. */
    private static final class Receipted<T> implements Sink<T>, SupportsWriterState<T, FileWriterBucketState>,
            SupportsWriterState.WithCompatibleState, SupportsCommitter<FileSinkCommittable>,
            SupportsPreCommitTopology<FileSinkCommittable, FileSinkCommittable>,
            SupportsPostCommitTopology<FileSinkCommittable>, SupportsConcurrentExecutionAttempts {
        private static final long serialVersionUID = 1L;

        private final FileSink<T> files;
        private final String receiptPrefix;
        private final FileSinkRef ref;
        private final String dir;
        private final String partFiles;

        Receipted(FileSink<T> files, String receiptPrefix, FileSinkRef ref, String dir, String partFiles) {
            this.files = files;
            this.receiptPrefix = receiptPrefix;
            this.ref = ref;
            this.dir = dir;
            this.partFiles = partFiles;
        }

        @Override
        public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
            return files.createWriter(context);
        }

        @Override
        public StatefulSinkWriter<T, FileWriterBucketState> restoreWriter(WriterInitContext context,
                Collection<FileWriterBucketState> states) throws IOException {
            return files.restoreWriter(context, states);
        }

        @Override
        public SimpleVersionedSerializer<FileWriterBucketState> getWriterStateSerializer() {
            return files.getWriterStateSerializer();
        }

        @Override
        public Collection<String> getCompatibleWriterStateNames() {
            return files.getCompatibleWriterStateNames();
        }

        @Override
        public Committer<FileSinkCommittable> createCommitter(CommitterInitContext context) throws IOException {
            return files.createCommitter(context);
        }

        @Override
        public SimpleVersionedSerializer<FileSinkCommittable> getCommittableSerializer() {
            return files.getCommittableSerializer();
        }

        @Override
        public DataStream<CommittableMessage<FileSinkCommittable>> addPreCommitTopology(
                DataStream<CommittableMessage<FileSinkCommittable>> committables) {
            return files.addPreCommitTopology(committables);
        }

        @Override
        public SimpleVersionedSerializer<FileSinkCommittable> getWriteResultSerializer() {
            return files.getWriteResultSerializer();
        }

        @Override
        public void addPostCommitTopology(DataStream<CommittableMessage<FileSinkCommittable>> committed) {
            StreamExecutionEnvironment env = committed.getExecutionEnvironment();
            // as the committer decides when it commits the rest: at end of input, or on the final checkpoint
            boolean onCheckpoints = env.getCheckpointConfig().isCheckpointingEnabled()
                    && env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE) != RuntimeExecutionMode.BATCH;
            // one subtask after all committers: its input ends only when every committer has
            // finished, so one receipt vouches for all of them; P subtasks would be P more tasks
            // to deploy in the job's tail, after the committers (a region of their own)
            committed.global()
                    .transform(ref.name() + ": receipts", TypeInformation.of(Void.class),
                            new ReceiptWriter(receiptPrefix, ref.name(), onCheckpoints, committed.getParallelism(),
                                    dir, partFiles))
                    .uid(ref.name() + "-receipts")
                    .setParallelism(1)
                    .setMaxParallelism(1);
        }
    }

    /**
     * Writes the receipt once the committers before it are done (its input ends when the last of
     * them finishes): at {@code finish()} without checkpointing (a committer commits at its end of
     * input, before it finishes); with checkpointing, at {@code close()} after a checkpoint
     * completed past {@code finish()} (a committer commits the rest on its final checkpoint, before
     * it finishes).
     *
     * <p>Without checkpointing (BATCH) every file is committed at the end, so the committables the
     * committers pass on name every part file this run's sink should hold. A TaskManager lost while
     * the committers ran makes Flink re-run the writers (their committables were on it), which
     * write the same rows into new part files that the committers commit again, beside the files a
     * committer had already committed: first, this deletes this run's part files of this sink that
     * the final committers did not commit. Only when their report is complete (as many committables
     * as their summaries announce, each with its path); the receipt says how many it removed.
     */
    static final class ReceiptWriter extends AbstractStreamOperator<Void>
            implements OneInputStreamOperator<CommittableMessage<FileSinkCommittable>, Void> {
        private static final long serialVersionUID = 1L;
        private static final Logger LOG = LoggerFactory.getLogger(ReceiptWriter.class);

        private final String receiptPrefix;
        private final String sink;
        private final boolean onCheckpoints;
        private final int committers;
        private final String dir;
        private final String partFiles;
        private transient boolean finished;
        private transient boolean checkpointAfterFinish;
        private transient Set<String> committedFiles;
        private transient long announced;
        private transient long received;
        private transient boolean unnamed;

        ReceiptWriter(String receiptPrefix, String sink, boolean onCheckpoints, int committers, String dir,
                String partFiles) {
            this.receiptPrefix = receiptPrefix;
            this.sink = sink;
            this.onCheckpoints = onCheckpoints;
            this.committers = committers;
            this.dir = dir;
            this.partFiles = partFiles;
        }

        @Override
        public void open() throws Exception {
            super.open();
            committedFiles = new HashSet<>();
        }

        @Override
        public void processElement(StreamRecord<CommittableMessage<FileSinkCommittable>> element) {
            if (onCheckpoints) { // committed checkpoint by checkpoint: nothing to hold
                return;
            }
            CommittableMessage<FileSinkCommittable> message = element.getValue();
            if (message instanceof CommittableSummary<FileSinkCommittable> summary) {
                announced += summary.getNumberOfCommittables();
            } else if (message instanceof CommittableWithLineage<FileSinkCommittable> committed) {
                received++;
                FileSinkCommittable c = committed.getCommittable();
                if (c.hasPendingFile()) {
                    Path file = c.getPendingFile().getPath();
                    if (file == null) {
                        unnamed = true;
                    } else {
                        committedFiles.add(file.getName());
                    }
                }
            }
        }

        @Override
        public void finish() throws Exception {
            super.finish();
            finished = true;
            if (!onCheckpoints) {
                write(removeEarlierAttempts());
            }
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            super.notifyCheckpointComplete(checkpointId);
            if (finished) {
                checkpointAfterFinish = true;
            }
        }

        @Override
        public void close() throws Exception {
            if (checkpointAfterFinish) {
                write(-1);
            }
            super.close();
        }

        /** BATCH: deletes the part files no final committer committed; how many (0 when unsure). */
        private int removeEarlierAttempts() throws IOException {
            if (unnamed || received != announced || committedFiles.isEmpty()) {
                if (unnamed || received != announced) {
                    LOG.warn("{}: the committers reported {} of {} committables{}; part files of earlier"
                            + " attempts, if any, are left", sink, received, announced, unnamed ? " (some unnamed)" : "");
                }
                return 0;
            }
            Path directory = new Path(dir);
            FileSystem fs = directory.getFileSystem();
            Pattern run = Pattern.compile(partFiles);
            int removed = 0;
            for (FileStatus f : fs.listStatus(directory)) {
                String name = f.getPath().getName();
                if (!f.isDir() && run.matcher(name).matches() && !committedFiles.contains(name)) {
                    fs.delete(f.getPath(), false);
                    removed++;
                }
            }
            if (removed > 0) {
                LOG.warn("{}: removed {} part files that an earlier attempt committed (a TaskManager was"
                        + " lost while the committers ran; its writers' rows were written again)", sink, removed);
            }
            return removed;
        }

        /** The receipt; {@code removed} < 0: not counted (checkpointing). */
        private void write(int removed) throws IOException {
            int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            int subtasks = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
            Path path = new Path(receiptPrefix + "-" + subtask + "-of-" + subtasks);
            String json = "{\"sink\":\"" + sink + "\",\"subtask\":" + subtask + ",\"subtasks\":" + subtasks
                    + ",\"committers\":" + committers
                    + (removed >= 0 ? ",\"files\":" + committedFiles.size() + ",\"removedEarlierAttempts\":" + removed : "")
                    + ",\"committedAtMillis\":" + System.currentTimeMillis() + "}\n";
            try (OutputStream out = path.getFileSystem().create(path, FileSystem.WriteMode.OVERWRITE)) {
                out.write(json.getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
