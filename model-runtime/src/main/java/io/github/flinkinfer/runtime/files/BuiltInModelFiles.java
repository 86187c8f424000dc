package io.github.flinkinfer.runtime.files;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Finds a built-in model's file ({@code classpath:} in its card) where a deployment keeps it, so
 * the job jar need not carry the models: on the classpath (the launcher and embedded run have the
 * model artifacts there), else in the models directory a deployment mounts (system property
 * {@value #DIR_PROPERTY} or environment variable {@value #DIR_ENV}; the extracted file or the
 * artifact's jar), else in the local Maven repository ({@code maven.repo.local}, default
 * {@code ~/.m2/repository}). The card's sha256 is checked on what is read, wherever it came from.
 */
public final class BuiltInModelFiles {
    /** System property naming the models directory. */
    public static final String DIR_PROPERTY = "flinkinfer.models.dir";
    /** Environment variable naming the models directory (the property wins). */
    public static final String DIR_ENV = "FLINKINFER_MODELS_DIR";

    private static final Properties ARTIFACTS = artifacts();

    private final ClassLoader loader;
    private final Path modelsDir;
    private final Path mavenRepository;

    BuiltInModelFiles(ClassLoader loader, Path modelsDir, Path mavenRepository) {
        this.loader = loader;
        this.modelsDir = modelsDir;
        this.mavenRepository = mavenRepository;
    }

    /** The places this JVM is configured to look in. */
    static BuiltInModelFiles configured() {
        String dir = System.getProperty(DIR_PROPERTY, System.getenv(DIR_ENV));
        String repo = System.getProperty("maven.repo.local");
        return new BuiltInModelFiles(BuiltInModelFiles.class.getClassLoader(),
                dir == null || dir.isBlank() ? null : Path.of(dir),
                repo == null || repo.isBlank() ? Path.of(System.getProperty("user.home"), ".m2", "repository") : Path.of(repo));
    }

    /** One found file: where it is, its size and its bytes. */
    interface Found {
        String where();

        long size() throws IOException;

        InputStream open() throws IOException;

        /** The file itself when it is a plain file (not an entry of a jar), else null. */
        default Path plainFile() {
            return null;
        }
    }

    /** The file {@code resource}, from the first place that has it; one line naming every place otherwise. */
    Found find(String modelName, String resource) {
        URL url = loader.getResource(resource);
        if (url != null) {
            return classpath(resource, url);
        }
        String artifact = ARTIFACTS.getProperty(resource);
        String[] gav = artifact == null ? null : artifact.split(":");
        String jarName = gav == null ? null : gav[1] + "-" + gav[2] + ".jar";
        List<String> looked = new ArrayList<>(List.of("the classpath"));
        if (modelsDir != null) {
            Path extracted = modelsDir.resolve(resource);
            if (Files.isRegularFile(extracted)) {
                return file(extracted);
            }
            looked.add(extracted.toString());
            if (jarName != null) {
                Path jar = modelsDir.resolve(jarName);
                Found inJar = inJar(jar, resource);
                if (inJar != null) {
                    return inJar;
                }
                looked.add(jar.toString());
            }
        } else {
            looked.add("no models directory (" + DIR_PROPERTY + " / " + DIR_ENV + " unset)");
        }
        if (gav != null) {
            Path jar = mavenRepository.resolve(gav[0].replace('.', '/')).resolve(gav[1]).resolve(gav[2]).resolve(jarName);
            Found inJar = inJar(jar, resource);
            if (inJar != null) {
                return inJar;
            }
            looked.add(jar.toString());
        }
        throw new ModelIntegrityException("Built-in model '" + modelName + "' file " + resource + " not found; looked in "
                + String.join(", ", looked)
                + (artifact == null ? "" : ". Mount the artifact " + artifact + " (or its extracted files) as the models directory"));
    }

    private static Found classpath(String resource, URL url) {
        return new Found() {
            @Override
            public String where() {
                return "classpath:" + resource;
            }

            @Override
            public long size() throws IOException {
                URLConnection connection = url.openConnection();
                connection.setUseCaches(false);
                return connection.getContentLengthLong();
            }

            @Override
            public InputStream open() throws IOException {
                URLConnection connection = url.openConnection();
                connection.setUseCaches(false); // a cached JarFile would stay open after the read
                return connection.getInputStream();
            }

            @Override
            public Path plainFile() {
                try {
                    return "file".equals(url.getProtocol()) ? Path.of(url.toURI()) : null;
                } catch (java.net.URISyntaxException e) {
                    return null;
                }
            }
        };
    }

    private static Found file(Path path) {
        return new Found() {
            @Override
            public String where() {
                return path.toString();
            }

            @Override
            public long size() throws IOException {
                return Files.size(path);
            }

            @Override
            public InputStream open() throws IOException {
                return Files.newInputStream(path);
            }

            @Override
            public Path plainFile() {
                return path;
            }
        };
    }

    /** The entry {@code resource} of the jar at {@code jar}, or null when there is no such jar or entry. */
    private static Found inJar(Path jar, String resource) {
        if (!Files.isRegularFile(jar)) {
            return null;
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry entry = zip.getEntry(resource);
            if (entry == null) {
                return null;
            }
            long size = entry.getSize();
            return new Found() {
                @Override
                public String where() {
                    return jar + "!/" + resource;
                }

                @Override
                public long size() {
                    return size;
                }

                @Override
                public InputStream open() throws IOException {
                    ZipFile open = new ZipFile(jar.toFile());
                    return new FilterInputStream(open.getInputStream(open.getEntry(resource))) {
                        @Override
                        public void close() throws IOException {
                            try {
                                super.close();
                            } finally {
                                open.close();
                            }
                        }
                    };
                }
            };
        } catch (IOException e) {
            throw new ModelIntegrityException("Cannot read " + jar + ": " + e, e);
        }
    }

    private static Properties artifacts() {
        Properties p = new Properties();
        try (InputStream in = BuiltInModelFiles.class.getClassLoader().getResourceAsStream("models/artifacts.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
