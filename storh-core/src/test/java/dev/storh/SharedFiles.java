package dev.storh;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * The project's own test fixtures: the root written by the PHP original (storh 0.5.0) and its
 * recorded answers, carried in this module's test resources as
 * {@code fixtures/php-storh-0.5.0.zip} and unpacked once per JVM into a temporary folder.
 * Published in storh-core's test jar for the other modules' tests; nothing outside the
 * repository is read.
 */
public final class SharedFiles {

    private static final String FIXTURE_ZIP = "/fixtures/php-storh-0.5.0.zip";

    private static volatile Path unpacked;

    private SharedFiles() {
    }

    /**
     * @return a read-only-by-convention folder holding {@code fixtures/php-storh-0.5.0/root} and
     *         {@code fixtures/php-storh-0.5.0/expected.json}, unpacked from the test resources
     * @throws IllegalStateException when the fixture resource is missing from the class path
     */
    public static Path shared() {
        Path folder = unpacked;
        if (folder == null) {
            synchronized (SharedFiles.class) {
                folder = unpacked;
                if (folder == null) {
                    folder = unpack();
                    unpacked = folder;
                }
            }
        }
        return folder;
    }

    /** @return the original's recorded answers, {@code expected.json} */
    public static Path expectedAnswers() {
        return shared().resolve("fixtures/php-storh-0.5.0/expected.json");
    }

    private static Path unpack() {
        try (InputStream in = SharedFiles.class.getResourceAsStream(FIXTURE_ZIP)) {
            if (in == null) {
                throw new IllegalStateException("test resource " + FIXTURE_ZIP + " not on the class path");
            }
            Path target = Files.createTempDirectory("storh-fixtures-");
            Path fixtures = target.resolve("fixtures");
            Files.createDirectories(fixtures);
            try (ZipInputStream zip = new ZipInputStream(in)) {
                for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                    Path dest = fixtures.resolve(entry.getName()).normalize();
                    if (!dest.startsWith(fixtures)) {
                        throw new IllegalStateException("zip entry leaves the fixture folder: " + entry.getName());
                    }
                    if (entry.isDirectory()) {
                        Files.createDirectories(dest);
                    } else {
                        Files.createDirectories(dest.getParent());
                        Files.copy(zip, dest, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(target)));
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + FIXTURE_ZIP, e);
        }
    }

    private static void deleteQuietly(Path folder) {
        try (Stream<Path> walk = Files.walk(folder)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // best effort at JVM exit: the folder is under java.io.tmpdir
        }
    }

    /**
     * Copies the PHP fixture root into {@code target} (writable copies).
     *
     * @param target an empty folder
     * @return {@code target/app}, the folder holding the fixture's collections
     */
    public static Path copyPhpFixture(Path target) {
        Path source = shared().resolve("fixtures/php-storh-0.5.0/root");
        copyTree(source, target);
        return target.resolve("app");
    }

    /**
     * Copies some collections of the PHP fixture into {@code target} (a full copy of {@code cities}
     * is 4,450 files: copy only what a test changes).
     *
     * @param target an empty folder, used as the storage root
     * @param collections names under the fixture's {@code root/app}
     * @return {@code target}
     */
    public static Path copyPhpCollections(Path target, String... collections) {
        Path app = shared().resolve("fixtures/php-storh-0.5.0/root/app");
        for (String collection : collections) {
            copyTree(app.resolve(collection), target.resolve(collection));
        }
        return target;
    }

    private static void copyTree(Path source, Path target) {
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path dest = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
                }
                dest.toFile().setWritable(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
