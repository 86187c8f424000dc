package io.github.flinkinfer.bench.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.cli.Main;
import io.github.flinkinfer.jobs.io.RunOutput;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.io.LocalInputFile;

/**
 * One {@code flink-inference embed} run as a user starts it: the CLI in a fresh JVM on the
 * embedded cluster, so every model pays the same start-up. Afterwards its Parquet rows and its
 * {@code report-<run-id>.json} are read back.
 */
public record EmbeddingRun(Map<String, float[]> vectors, JsonNode report) {

    /** Runs {@code embed --input input --output output --run-id runId} plus {@code options}. */
    public static EmbeddingRun execute(Path input, Path output, String runId, List<String> options)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-") || a.startsWith("-Dlog4j") || a.startsWith("-Xmx")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-Dai.djl.offline=true", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "embed", "--input", input.toString(), "--output", output.toString(),
                "--run-id", runId, "--progress-seconds", "0"));
        cmd.addAll(options);
        Path log = output.resolveSibling(runId + ".log");
        Files.createDirectories(output.getParent());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("embed run " + runId + " failed; its output is in " + log);
        }
        RunOutput run = RunOutput.of(output.toString(), runId);
        JsonNode report = new ObjectMapper().readTree(run.read(run.report("json")));
        return new EmbeddingRun(read(run), report);
    }

    /** The run's committed Parquet rows: id to embedding. */
    static Map<String, float[]> read(RunOutput run) throws IOException {
        Map<String, float[]> vectors = new HashMap<>();
        for (org.apache.flink.core.fs.Path part : run.committedParts("embeddings")) {
            if (!part.getName().endsWith(".parquet")) {
                continue;
            }
            try (ParquetReader<GenericRecord> reader = AvroParquetReader
                    .<GenericRecord>builder(new LocalInputFile(Path.of(part.toUri()))).build()) {
                for (GenericRecord r; (r = reader.read()) != null; ) {
                    List<?> list = (List<?>) r.get("embedding");
                    float[] v = new float[list.size()];
                    for (int i = 0; i < v.length; i++) {
                        v[i] = ((Number) list.get(i)).floatValue();
                    }
                    if (vectors.put(r.get("id").toString(), v) != null) {
                        throw new IllegalStateException("duplicate id " + r.get("id") + " in " + part);
                    }
                }
            }
        }
        return vectors;
    }
}
