package io.github.flinkinfer.jobs.testutils;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.DirectoryBasedPluginFinder;
import org.apache.flink.core.plugin.PluginConfig;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.TransientApiMetadata;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.PageSet;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.domain.StorageType;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real S3 endpoint for tests: S3Proxy on a free localhost port over an in-memory blob store,
 * with one bucket. As a JUnit extension it also installs Flink's own S3 file system in this JVM,
 * loaded as a plugin and configured through Flink configuration as a user would, so the driver
 * and the MiniCluster's TaskManagers (same JVM, one static {@link FileSystem}) both reach it.
 *
 * <pre>{@code
 * @RegisterExtension static final S3Server S3 = new S3Server();
 * S3.put("corpus.jsonl", file);
 * MiniClusters.embed(Jobs.options("--input", S3.uri("corpus.jsonl"), "--output", S3.uri("out"), ...));
 * S3.keys("out/metrics/");
 * }</pre>
 */
public final class S3Server implements BeforeAllCallback, AfterAllCallback, AutoCloseable {
    public static final String BUCKET = "bucket";
    /** Flink distributions keep file systems here; jobs/pom.xml copies flink-s3-fs-hadoop in. */
    public static final Path PLUGINS = Corpus.locate("jobs/pom.xml").resolveSibling("target/flink-plugins");

    private static final String ACCESS_KEY = "s3-test-access";
    private static final String SECRET_KEY = "s3-test-secret";

    private final boolean installsFileSystem;
    private BlobStoreContext context;
    private S3Proxy proxy;

    /** As an extension: starts the server and installs Flink's S3 file system in this JVM. */
    public S3Server() {
        this(true);
    }

    private S3Server(boolean installsFileSystem) {
        this.installsFileSystem = installsFileSystem;
    }

    /**
     * As an extension: starts the server only, for tests whose runs reach it from their own
     * process ({@code bin/flink-inference} with a {@code config.yaml}), leaving this JVM's file systems alone.
     */
    public static S3Server serverOnly() {
        return new S3Server(false);
    }

    /** Starts the server and creates the bucket (idempotent). */
    public S3Server start() throws Exception {
        if (proxy != null) {
            return this;
        }
        // By its metadata, not its name: a name lookup instantiates every provider on the class
        // path, S3Proxy's Azure one included (its SDK is left out).
        context = ContextBuilder.newBuilder(new TransientApiMetadata())
                .credentials(ACCESS_KEY, SECRET_KEY)
                .build(BlobStoreContext.class);
        store().createContainerInLocation(null, BUCKET);
        proxy = S3Proxy.builder()
                .blobStore(store())
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        proxy.start();
        for (int i = 0; i < 500 && !"STARTED".equals(proxy.getState()); i++) {
            Thread.sleep(10);
        }
        if (!"STARTED".equals(proxy.getState())) {
            throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
        }
        return this;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    /** The Flink options a user sets for an S3-compatible store (config.yaml or -D). */
    public Configuration configuration() {
        return Configuration.fromMap(Map.of(
                "s3.endpoint", endpoint().toString(),
                "s3.path.style.access", "true",
                "s3.access-key", ACCESS_KEY,
                "s3.secret-key", SECRET_KEY));
    }

    /** {@code s3://bucket/<key>}. */
    public String uri(String key) {
        return "s3://" + BUCKET + "/" + key;
    }

    /**
     * Initializes Flink's file systems in this JVM with {@link #configuration()} and the plugins
     * under {@link #PLUGINS}, as a Flink process does at start-up.
     */
    public void installFlinkFileSystem() throws IOException {
        if (!Files.isDirectory(PLUGINS.resolve("s3-fs-hadoop"))) {
            throw new IllegalStateException("No S3 file system plugin in " + PLUGINS
                    + ": run the jobs module's process-test-resources phase (any mvn verify does)");
        }
        Configuration conf = configuration();
        FileSystem.initialize(conf, new DefaultPluginManager(
                new DirectoryBasedPluginFinder(PLUGINS).findPlugins(),
                PluginConfig.fromConfiguration(conf).getAlwaysParentFirstPatterns()));
    }

    public void put(String key, Path file) {
        store().putBlob(BUCKET, store().blobBuilder(key).payload(file.toFile()).build());
    }

    /** Puts each file of {@code dir} (not its subdirectories) under {@code prefix}{@code /}. */
    public void putDirectory(String prefix, Path dir) {
        try (var files = Files.list(dir)) {
            files.filter(Files::isRegularFile).forEach(f -> put(prefix + "/" + f.getFileName(), f));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Keys of the objects under {@code prefix}, sorted (directory markers left out). */
    public List<String> keys(String prefix) {
        List<String> keys = new ArrayList<>();
        String marker = null;
        do {
            ListContainerOptions options = ListContainerOptions.Builder.prefix(prefix).recursive();
            PageSet<? extends StorageMetadata> page =
                    store().list(BUCKET, marker == null ? options : options.afterMarker(marker));
            for (StorageMetadata m : page) {
                if (m.getType() == StorageType.BLOB && !m.getName().endsWith("/")) {
                    keys.add(m.getName());
                }
            }
            marker = page.getNextMarker();
        } while (marker != null);
        return keys.stream().sorted().toList();
    }

    /** Puts a directory marker, the empty object {@code <dir>/} that S3A's mkdirs writes. */
    public void putDirectoryMarker(String dir) {
        store().putBlob(BUCKET, store().blobBuilder(dir.endsWith("/") ? dir : dir + "/").payload(new byte[0]).build());
    }

    /** Directory markers (empty objects named {@code <dir>/}) under {@code prefix}, sorted. */
    public List<String> directoryMarkers(String prefix) {
        List<String> markers = new ArrayList<>();
        for (StorageMetadata m : store().list(BUCKET, ListContainerOptions.Builder.prefix(prefix).recursive())) {
            if (m.getName().endsWith("/") && m.getType() != StorageType.RELATIVE_PATH) {
                markers.add(m.getName());
            }
        }
        return markers.stream().sorted().toList();
    }

    public byte[] read(String key) {
        Blob blob = store().getBlob(BUCKET, key);
        if (blob == null) {
            throw new AssertionError("no object " + key + " in bucket " + BUCKET);
        }
        try (InputStream in = blob.getPayload().openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void delete(String key) {
        store().removeBlob(BUCKET, key);
    }

    /** Copies every object under {@code prefix} to {@code dir}, keeping the rest of its key as path. */
    public Path copyTo(String prefix, Path dir) {
        return copyTo(prefix, dir, key -> true);
    }

    /** Copies the objects under {@code prefix} whose key passes {@code filter}, as {@link #copyTo(String, Path)}. */
    public Path copyTo(String prefix, Path dir, Predicate<String> filter) {
        try {
            for (String key : keys(prefix).stream().filter(filter).toList()) {
                Path file = dir.resolve(key.substring(prefix.length()).replaceFirst("^/", ""));
                Files.createDirectories(file.getParent());
                Files.write(file, read(key));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    private BlobStore store() {
        return context.getBlobStore();
    }

    @Override
    public void beforeAll(ExtensionContext ignored) throws Exception {
        start();
        if (installsFileSystem) {
            installFlinkFileSystem();
        }
    }

    @Override
    public void afterAll(ExtensionContext ignored) throws Exception {
        close();
    }

    /** Stops the server and puts this JVM's file systems back to Flink's defaults. */
    @Override
    public void close() throws Exception {
        FileSystem.initialize(new Configuration(), null);
        if (proxy != null) {
            proxy.stop();
            proxy = null;
        }
        if (context != null) {
            context.close();
            context = null;
        }
    }
}
