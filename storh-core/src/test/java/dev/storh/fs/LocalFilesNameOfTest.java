package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LocalFiles#nameOf} gives what {@code root.relativize(path)} gives, for every form of root and path. */
class LocalFilesNameOfTest {

    private static final List<String> ROOTS = List.of("/tmp/store", "/tmp/store/", "/tmp/./store", "/tmp/a/../store",
            "store", "store/c", "./store", "../store", "/", ".", "/tmp/st", "/tmp/store.d");

    private static final List<String> BELOW = List.of("", "data", "data/5a", "data/5a/x.jsonc", ".storh/indexes/manifest.jsonc",
            "./data", "data/./5a", "data/../data/5a", "..", "../other", "a..b/.c/..d", ".hidden", "data/.", "data/..");

    /** @return the name, or the type of what was thrown */
    private static String outcome(java.util.function.Supplier<String> name) {
        try {
            return name.get();
        } catch (RuntimeException e) {
            return "thrown " + e.getClass().getName();
        }
    }

    @Test
    void readsTheNameOffTheTextOnlyWhereRelativizeWouldGiveTheSame() {
        for (String rootText : ROOTS) {
            Path root = Path.of(rootText);
            LocalFiles files = LocalFiles.at(root);
            List<Path> paths = new java.util.ArrayList<>();
            BELOW.forEach(below -> paths.add(below.isEmpty() ? root : root.resolve(below)));
            List.of("/tmp/storeX/data", "/tmp/stor", "/tmp", "/elsewhere/data", "storeX/data", "store").forEach(o -> paths.add(Path.of(o)));
            for (Path path : paths) {
                assertThat(outcome(() -> files.nameOf(path))).as("root %s, path %s", rootText, path)
                        .isEqualTo(outcome(() -> root.relativize(path).toString()));
            }
        }
    }
}
