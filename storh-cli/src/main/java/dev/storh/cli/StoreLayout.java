package dev.storh.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tells which engine a folder holds from the files the engines write, without opening anything
 * (opening creates files and runs crash recovery).
 *
 * <pre>
 * engine  marker files                                   spec
 * doc     data/ or .storh/indexes/ (or only .storh/)
 * log     manifest.jsonc or segments/
 * queue   queue.log
 * </pre>
 *
 * A {@code .storh/} folder alone counts as an empty document collection only when no log marker
 * is present, since a log keeps its writer markers in {@code .storh/writers/} too. A folder can
 * hold more than one engine: the original's {@code compact} wrote log files into document
 * collections.
 */
final class StoreLayout {

    /** Folders below the root searched by {@link #list(Path)} (partitioned logs sit at depth 3). */
    static final int MAX_DEPTH = 3;

    /** One engine found by {@link #list(Path)}. */
    record Found(String name, Engine engine, long files, long bytes) {

        /**
         * @return {@code {name, engine, files, bytes}}
         */
        Map<String, Object> toMap() {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("name", name);
            map.put("engine", engine.word());
            map.put("files", files);
            map.put("bytes", bytes);
            return map;
        }
    }

    private StoreLayout() {
    }

    /**
     * @param dir a folder
     * @return the engines whose marker files the folder holds, possibly none
     */
    static Set<Engine> detect(Path dir) {
        Set<Engine> found = EnumSet.noneOf(Engine.class);
        if (Files.isRegularFile(dir.resolve("queue.log"))) {
            found.add(Engine.QUEUE);
        }
        if (Files.isRegularFile(dir.resolve("manifest.jsonc")) || Files.isDirectory(dir.resolve("segments"))) {
            found.add(Engine.LOG);
        }
        if (Files.isDirectory(dir.resolve("data")) || Files.isDirectory(dir.resolve(".storh").resolve("indexes"))
                || (found.isEmpty() && Files.isDirectory(dir.resolve(".storh")))) {
            found.add(Engine.DOC);
        }
        return found;
    }

    /**
     * @param engine an engine found in {@code dir}
     * @param dir the folder
     * @return the marker files that made {@link #detect} say so, e.g. {@code "manifest.jsonc, segments/"}
     */
    static String evidence(Engine engine, Path dir) {
        List<String> names = switch (engine) {
            case QUEUE -> List.of("queue.log");
            case LOG -> List.of("manifest.jsonc", "segments/");
            case DOC -> List.of("data/", ".storh/indexes/", ".storh/");
        };
        List<String> present = new ArrayList<>();
        for (String n : names) {
            Path p = dir.resolve(n.endsWith("/") ? n.substring(0, n.length() - 1) : n);
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                present.add(n);
                if (engine == Engine.DOC) {
                    break;
                }
            }
        }
        return String.join(", ", present);
    }

    /**
     * Lists every engine folder under {@code root}, up to {@link #MAX_DEPTH} folders deep, without
     * descending into an engine's own folder or into hidden folders. Names are relative to the
     * root with {@code /} separators, sorted; a folder holding two engines is listed once per engine.
     *
     * @param root an existing folder
     * @return what was found, with each folder's file count and total file size in bytes
     * @throws UncheckedIOException when a folder cannot be listed
     */
    static List<Found> list(Path root) {
        List<Found> found = new ArrayList<>();
        collect(root, "", 1, found);
        found.sort(Comparator.comparing(Found::name).thenComparing(Found::engine));
        return found;
    }

    private static void collect(Path dir, String prefix, int depth, List<Found> found) {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && !p.getFileName().toString().startsWith(".")) {
                    children.add(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not list " + dir, e);
        }
        for (Path child : children) {
            String name = prefix + child.getFileName();
            Set<Engine> engines = detect(child);
            if (engines.isEmpty()) {
                if (depth < MAX_DEPTH) {
                    collect(child, name + "/", depth + 1, found);
                }
                continue;
            }
            long[] size = size(child);
            for (Engine e : engines) {
                found.add(new Found(name, e, size[0], size[1]));
            }
        }
    }

    /**
     * @return {files, bytes} of the regular files under {@code dir}; files vanishing meanwhile are skipped
     */
    private static long[] size(Path dir) {
        long[] total = new long[2];
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        total[0]++;
                        total[1] += attrs.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("Could not measure " + dir, e);
        }
        return total;
    }
}
