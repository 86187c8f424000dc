package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.errors.NonRecoverableLoadException;
import io.github.flinkinfer.operators.errors.UnreadableInputException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Opening corpus files, the one way: on the driver before submission ({@link #check}) and in the
 * reading subtasks ({@link #openInSubtask}). A file that cannot be opened (missing, denied, a store
 * without credentials) is an {@link UnreadableInputException}, one line naming it; in a subtask
 * it fails the job without restarts, since no restart reads it.
 *
 * <pre>{@code
 * InputFiles.check(spec.input().files());           // driver: O(inputs) requests
 * InputStream in = InputFiles.openInSubtask(split.path(), () -> fs.open(split.path()));
 * }</pre>
 */
public final class InputFiles {
    private InputFiles() {}

    /** An open that may fail with an {@link IOException}. */
    @FunctionalInterface
    public interface Opening<T> {
        T open() throws IOException;
    }

    /**
     * The driver's pre-flight over {@code --input}: each named file, and the first file of each
     * named directory, is looked up and opened once, so a missing object, a denied file or a store
     * without credentials is one line before anything is submitted. O(inputs) requests, never
     * O(files) or O(records): the other files of a directory are opened by their readers
     * ({@link #openInSubtask}), which fail the job the same way.
     */
    public static void check(List<String> inputs) {
        for (String input : inputs) {
            Path path = new Path(input);
            try {
                FileSystem fs = path.getFileSystem();
                FileStatus status = fs.getFileStatus(path);
                Optional<Path> file = status.isDir() ? firstFile(fs, path) : Optional.of(path);
                if (file.isPresent()) {
                    fs.open(file.get()).close();
                }
            } catch (IOException e) {
                throw new UnreadableInputException(input, e);
            }
        }
    }

    /** The first visible file of {@code dir} (readers skip names starting with '.' or '_'). */
    private static Optional<Path> firstFile(FileSystem fs, Path dir) throws IOException {
        FileStatus[] entries = fs.listStatus(dir);
        if (entries == null) {
            throw new FileNotFoundException(dir.toString());
        }
        return Arrays.stream(entries).filter(s -> !s.isDir())
                .map(FileStatus::getPath)
                .filter(p -> !p.getName().startsWith(".") && !p.getName().startsWith("_"))
                .min(Comparator.comparing(Path::toString));
    }

    /**
     * Runs a reader's {@code opening} of {@code file}; a failure fails the job without restarts
     * ({@link NonRecoverableLoadException}), and the driver reports it as its own pre-flight does.
     */
    public static <T> T openInSubtask(Path file, Opening<T> opening) {
        return NonRecoverableLoadException.guard(() -> {
            try {
                return opening.open();
            } catch (IOException e) {
                throw new UnreadableInputException(file.toString(), e);
            }
        });
    }
}
