package dev.storh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * Finds the project's {@code shared/} folder (beside the checkout) and copies fixtures out of it.
 * Published in storh-core's test jar for the other modules' tests.
 */
public final class SharedFiles {

    private SharedFiles() {
    }

    /**
     * @return the {@code shared/} folder beside the repository checkout
     * @throws IllegalStateException when it cannot be found from the working directory
     */
    public static Path shared() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolveSibling("shared");
            if (Files.isDirectory(candidate.resolve("fixtures"))) {
                return candidate;
            }
            if (Files.isDirectory(p.resolve("shared").resolve("fixtures"))) {
                return p.resolve("shared");
            }
        }
        throw new IllegalStateException("shared/ not found beside " + Path.of("").toAbsolutePath());
    }

    /**
     * Copies the PHP fixture root into {@code target} (writable copies, as the fixture is read-only).
     *
     * @param target an empty folder
     * @return {@code target/app}, the folder holding the fixture's collections
     */
    public static Path copyPhpFixture(Path target) {
        Path source = shared().resolve("fixtures/php-storh-0.5.0/root");
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path dest = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                    dest.toFile().setWritable(true);
                } else {
                    Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
                    dest.toFile().setWritable(true);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
            Path source = app.resolve(collection);
            try (Stream<Path> walk = Files.walk(source)) {
                for (Path p : (Iterable<Path>) walk::iterator) {
                    Path dest = target.resolve(collection).resolve(source.relativize(p).toString());
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
        return target;
    }
}
