package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * BATCH keep-first on ids and positions (the default: decided on an id pass over the files, the
 * duplicates dropped before tokenize, with or without {@code --tokenize-parallelism})
 * against the dedupe before tokenization ({@code --duplicates keep_first_before_inference}; also
 * under a hybrid shuffle, in incremental runs and with chunking) on two files with duplicates within and across them,
 * a kept copy that fails tokenization and a dropped one that would: the same positions kept with
 * the same vectors, the same error rows (reason, message, input length and sha256), and a ledger
 * that reconciles with no duplicate inferred. {@code --duplicates allow} takes the same pipelined
 * exchange.
 */
class KeepFirstAfterInferenceITCase extends ClusterTestBase {
    private static final String LONG = "word ".repeat(80).trim();

    @Test
    void keepsTheSamePositionsAndWritesTheSameErrorRowsAsTheDedupeBeforeTokenization() throws Exception {
        Corpus c = writeCorpus();
        Run after = run("after");
        Run before = run("before", "--duplicates", "keep_first_before_inference");
        assertThat(before.ledgerDuplicatesInferred()).isZero(); // dropped before the model
        assertThat(after.ledgerDuplicatesInferred()).isZero(); // the id pass's filter is before tokenize too
        assertSameDedupe(after, before, c);
    }

    /**
     * With tokenize at a parallelism of its own (the GPU shape; 2 subtasks here, the test
     * cluster's slots), marks and tokens go over pipelined exchanges and the results are
     * rebalanced to as many filters and writers (TokenizeParallelismITCase checks the graph):
     * the same rows.
     */
    @Test
    void ownTokenizeSubtasksKeepTheSameRows() throws Exception {
        Corpus c = writeCorpus();
        Run after = run("after");
        Run own = run("own-stages", "--tokenize-parallelism", "2");
        assertSameDedupe(own, after, c);
        assertThat(own.ledgerDuplicatesInferred()).isEqualTo(after.ledgerDuplicatesInferred()).isZero();
        assertThat(own.summary().bound.tokenizeChained()).isFalse();
    }

    /**
     * A cluster that pipelines every BATCH exchange ({@code execution.batch-shuffle-mode:
     * ALL_EXCHANGES_PIPELINED}) gets the same rows: the id pass's keyed exchange becomes pipelined
     * too, and nothing waits on inference to decide. (Hybrid modes keep the dedupe before
     * tokenization: {@code RunOptionsTest}.)
     */
    @Test
    void aPipelinedShuffleModeKeepsTheSameRows() throws Exception {
        Corpus c = writeCorpus();
        Run blocking = run("blocking");
        org.apache.flink.configuration.Configuration conf = new org.apache.flink.configuration.Configuration();
        conf.set(org.apache.flink.configuration.ExecutionOptions.BATCH_SHUFFLE_MODE,
                org.apache.flink.api.common.BatchShuffleMode.ALL_EXCHANGES_PIPELINED);
        Run pipelined = run("pipelined", conf);
        assertSameDedupe(pipelined, blocking, c);
        assertThat(pipelined.ledgerDuplicatesInferred()).isEqualTo(blocking.ledgerDuplicatesInferred()).isZero();
    }

    /**
     * Files cut into byte ranges of 128 bytes (a few records each), read by both subtasks: the
     * id pass (a second read of the files) and inference's read see the same documents at the
     * same positions, so duplicates within a file, across its splits and across files are decided
     * as before, and the error rows of dropped copies (a dropped copy that is too long) are not
     * written while the kept copy's own error row is.
     */
    @Test
    void duplicatesAcrossSplitsAreDecidedAsBefore() throws Exception {
        Corpus c = writeCorpus();
        org.apache.flink.configuration.Configuration conf = new org.apache.flink.configuration.Configuration();
        conf.set(io.github.flinkinfer.jobs.io.ByteRangeEnumerator.SPLIT_SIZE,
                org.apache.flink.configuration.MemorySize.parse("128b"));
        Run after = run("split-after", conf);
        Run before = run("split-before", conf, "--duplicates", "keep_first_before_inference");
        assertSameDedupe(after, before, c);
        // the dropped too-long copy has its duplicate row only (run() refuses two rows at one position)
        assertThat(after.errors().get("file:" + c.a() + "@" + offsetOf(c.first(), "long-dropped", 2)))
                .startsWith("parse/duplicate_id");
        assertThat(after.ledgerDuplicatesInferred()).isZero();
        assertThat(after.summary().reconciliation.ok()).isTrue();
    }

    record Corpus(Path a, Path b, StringBuilder first, StringBuilder second) {}

    private Corpus writeCorpus() throws Exception {
        Path a = Files.createDirectories(tmp.resolve("a")).resolve("docs.jsonl");
        Path b = Files.createDirectories(tmp.resolve("b")).resolve("docs.jsonl");
        StringBuilder first = new StringBuilder();
        StringBuilder second = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            first.append(line("id-" + i, "document number " + i));
            if (i % 3 == 0) { // a later copy within the file, with another text
                first.append(line("id-" + i, "a second text for " + i));
            }
            if (i % 4 == 0) { // a copy in the other file (b sorts after a)
                second.append(line("id-" + i, "the copy in b of " + i));
            }
        }
        first.append(line("long-kept", LONG)).append(line("long-kept", "short copy"));
        first.append(line("long-dropped", "short original")).append(line("long-dropped", LONG));
        second.append(line("only-b", "only in b")).append(line("only-b", "twice in b"));
        Files.writeString(a, first.toString());
        Files.writeString(b, second.toString());
        return new Corpus(a, b, first, second);
    }

    private static void assertSameDedupe(Run after, Run before, Corpus c) {
        Path a = c.a();
        StringBuilder first = c.first();
        StringBuilder second = c.second();
        assertThat(after.kept()).isEqualTo(before.kept()).containsKey("long-dropped").doesNotContainKey("long-kept");
        assertThat(after.kept().get("id-0")).endsWith("/a/docs.jsonl@0"); // before its copies in a and b
        assertThat(after.kept().get("only-b")).endsWith("/b/docs.jsonl@" + offsetOf(second, "only-b", 1));
        assertThat(after.kept().get("long-dropped")).endsWith("/a/docs.jsonl@" + offsetOf(first, "long-dropped", 1));
        assertThat(after.vectors()).isEqualTo(before.vectors());
        assertThat(after.errors()).isEqualTo(before.errors());
        // which position each duplicate row names as kept: the same, except where the dedupe before
        // tokenization named a copy that it dropped later (3 copies arriving out of order); after
        // inference each row names the position really kept
        assertThat(after.keptAt().values()).allSatisfy(k -> assertThat(k).isIn(kept(after)));
        assertThat(before.keptAt()).allSatisfy((dup, k) -> {
            if (kept(before).contains(k)) {
                assertThat(after.keptAt()).containsEntry(dup, k);
            }
        });
        assertThat(after.errors().values()).filteredOn(e -> e.startsWith("parse/duplicate_id")).hasSize(14 + 10 + 3);
        assertThat(after.errors()).hasEntrySatisfying("file:" + a + "@" + offsetOf(first, "long-kept", 1),
                e -> assertThat(e).isEqualTo("tokenize/too_long")); // the kept copy's own error row
        assertThat(after.summary().succeeded).isEqualTo(before.summary().succeeded);
        assertThat(after.summary().failed).isEqualTo(before.summary().failed);
        assertThat(after.summary().duplicates).isEqualTo(before.summary().duplicates).isEqualTo(27);
    }

    @Test
    void allowRunsOverThePipelinedExchangeToo() throws Exception {
        Path a = Files.createDirectories(tmp.resolve("a")).resolve("docs.jsonl");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            lines.append(line("id-" + i, "document number " + i));
        }
        Files.writeString(a, lines.toString());
        Run allow = run("allow", "--duplicates", "allow");
        assertThat(allow.kept()).hasSize(50);
        assertThat(allow.errors()).isEmpty();
        assertThat(allow.summary().succeeded).isEqualTo(50);
        // with tokenize subtasks of its own, the results go to as many writers: the same rows
        Run split = run("allow-split", "--duplicates", "allow", "--tokenize-parallelism", "2");
        assertThat(split.kept()).isEqualTo(allow.kept());
        assertThat(split.vectors()).isEqualTo(allow.vectors());
        assertThat(split.summary().reconciliation.ok()).isTrue();
    }

    private static String line(String id, String text) {
        return "{\"id\":\"" + id + "\",\"text\":\"" + text + "\"}\n";
    }

    /** The byte offset of the {@code nth} record of {@code id} (its position, ASCII lines). */
    private static int offsetOf(StringBuilder file, String id, int nth) {
        String[] lines = file.toString().split("\n");
        for (int i = 0, seen = 0, offset = 0; i < lines.length; offset += lines[i].length() + 1, i++) {
            if (lines[i].contains("\"id\":\"" + id + "\"") && ++seen == nth) {
                return offset;
            }
        }
        throw new AssertionError(id);
    }

    /** kept: id → position of its row; errors: position → stage/reason (duplicates: + input length, sha256). */
    record Run(Map<String, String> kept, Map<String, String> vectors, Map<String, String> errors,
            Map<String, String> keptAt, RunSummary summary, long ledgerDuplicatesInferred) {}

    /** Positions of the kept documents: result rows, and error rows that are not duplicates. */
    private static java.util.Set<String> kept(Run r) {
        java.util.Set<String> all = new java.util.TreeSet<>(r.kept().values());
        r.errors().forEach((source, e) -> {
            if (!e.startsWith("parse/duplicate_id")) {
                all.add(source);
            }
        });
        return all;
    }

    private String inputs() {
        return Files.isDirectory(tmp.resolve("b")) ? tmp.resolve("a") + "," + tmp.resolve("b") : tmp.resolve("a").toString();
    }

    private Run run(String name, String... extra) throws Exception {
        return run(name, null, extra);
    }

    /** A run whose environment also gets {@code conf} (as a cluster's config.yaml would), when not null. */
    private Run run(String name, org.apache.flink.configuration.Configuration conf, String... extra) throws Exception {
        Path out = tmp.resolve(name);
        var options = Jobs.options(new String[] {
                "--input", inputs(), "--output", out.toString(),
                "--run-id", name, "--parallelism", "2", "--max-length", "16", "--overlong", "reject",
                "--max-error-rate", "1.0"}, extra);
        var env = options.environment();
        if (conf != null) {
            env.configure(conf);
        }
        RunSummary summary = io.github.flinkinfer.jobs.cli.EmbeddingJob.run(options, env);
        var rows = Outputs.embeddings(out);
        Map<String, String> kept = new TreeMap<>();
        Map<String, String> vectors = new TreeMap<>();
        rows.forEach((id, r) -> {
            kept.put(id, r.get("source").toString());
            vectors.put(id, Arrays.toString(Outputs.vector(r)));
        });
        List<JsonNode> errors = Outputs.jsonLines(out.resolve("errors"));
        Map<String, String> bySource = errors.stream().collect(Collectors.toMap(
                e -> e.get("source").asText(),
                e -> e.get("stage").asText() + "/" + e.get("reason").asText()
                        + (e.get("reason").asText().equals("duplicate_id")
                                ? " " + e.get("inputLength") + " " + e.get("inputSha256") : ""),
                (x, y) -> { throw new AssertionError("two error rows for one position: " + x + ", " + y); },
                TreeMap::new));
        Map<String, String> keptAt = new TreeMap<>();
        for (JsonNode e : errors) {
            if (e.get("reason").asText().equals("duplicate_id")) {
                keptAt.put(e.get("source").asText(), e.get("message").asText()
                        .replaceAll("^the record at (.*) has the same id and is kept$", "$1"));
            }
        }
        long inferred = io.github.flinkinfer.operators.ledger.RunLedger.fromJson(
                Files.readString(out.resolve("ledger-" + name + ".json"))).duplicatesInferred;
        return new Run(kept, vectors, bySource, keptAt, summary, inferred);
    }
}
