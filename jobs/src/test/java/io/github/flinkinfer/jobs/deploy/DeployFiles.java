package io.github.flinkinfer.jobs.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.github.flinkinfer.jobs.testutils.Corpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The YAML files under {@code deploy/} and the Flink Kubernetes Operator resources in them. */
final class DeployFiles {
    static final Path DEPLOY = Corpus.locate("deploy/docker/Dockerfile").getParent().getParent();
    private static final YAMLMapper YAML = new YAMLMapper();

    private DeployFiles() {}

    /** Every {@code .yaml}/{@code .yml} file under deploy/, build outputs excluded. */
    static List<Path> yamlFiles() {
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            return files.filter(p -> p.toString().matches(".*\\.ya?ml"))
                    .filter(p -> !DEPLOY.relativize(p).toString().matches("(.*/)?target/.*"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The documents of a (possibly multi-document) YAML file. */
    static List<JsonNode> documents(Path file) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    docs.add(doc);
                }
            }
        }
        return docs;
    }

    /** Every {@code FlinkDeployment} under deploy/ that runs a job. */
    static List<Named> flinkJobs() throws IOException {
        return resources("FlinkDeployment").stream().filter(r -> r.spec().has("job")).toList();
    }

    /** Every Kubernetes resource of this {@code kind} under deploy/, in file order. */
    static List<Named> resources(String kind) throws IOException {
        List<Named> out = new ArrayList<>();
        for (Path file : yamlFiles()) {
            for (JsonNode doc : documents(file)) {
                if (doc.path("kind").asText().equals(kind)) {
                    out.add(new Named(DEPLOY.relativize(file).toString(), doc));
                }
            }
        }
        return out;
    }

    /** The one resource of this {@code kind} in {@code file} (relative to deploy/). */
    static Named resource(String file, String kind) throws IOException {
        return resources(kind).stream().filter(r -> r.file().equals(file)).findFirst().orElseThrow();
    }

    /** A resource and the file it came from, for assertion messages. */
    record Named(String file, JsonNode resource) {
        JsonNode spec() {
            return resource.path("spec");
        }

        String conf(String key) {
            return spec().path("flinkConfiguration").path(key).asText(null);
        }

        List<String> args() {
            List<String> args = new ArrayList<>();
            spec().path("job").path("args").forEach(a -> args.add(a.asText()));
            return args;
        }

        @Override
        public String toString() {
            return file;
        }
    }
}
