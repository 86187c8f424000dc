package io.github.flinkinfer.jobs.io;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.chunk.ContentHash;
import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.local.LocalDataOutputStream;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Embedding Parquet encodings side by side, interleaved in one JVM (run by hand, not a test):
 * {@code [rounds]}. The rows are the bundled sample's real all-MiniLM-L6-v2 embeddings with the
 * job's other columns, written 5 times over (10,000 rows) per variant and round into a local
 * file; the timer is around {@code addElement} of every row and {@code finish}. Prints µs per row
 * and bytes per row (file size / rows), per round and the medians. {@code before} is the writer
 * as it was (no compression, PLAIN floats, no dictionary).
 */
public final class ParquetWriteRounds {
    private ParquetWriteRounds() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        List<InferenceResult> rows = sampleRows();
        Map<String, BulkWriter.Factory<InferenceResult>> variants = new LinkedHashMap<>();
        variants.put("before", new RecordApiParquetWriter(CompressionCodecName.UNCOMPRESSED, false, false, true));
        variants.put("zstd+dict", new RecordApiParquetWriter(CompressionCodecName.ZSTD, false, true, true));
        variants.put("bss+zstd+dict", new RecordApiParquetWriter(CompressionCodecName.ZSTD, true, true, true));
        variants.put("zstd+dict, no vector stats", new RecordApiParquetWriter(CompressionCodecName.ZSTD, false, true, false));
        variants.put("bss+zstd+dict, no vector stats (record API)", new RecordApiParquetWriter());
        variants.put("pages: bss+zstd, no vector stats", new EmbeddingParquetWriter());
        Path dir = Files.createTempDirectory("parquet-write-rounds");
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        for (int r = -1; r < rounds; r++) {
            StringBuilder line = new StringBuilder(r < 0 ? "warm-up" : "round " + (r + 1));
            for (var v : variants.entrySet()) {
                File file = dir.resolve(v.getKey() + ".parquet").toFile();
                file.delete();
                long t0 = System.nanoTime();
                try (LocalDataOutputStream out = new LocalDataOutputStream(file)) {
                    BulkWriter<InferenceResult> w = v.getValue().create(out);
                    for (int k = 0; k < 5; k++) {
                        for (InferenceResult row : rows) {
                            w.addElement(row);
                        }
                    }
                    w.finish();
                }
                double us = (System.nanoTime() - t0) / 1e3 / (5.0 * rows.size());
                double bytes = file.length() / (5.0 * rows.size());
                line.append(String.format("  %s %.1f µs %.0f B", v.getKey(), us, bytes));
                if (r >= 0) {
                    results.computeIfAbsent(v.getKey(), k -> new ArrayList<>()).add(new double[] {us, bytes});
                }
            }
            System.out.println(line);
        }
        System.out.println("median per row (write µs, file bytes):");
        for (var e : results.entrySet()) {
            System.out.printf("  %-32s %6.2f µs  %6.0f B%n", e.getKey(), median(e.getValue(), 0), median(e.getValue(), 1));
        }
    }

    /** The sample's rows as the job makes them: real embeddings, model, hashes, settings. */
    static List<InferenceResult> sampleRows() throws Exception {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2");
        RuntimeOptions options = RuntimeOptions.defaults().withMaxSequenceLength(128);
        List<String> lines = Files.readAllLines(Path.of("datasets/sample/wordnet-sample.jsonl"));
        ObjectMapper json = new ObjectMapper();
        List<InferenceResult> rows = new ArrayList<>();
        try (TextTokenizer tok = TextTokenizer.load(card, options);
                OnnxModel model = OnnxModel.load(card, options)) {
            for (int i = 0; i < lines.size(); i += 32) {
                List<int[]> batch = new ArrayList<>();
                List<InferenceResult> part = new ArrayList<>();
                for (int j = i; j < Math.min(lines.size(), i + 32); j++) {
                    var node = json.readTree(lines.get(j));
                    String text = node.get("text").asText();
                    TokenizedText t = tok.encode(text);
                    batch.add(t.ids());
                    InferenceResult r = new InferenceResult();
                    r.id = node.get("id").asText();
                    r.model = card.name;
                    r.modelVersion = card.version;
                    r.tokenCount = t.ids().length;
                    r.originalTokenCount = t.originalTokenCount();
                    r.truncated = t.truncated();
                    r.source = "wordnet-sample.jsonl:" + (j + 1);
                    r.chunk = ChunkRef.document(r.id, ContentHash.sha256(text), "max_length=128;overlong=TRUNCATE");
                    part.add(r);
                }
                float[][] vectors = model.infer(batch).vectors();
                for (int k = 0; k < part.size(); k++) {
                    part.get(k).vector = vectors[k];
                }
                rows.addAll(part);
            }
        }
        return rows;
    }

    private static double median(List<double[]> xs, int i) {
        double[] v = xs.stream().mapToDouble(x -> x[i]).sorted().toArray();
        return v[v.length / 2];
    }
}
