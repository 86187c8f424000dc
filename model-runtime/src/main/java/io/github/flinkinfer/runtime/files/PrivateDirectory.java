package io.github.flinkinfer.runtime.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * An owner-only cache directory ({@code rwx------}): created so if absent, refused when it is a
 * symlink, owned by another user or writable by others, so no other user can plant a cached file.
 */
public final class PrivateDirectory {
    private PrivateDirectory() {}

    /** {@code dir}, created owner-only when absent, after checking it is private to this user. */
    public static Path of(Path dir) throws IOException {
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            if (posix) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(dir);
            }
        }
        if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(dir + " is not a plain directory");
        }
        if (posix) {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
            String owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
            if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)
                    || !owner.equals(System.getProperty("user.name"))) {
                throw new IOException(dir + " must be owned by " + System.getProperty("user.name")
                        + " and writable by its owner only (owner " + owner + ", "
                        + PosixFilePermissions.toString(perms) + ")");
            }
        }
        return dir;
    }

    /** {@code <java.io.tmpdir>/<prefix>-<user>}: one directory per user of the machine. */
    public static Path defaultFor(String prefix) {
        return Path.of(System.getProperty("java.io.tmpdir"), prefix + "-" + System.getProperty("user.name", "user"));
    }
}
