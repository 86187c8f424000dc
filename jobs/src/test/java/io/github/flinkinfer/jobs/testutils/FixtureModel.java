package io.github.flinkinfer.jobs.testutils;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The benchmark fixture model (bench/fixture: a real ONNX graph with all-MiniLM-L6-v2's inputs
 * and output that costs the host about what a GPU's output copy does; each token's vector is a
 * table row, so a text's embedding does not depend on its batch), built into a directory for
 * ITCases that run many documents.
 *
 * <pre>{@code
 * Path card = FixtureModel.build(dir); // then embed --model <card> --max-length 128
 * }</pre>
 */
public final class FixtureModel {
    private FixtureModel() {}

    /** Builds the model and its card in {@code dir} (bench/fixture/build-fixture-model.sh); returns the card. */
    public static Path build(Path dir) throws IOException, InterruptedException {
        return build(dir, "lean");
    }

    /** {@link #build} of one of the script's graphs: {@code lean} (the default), {@code masked} or {@code pooled}. */
    public static Path build(Path dir, String graph) throws IOException, InterruptedException {
        Path script = Corpus.locate("bench/fixture/build-fixture-model.sh");
        ProcessBuilder build = new ProcessBuilder("bash", script.toString(), dir.toString()).redirectErrorStream(true);
        build.environment().put("FIXTURE_GRAPH", graph);
        Process p = build.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        Path card = dir.resolve("card.json");
        assertThat(Files.exists(card)).as(out).isTrue();
        return card;
    }
}
