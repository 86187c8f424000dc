package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.deploy.DeployFiles.Named;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The shaded job jar (built by {@code package}) holds the entry class every manifest names, and
 * is thin: no built-in model and no Hadoop inside (the TaskManagers find the models, the cluster
 * provides Hadoop; docs/operations.md, "Model distribution").
 */
class JobJarITCase {
    /** The bound for the job jar every {@code flink run} uploads. */
    private static final long MAX_BYTES = 80L * 1000 * 1000;

    @Test
    void jobJarIsThinWithoutModelsOrHadoop() throws Exception {
        java.nio.file.Path path = StandaloneCluster.jobJar();
        assertThat(java.nio.file.Files.size(path)).as("job jar bytes").isLessThanOrEqualTo(MAX_BYTES);
        try (JarFile jar = new JarFile(path.toFile())) {
            assertThat(jar.stream().map(java.util.jar.JarEntry::getName))
                    .noneMatch(n -> n.endsWith(".onnx") && !n.startsWith("models/")) // the 4 KB spam head stays
                    .noneMatch(n -> n.startsWith("org/apache/hadoop/"))
                    .contains("models/artifacts.properties");
        }
    }

    @Test
    void entryClassOfEveryManifestIsInTheJobJar() throws Exception {
        try (JarFile jar = new JarFile(StandaloneCluster.jobJar().toFile())) {
            String mainClass = jar.getManifest().getMainAttributes().getValue("Main-Class");
            for (Named job : DeployFiles.flinkJobs()) {
                String entryClass = job.spec().path("job").path("entryClass").asText();
                assertThat(jar.getEntry(entryClass.replace('.', '/') + ".class")).as("%s", job).isNotNull();
                assertThat(entryClass).as("%s", job).isEqualTo(mainClass);
            }
        }
    }
}
