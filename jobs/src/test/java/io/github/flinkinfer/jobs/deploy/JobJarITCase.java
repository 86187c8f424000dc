package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.deploy.DeployFiles.Named;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The shaded job jar (built by {@code package}) holds the entry class every manifest names. */
class JobJarITCase {
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
