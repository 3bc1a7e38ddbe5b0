package dev.storh.fs;

import dev.storh.StorageException;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;

/**
 * Crash-safe file writing: a new version is written to a temp file
 * in the target's own folder, fsynced, renamed over the target, and then the folder is fsynced,
 * so after a crash the target holds either the old or the new bytes, never a torn mix. A failed
 * write removes its temp file. Folders created on the way are fsynced together with their parents,
 * so a power loss cannot drop a fresh folder with its first file (the original's weak spot).
 *
 * <p>Stateless and thread-safe. All failures are {@link StorageException}s naming the path.
 */
public final class AtomicFiles {

    private static final SecureRandom RANDOM = new SecureRandom();

    private AtomicFiles() {
    }

    /**
     * Atomically replaces {@code target} with {@code bytes}, using the temp name
     * {@code .<file name>.<12 hex>.tmp} in the same folder.
     *
     * @param target the file to write; its folder is created when missing
     * @param bytes the complete new content
     * @throws StorageException on any failure; the temp file is removed and the target unchanged
     */
    public static void writeAtomic(Path target, byte[] bytes) {
        StoreFiles files = LocalFiles.unrooted();
        writeAtomic(files, files.nameOf(target), bytes);
    }

    /**
     * {@link #writeAtomic(Path, byte[])} through a byte seam.
     *
     * @param files the seam
     * @param target the name to write; its folder is created when missing
     * @param bytes the complete new content
     * @throws StorageException as {@link #writeVia(StoreFiles, String, String, byte[])}
     */
    public static void writeAtomic(StoreFiles files, String target, byte[] bytes) {
        byte[] random = new byte[6];
        RANDOM.nextBytes(random);
        Path targetPath = files.path(target);
        String parent = parentName(target);
        ensureDirectory(files, parent);
        String temp = "." + targetPath.getFileName() + "." + HexFormat.of().formatHex(random) + ".tmp";
        writeVia(files, parent.isEmpty() ? temp : parent + "/" + temp, target, bytes);
    }

    /**
     * Writes {@code bytes} to {@code temp}, fsyncs it, renames it to {@code target} and fsyncs the
     * target's folder. Both paths must be in the same, existing folder.
     *
     * @param temp the temp file to create (truncated if present)
     * @param target the file to replace
     * @param bytes the complete new content
     * @throws StorageException {@code "Could not open temporary storage file for writing: <temp>"},
     *     {@code "Could not write storage file: <temp>"}, {@code "Could not sync storage file: <temp>"}
     *     or {@code "Could not atomically replace storage file: <target>"}; the temp file is removed
     */
    public static void writeVia(Path temp, Path target, byte[] bytes) {
        StoreFiles files = LocalFiles.unrooted();
        writeVia(files, files.nameOf(temp), files.nameOf(target), bytes);
    }

    /**
     * {@link #writeVia(Path, Path, byte[])} through a byte seam: the four commit points (temp
     * write, fsync, rename, folder fsync) are the seam's {@code create/write}, {@code sync},
     * {@code rename} and {@code syncDirectory}.
     *
     * @param files the seam
     * @param temp the temp file's name (truncated if present)
     * @param target the name to replace, in the same folder
     * @param bytes the complete new content
     * @throws StorageException as {@link #writeVia(Path, Path, byte[])}, or
     *     {@code "Could not sync storage directory: <folder>"} when the seam fails the folder fsync
     *     (the target then already holds the new bytes); the temp file is removed
     */
    public static void writeVia(StoreFiles files, String temp, String target, byte[] bytes) {
        writeSynced(files, temp, bytes);
        try {
            files.rename(temp, target);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(files, temp);
            throw new StorageException("Could not atomically replace storage file: " + files.path(target)
                    + ReadOnlyFileSystem.hint(e), e);
        }
        syncDirectory(files, parentName(target));
    }

    /**
     * Creates or truncates {@code temp}, writes all bytes and fsyncs the file; on failure the file
     * is removed.
     *
     * @param temp the file to write
     * @param bytes the content
     * @throws StorageException naming the file
     */
    public static void writeSynced(Path temp, byte[] bytes) {
        StoreFiles files = LocalFiles.unrooted();
        writeSynced(files, files.nameOf(temp), bytes);
    }

    /**
     * {@link #writeSynced(Path, byte[])} through a byte seam.
     *
     * @param files the seam
     * @param temp the file's name
     * @param bytes the content
     * @throws StorageException naming the file
     */
    public static void writeSynced(StoreFiles files, String temp, byte[] bytes) {
        writeAndSync(files, temp, bytes, false);
    }

    /**
     * Appends bytes to a file and fsyncs it.
     *
     * @param path the file, created when missing (its folder too)
     * @param bytes what to append; empty writes nothing
     * @throws StorageException {@code "Could not open storage file for appending: <path>"} or a write error
     */
    public static void append(Path path, byte[] bytes) {
        ensureDirectory(parentOf(path));
        StoreFiles files = LocalFiles.unrooted();
        append(files, files.nameOf(path), bytes);
    }

    /**
     * Appends bytes to a file in an existing folder and fsyncs it, through a byte seam.
     *
     * @param files the seam
     * @param name the file, created when missing
     * @param bytes what to append
     * @throws StorageException {@code "Could not open storage file for appending: <path>"} or
     *     {@code "Could not write storage file: <path>"}
     */
    public static void append(StoreFiles files, String name, byte[] bytes) {
        writeAndSync(files, name, bytes, true);
    }

    /**
     * Opens a file (truncating a temp file, or for appending), writes the bytes and fsyncs it. A
     * temp file that fails is removed, and its error names the failed step (write or sync); an
     * appended file is left as it is, and any failure after the open is a write error.
     */
    private static void writeAndSync(StoreFiles files, String name, byte[] bytes, boolean append) {
        StoreFiles.Output out;
        try {
            out = append ? files.append(name) : files.create(name);
        } catch (IOException | RuntimeException e) {
            String opening = append ? "Could not open storage file for appending: " : "Could not open temporary storage file for writing: ";
            throw new StorageException(opening + files.path(name) + ReadOnlyFileSystem.hint(e), e);
        }
        String step = "write";
        try (out) {
            out.write(bytes);
            step = append ? step : "sync";
            out.sync();
        } catch (IOException | RuntimeException e) {
            if (!append) {
                deleteQuietly(files, name);
            }
            throw new StorageException("Could not " + step + " storage file: " + files.path(name), e);
        }
    }

    /**
     * Creates a folder and its missing parents, then fsyncs each new folder's parent so the new
     * entries survive a power loss.
     *
     * @param dir the folder
     * @return whether anything was created
     * @throws StorageException {@code "Could not create storage directory: <dir>"}, e.g. when a
     *     regular file stands where a folder is needed
     */
    public static boolean ensureDirectory(Path dir) {
        if (Files.isDirectory(dir)) {
            return false;
        }
        Deque<Path> missing = new ArrayDeque<>();
        for (Path p = dir.toAbsolutePath(); p != null && !Files.isDirectory(p); p = p.getParent()) {
            missing.push(p);
        }
        boolean created = false;
        while (!missing.isEmpty()) {
            Path p = missing.pop();
            try {
                Files.createDirectory(p);
                created = true;
                syncDirectory(parentOf(p));
            } catch (FileAlreadyExistsException e) {
                if (!Files.isDirectory(p)) {
                    throw new StorageException("Could not create storage directory: " + dir
                            + " (not a directory: " + p + ")", e);
                }
            } catch (IOException | RuntimeException e) {
                throw new StorageException("Could not create storage directory: " + dir + ReadOnlyFileSystem.hint(e), e);
            }
        }
        if (created) {
            syncDirectory(dir);
        }
        return created;
    }

    /**
     * {@link #ensureDirectory(Path)} through a byte seam: each missing folder from the top down is
     * created and its parent fsynced, then the folder itself. The seam's root is created when
     * missing, but its own parent is not the seam's to fsync (a caller that creates a store folder
     * fsyncs that parent through a seam of its own).
     *
     * @param files the seam
     * @param dir the folder's name, {@code ""} for the root
     * @return whether anything was created
     * @throws StorageException {@code "Could not create storage directory: <dir>"}, e.g. when a
     *     regular file stands where a folder is needed
     */
    public static boolean ensureDirectory(StoreFiles files, String dir) {
        Deque<String> missing = new ArrayDeque<>();
        try {
            for (String p = dir; p != null; p = p.isEmpty() ? null : parentName(p)) {
                java.util.Optional<StoreFiles.Entry> entry = files.stat(p);
                if (entry.isPresent() && entry.get().kind() == StoreFiles.Entry.Kind.DIRECTORY) {
                    break;
                }
                if (entry.isPresent()) {
                    throw new StorageException("Could not create storage directory: " + files.path(dir)
                            + " (not a directory: " + files.path(p) + ")");
                }
                missing.push(p);
            }
            if (missing.isEmpty()) {
                return false;
            }
            while (!missing.isEmpty()) {
                String p = missing.pop();
                files.createDirectories(p);
                if (!p.isEmpty()) {
                    files.syncDirectory(parentName(p));
                }
            }
            files.syncDirectory(dir);
            return true;
        } catch (IOException e) {
            throw new StorageException("Could not create storage directory: " + files.path(dir) + ReadOnlyFileSystem.hint(e), e);
        }
    }

    /**
     * Creates a store's own folder when missing, and fsyncs it and its parent, so a new store
     * survives a power loss.
     *
     * @param parent a seam on the folder that holds the store's folder
     * @param name the store folder's name in it
     * @param files the store's own seam
     * @throws StorageException {@code "Could not create storage directory: <dir>"}
     */
    public static void ensureStoreFolder(StoreFiles parent, String name, StoreFiles files) {
        try {
            java.util.Optional<StoreFiles.Entry> entry = files.stat("");
            if (entry.isPresent() && entry.get().kind() == StoreFiles.Entry.Kind.DIRECTORY) {
                return;
            }
            parent.createDirectories(name);
            parent.syncDirectory("");
            files.syncDirectory("");
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not create storage directory: " + files.root()
                    + ReadOnlyFileSystem.hint(e), e);
        }
    }

    /**
     * Best-effort fsync of a folder; never throws (a missing folder is fine), as the original does.
     *
     * @param dir the folder
     */
    public static void syncDirectory(Path dir) {
        if (dir == null) {
            return;
        }
        LocalFiles.unrooted().syncDirectory(dir.toString());
    }

    /**
     * Fsyncs a folder through a byte seam. The local seam never fails here (as
     * {@link #syncDirectory(Path)}); a failing seam's error is passed on.
     *
     * @param files the seam
     * @param dir the folder's name, {@code ""} for the root
     * @throws StorageException {@code "Could not sync storage directory: <folder>"}
     */
    public static void syncDirectory(StoreFiles files, String dir) {
        try {
            files.syncDirectory(dir);
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not sync storage directory: " + files.path(dir), e);
        }
    }

    /**
     * Moves a file within one file system atomically, then fsyncs both folders.
     *
     * @param source the file to move
     * @param target the new name (replaced if present)
     * @throws StorageException naming both paths
     */
    public static void moveAtomic(Path source, Path target) {
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new StorageException("Could not atomically move " + source + " to " + target
                    + ": not on one file system", e);
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not atomically move " + source + " to " + target + ReadOnlyFileSystem.hint(e), e);
        }
        syncDirectory(parentOf(target));
        syncDirectory(parentOf(source));
    }

    /**
     * {@link #moveAtomic(Path, Path)} through a byte seam: the seam's atomic rename, then a fsync
     * of both folders.
     *
     * @param files the seam
     * @param source the name to move
     * @param target the new name (replaced if present), in an existing folder
     * @throws StorageException {@code "Could not atomically move <source> to <target>"}, or
     *     {@code "Could not sync storage directory: <folder>"} (the move then happened)
     */
    public static void moveAtomic(StoreFiles files, String source, String target) {
        try {
            files.rename(source, target);
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not atomically move " + files.path(source) + " to " + files.path(target)
                    + ReadOnlyFileSystem.hint(e), e);
        }
        syncDirectory(files, parentName(target));
        if (!parentName(source).equals(parentName(target))) {
            syncDirectory(files, parentName(source));
        }
    }

    /**
     * @param path a file to remove
     * @return whether it existed and was removed; errors are swallowed
     */
    public static boolean deleteQuietly(Path path) {
        try {
            return Files.deleteIfExists(path);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Deletes a file and fsyncs its folder.
     *
     * @param path the file
     * @return false when it did not exist
     * @throws IOException when it exists and cannot be removed
     */
    public static boolean deleteDurably(Path path) throws IOException {
        StoreFiles files = LocalFiles.unrooted();
        return deleteDurably(files, files.nameOf(path));
    }

    /**
     * Deletes a file and fsyncs its folder, through a byte seam.
     *
     * @param files the seam
     * @param name the file
     * @return false when it did not exist
     * @throws IOException when it exists and cannot be removed, or its folder cannot be synced
     */
    public static boolean deleteDurably(StoreFiles files, String name) throws IOException {
        try {
            files.delete(name);
        } catch (NoSuchFileException e) {
            return false;
        }
        files.syncDirectory(parentName(name));
        return true;
    }

    /**
     * @param files the seam
     * @param name a file to remove
     * @return whether it existed and was removed; errors are swallowed
     */
    public static boolean deleteQuietly(StoreFiles files, String name) {
        try {
            files.delete(name);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Deletes a folder and everything below it, deepest first, not following symbolic links; a
     * missing folder is fine. Not atomic: after a failure part of the tree may remain.
     *
     * @param root the folder (or file) to remove
     * @return whether anything existed
     * @throws StorageException {@code "Could not delete folder: <path>"} naming the entry that failed
     */
    public static boolean deleteTree(Path root) {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (java.util.stream.Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new StorageException("Could not delete folder: " + root + " (at " + p + ")", e);
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new StorageException("Could not delete folder: " + root, e);
        }
        return true;
    }

    /**
     * @param name a relative name
     * @return the name of its folder, {@code ""} for the root
     */
    public static String parentName(String name) {
        Path parent = Path.of(name).getParent();
        if (parent == null) {
            return Path.of(name).isAbsolute() ? name : "";
        }
        return parent.toString();
    }

    private static Path parentOf(Path p) {
        Path parent = p.toAbsolutePath().getParent();
        return parent == null ? p.toAbsolutePath() : parent;
    }
}
