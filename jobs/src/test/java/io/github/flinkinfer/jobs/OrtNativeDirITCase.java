package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Launcher;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --ort-native-dir}: 300 documents of the sample run by {@code bin/flink-inference} (its own JVM: ONNX
 * Runtime loads once per JVM) with ORT's CPU natives extracted from the onnxruntime jar to a
 * directory writes the same vectors, bit for bit, as the run with the jar's own; the process
 * mapped ORT from that directory, and {@code doctor} checks the directory.
 */
class OrtNativeDirITCase {
    private static final String NATIVES = "/ai/onnxruntime/native/linux-x64/";

    @TempDir Path tmp;

    @Test
    void theSampleFromAnExtractedDirectoryWritesTheSameVectors() throws Exception {
        Path natives = Files.createDirectories(tmp.resolve("ort-natives"));
        for (String lib : new String[] {"libonnxruntime.so", "libonnxruntime4j_jni.so"}) {
            try (InputStream in = OrtNativeDirITCase.class.getResourceAsStream(NATIVES + lib)) {
                Files.copy(in, natives.resolve(lib));
            }
        }

        // 300 of the sample's documents: the same bits from either load, in a third of the time
        Path corpus = Corpus.writeJsonl(tmp.resolve("sample-300.jsonl"), Corpus.sample(300));
        Launcher.Result jar = embed(corpus, "from-jar");
        Launcher.Result dir = embed(corpus, "from-dir", "--ort-native-dir", natives.toString(), "--verbose");

        assertThat(jar.exitCode()).as("stderr:%n%s", jar.stderr()).isZero();
        assertThat(dir.exitCode()).as("stderr:%n%s", dir.stderr()).isZero();
        assertThat(dir.stdout()).as("ORT as this process mapped it (--verbose logs to stdout)")
                .contains("loaded from " + natives.resolve("libonnxruntime.so") + " (--ort-native-dir " + natives + ")");
        Map<String, GenericRecord> expected = Outputs.embeddings(tmp.resolve("from-jar"));
        Map<String, GenericRecord> actual = Outputs.embeddings(tmp.resolve("from-dir"));
        assertThat(expected).hasSize(300);
        assertThat(actual).containsOnlyKeys(expected.keySet());
        expected.forEach((id, row) -> assertThat(bits(Outputs.vector(actual.get(id))))
                .as("vector of %s", id).containsExactly(bits(Outputs.vector(row))));
    }

    @Test
    void doctorNamesWhatTheDirectoryLacks() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));

        Launcher.Result r = Launcher.run(tmp, Map.of(), "doctor", "--device", "cuda", "--ort-native-dir", empty.toString());

        assertThat(r.exitCode()).as("stdout:%n%s%nstderr:%n%s", r.stdout(), r.stderr()).isEqualTo(1);
        assertThat(r.stdout()).contains("ONNX Runtime natives: " + empty + " (missing [libonnxruntime.so, libonnxruntime4j_jni.so])",
                "--ort-native-dir " + empty + " lacks libonnxruntime.so, libonnxruntime4j_jni.so",
                empty + " has no libonnxruntime_providers_cuda.so");
    }

    @Test
    void doctorOnThisCpuMachineSaysNoDriverAndListsTheNeededLibraries() throws Exception {
        Launcher.Result r = Launcher.run(tmp, Map.of(), "doctor");

        assertThat(r.exitCode()).as("stdout:%n%s%nstderr:%n%s", r.stdout(), r.stderr()).isEqualTo(1);
        assertThat(r.stdout()).contains("device: cuda:0", "onnxruntime_gpu 1.23.2", "libcublasLt.so.12",
                "libcudart.so.12", "libcudnn.so.9", "NVIDIA driver: none",
                "verdict: the CUDA execution provider cannot load on cuda:0:",
                "  - no NVIDIA driver / no GPU on this node");
    }

    private Launcher.Result embed(Path corpus, String runId, String... extra) throws Exception {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("embed", "--input",
                corpus.toString(), "--output", tmp.resolve(runId).toString(), "--run-id", runId,
                "--progress-seconds", "0"));
        args.addAll(java.util.List.of(extra));
        return Launcher.run(tmp, Map.of(), args.toArray(String[]::new));
    }

    private static int[] bits(float[] v) {
        int[] b = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = Float.floatToRawIntBits(v[i]);
        }
        return b;
    }
}
