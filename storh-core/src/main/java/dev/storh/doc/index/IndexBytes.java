package dev.storh.doc.index;

import dev.storh.fs.StoreFiles;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reads of the index package, all through the collection's byte seam ({@link StoreFiles}):
 * index files are addressed by the paths {@link IndexLayout} computes and reached by their
 * relative names, so another backend (blob storage) serves them too. Stateless.
 */
final class IndexBytes {

    private IndexBytes() {
    }

    /**
     * @param files the collection's byte seam
     * @param file an index file
     * @return its bytes, or {@code null} when nothing has the name
     * @throws IOException when it cannot be read
     */
    static byte[] readOrNull(StoreFiles files, Path file) throws IOException {
        return files.readIfExists(files.nameOf(file));
    }

    /**
     * @param files the collection's byte seam
     * @param file a JSONC file holding one object (a manifest)
     * @return the decoded object, or {@code null} when the file is missing, cannot be read or does
     *     not hold a JSON object
     */
    static Map<String, Object> readObjectOrNull(StoreFiles files, Path file) {
        try {
            byte[] bytes = readOrNull(files, file);
            return bytes == null ? null : Jsonc.decodeObject(bytes);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * @param files the collection's byte seam
     * @param file an index file
     * @return what the seam knows about it, empty when nothing has the name or it cannot be read
     */
    static Optional<StoreFiles.Entry> stat(StoreFiles files, Path file) {
        try {
            return files.stat(files.nameOf(file));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * @param files the collection's byte seam
     * @param file an index file
     * @return its size in bytes, 0 when it is absent or cannot be read
     */
    static long sizeOf(StoreFiles files, Path file) {
        return stat(files, file).filter(e -> e.kind() == StoreFiles.Entry.Kind.FILE).map(StoreFiles.Entry::size).orElse(0L);
    }

    /**
     * @param files the collection's byte seam
     * @param path an index file or folder
     * @return whether something readable has the name
     */
    static boolean exists(StoreFiles files, Path path) {
        return stat(files, path).isPresent();
    }

    /**
     * @param files the collection's byte seam
     * @param dir an index folder
     * @return whether it is a folder
     */
    static boolean isDirectory(StoreFiles files, Path dir) {
        return stat(files, dir).filter(e -> e.kind() == StoreFiles.Entry.Kind.DIRECTORY).isPresent();
    }

    /**
     * @param files the collection's byte seam
     * @param file an index file
     * @return its version ({@link StoreFiles#version}), {@code null} when absent or unreadable
     */
    /**
     * The matchers of the few globs {@link #list} is given (constants), compiled once: a glob compiles to a
     * regular expression, which costs more than the listing it filters when a store opens.
     */
    private static final Map<String, PathMatcher> MATCHERS = new java.util.concurrent.ConcurrentHashMap<>();

    static String version(StoreFiles files, Path file) {
        try {
            return files.version(files.nameOf(file)).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * @param files the collection's byte seam
     * @param dir an index folder
     * @param glob a glob over entry names ({@link java.nio.file.FileSystem#getPathMatcher} syntax)
     * @return the paths of its matching entries, sorted by name; empty when the folder is missing
     *     or not a folder
     * @throws IOException when it cannot be listed
     */
    static List<Path> list(StoreFiles files, Path dir, String glob) throws IOException {
        PathMatcher matcher = MATCHERS.computeIfAbsent(glob, g -> FileSystems.getDefault().getPathMatcher("glob:" + g));
        List<String> names;
        try {
            names = new ArrayList<>(files.list(files.nameOf(dir)));
        } catch (NoSuchFileException | NotDirectoryException e) {
            return List.of();
        }
        names.sort(null);
        List<Path> out = new ArrayList<>();
        for (String name : names) {
            if (matcher.matches(Path.of(name))) {
                out.add(dir.resolve(name));
            }
        }
        return out;
    }

    /**
     * @param o a decoded JSON member
     * @return the strings of a JSON array, in order (other items skipped); empty for anything else
     */
    static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        if (o instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof String s) {
                    out.add(s);
                }
            }
        }
        return out;
    }
}
