package io.github.flinkinfer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.bench.retrieval.RetrievalBench;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Both benchmark commands take {@code --out} from the mixin and write JSON and markdown there. */
class ResultFilesTest {

    @TempDir
    Path tmp;

    @Test
    void writesTheResultAsJsonAndMarkdownUnderOut() throws Exception {
        Bench bench = new Bench();
        new CommandLine(bench).parseArgs("--out", tmp.resolve("nested").toString());
        Path md = bench.results.write("bench-1", Map.of("docs", 3), "| docs |\n");

        assertThat(md).isEqualTo(tmp.resolve("nested/bench-1.md")).hasContent("| docs |");
        assertThat(new ObjectMapper().readValue(tmp.resolve("nested/bench-1.json").toFile(), Map.class))
                .isEqualTo(Map.of("docs", 3));
        assertThat(Files.readString(tmp.resolve("nested/bench-1.json"))).contains("\n  \"docs\"");
    }

    @Test
    void defaultsToDocsBenchmarksInEveryCommand() {
        Bench bench = new Bench();
        new CommandLine(bench).parseArgs();
        assertThat(bench.results.out).isEqualTo(Path.of("docs/benchmarks"));
        CommandLine retrieval = new CommandLine(new RetrievalBench());
        assertThat(retrieval.getCommandSpec().findOption("--out").defaultValue()).isEqualTo("docs/benchmarks");
    }
}
