package io.github.flinkinfer.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where a benchmark writes its result ({@code --out}): the result as indented JSON and its
 * markdown report side by side, under one name. A picocli mixin of every benchmark command.
 *
 * <pre>{@code
 * @Mixin ResultFiles results = new ResultFiles();
 * Path md = results.write("bench-" + stamp, result, BenchReport.markdown(result));
 * }</pre>
 */
public final class ResultFiles {

    @Option(names = "--out", defaultValue = "docs/benchmarks", description = "Where results are written.")
    Path out;

    /** Writes {@code <name>.json} and {@code <name>.md} under {@code --out}; returns the markdown's path. */
    public Path write(String name, Map<String, Object> result, String markdown) throws IOException {
        Files.createDirectories(out);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(out.resolve(name + ".json").toFile(), result);
        Path md = out.resolve(name + ".md");
        Files.writeString(md, markdown);
        return md;
    }
}
