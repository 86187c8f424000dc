package io.github.flinkinfer.jobs.testutils;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.io.ByteRangeEnumerator;
import io.github.flinkinfer.jobs.io.FileInputs;
import io.github.flinkinfer.jobs.io.ParsedInput;
import io.github.flinkinfer.jobs.spec.InputConfig;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * An input read by the job's own sources and parsers ({@link FileInputs}) and nothing after them,
 * on the test's MiniCluster in BATCH: each document as a number the test packs (its position, id
 * and reader subtask), each error row as {@code "reason position"}, sorted.
 *
 * <pre>{@code
 * InputReads.Read split = InputReads.read(in, 4, null, new InputReads.ByOffset(), LINES);
 * }</pre>
 */
public final class InputReads {
    private InputReads() {}

    /** The tagged documents, in arrival order, and the sorted error rows. */
    public record Read(long[] docs, List<String> errors) {}

    /**
     * Reads {@code in} at {@code parallelism} with byte ranges of {@code splitSize} (null: sized
     * from the input), each document through {@code tag}; at most {@code max} documents.
     */
    public static Read read(InputConfig in, int parallelism, MemorySize splitSize, MapFunction<Document, Long> tag,
            int max) throws Exception {
        Configuration conf = new Configuration();
        if (splitSize != null) {
            conf.set(ByteRangeEnumerator.SPLIT_SIZE, splitSize);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(parallelism);
        ParsedInput input = FileInputs.read(env, in);
        CloseableIterator<Long> tagged = input.documents().map(tag).collectAsync();
        CloseableIterator<ErrorRecord> failed = input.errors().get(0).collectAsync();
        env.executeAsync("read-" + parallelism);
        long[] docs = new long[max];
        int n = 0;
        try (tagged) {
            while (tagged.hasNext()) {
                docs[n++] = tagged.next();
            }
        }
        List<String> errors = new ArrayList<>();
        try (failed) {
            failed.forEachRemaining(e -> errors.add(e.reason + " " + e.source));
        }
        errors.sort(null);
        return new Read(Arrays.copyOf(docs, n), errors);
    }

    /**
     * Asserts that every one of {@code readers} reader subtasks (the low 3 bits of a tag) read
     * documents of {@code split}, that {@code whole} was read by one reader, and that both hold
     * the same documents ({@code withoutReader}: a tag less its reader, compared sorted) and
     * errors; returns {@code split}'s documents less their reader, sorted.
     */
    public static long[] assertSplitReadsAsWhole(Read split, Read whole, int readers, LongUnaryOperator withoutReader) {
        long[] perReader = new long[readers];
        for (long doc : split.docs()) {
            perReader[(int) (doc & 7)]++;
        }
        assertThat(Arrays.stream(perReader).boxed().toList()).as("documents per reader subtask").allMatch(n -> n > 0);
        assertThat(Arrays.stream(whole.docs()).map(d -> d & 7).distinct()).as("unsplit: one reader").containsExactly(0L);
        long[] docs = Arrays.stream(split.docs()).map(withoutReader).sorted().toArray();
        assertThat(docs).isEqualTo(Arrays.stream(whole.docs()).map(withoutReader).sorted().toArray());
        assertThat(split.errors()).isEqualTo(whole.errors());
        return docs;
    }

    /**
     * A tag of a document and the reader subtask that read it (the parser and this tag are chained
     * to their reader). Splits are handed out on request, so on a loaded machine the readers that
     * start first could take every split before the last one asks, and the test of "every reader
     * reads" would fail by timing. Each subtask therefore holds its first document until every
     * subtask of its read has opened (at most a minute): the early readers hold one split each
     * until then, and the late ones find the rest. The gate is per instance (the MiniCluster runs
     * in the test's JVM).
     */
    public abstract static class ReaderTag extends RichMapFunction<Document, Long> {
        private static final Map<String, CountDownLatch> OPENED = new ConcurrentHashMap<>();

        private final String read = UUID.randomUUID().toString();
        private transient CountDownLatch opened;

        @Override
        public void open(OpenContext context) {
            int readers = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
            opened = OPENED.computeIfAbsent(read, r -> new CountDownLatch(readers));
            opened.countDown();
        }

        @Override
        public final Long map(Document doc) throws InterruptedException {
            if (opened != null) {
                opened.await(1, TimeUnit.MINUTES); // then on: the assertions say what went wrong
                opened = null;
            }
            return tag(doc) << 3 | getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        }

        /** The document's tag, below 2^61; the reader subtask goes in the low 3 bits. */
        protected abstract long tag(Document doc);
    }

    /**
     * Tags a document of a line or CSV input with its byte offset, the number in its id after the
     * first char, and the subtask that read it: {@code offset << 23 | id << 3 | subtask}.
     */
    public static final class ByOffset extends ReaderTag {
        @Override
        protected long tag(Document doc) {
            long offset = Long.parseLong(doc.source.substring(doc.source.lastIndexOf('@') + 1));
            long id = Long.parseLong(doc.id.substring(1));
            return offset << 20 | id;
        }
    }

    /** A {@link ByOffset} tag less its reader subtask: {@code offset << 20 | id}. */
    public static final LongUnaryOperator OFFSET_AND_ID = d -> (d >>> 23) << 20 | ((d >>> 3) & ((1 << 20) - 1));

    /**
     * Asserts that the sorted {@link #OFFSET_AND_ID}s are those of the records {@code good} picks,
     * record {@code i} with id number {@code i} at {@code offsets[i]}.
     */
    public static void assertAtOffsets(long[] byId, long[] offsets, java.util.function.IntPredicate good) {
        int n = 0;
        for (int i = 0; i < offsets.length; i++) {
            if (good.test(i)) {
                assertThat(byId[n] >>> 20).as("record %d's offset", i).isEqualTo(offsets[i]);
                assertThat(byId[n] & ((1 << 20) - 1)).isEqualTo(i);
                n++;
            }
        }
        assertThat(byId).hasSize(n);
    }
}
