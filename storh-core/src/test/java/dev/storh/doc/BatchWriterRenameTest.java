package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.fs.FailingFiles;
import dev.storh.fs.FailingFiles.Point;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The renames of a batch: every distinct target gets its row, a batch naming one target several
 * times renames in input order (its last row wins), and a rename that fails leaves no temp file of
 * the batch. Real files in a temp folder, written through the journaled path and the
 * fsynced one.
 */
class BatchWriterRenameTest {

    @TempDir
    Path root;

    private List<BatchWriter.Item> items(Path folder, List<String> targets) throws IOException {
        Files.createDirectories(folder);
        List<BatchWriter.Item> items = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            items.add(new BatchWriter.Item(folder.resolve("." + i + DocLayout.TEMP_SUFFIX), folder.resolve(targets.get(i)),
                    ("row " + i).getBytes(StandardCharsets.UTF_8)));
        }
        return items;
    }

    private static List<String> leftovers(Path folder) throws IOException {
        try (Stream<Path> listed = Files.list(folder)) {
            return listed.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(DocLayout.TEMP_SUFFIX)).toList();
        }
    }

    @Test
    void aBatchNamingOneTargetManyTimesKeepsItsLastRow() throws IOException {
        FailingFiles files = FailingFiles.at(root);
        List<String> targets = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            targets.add(i % 2 == 0 ? "even.jsonc" : "odd.jsonc");
        }
        Path journaled = root.resolve("journaled");
        BatchWriter.writeJournaled(files, items(journaled, targets));
        Path synced = root.resolve("synced");
        BatchWriter.write(files, items(synced, targets));
        for (Path folder : List.of(journaled, synced)) {
            assertThat(Files.readString(folder.resolve("even.jsonc"))).isEqualTo("row 62");
            assertThat(Files.readString(folder.resolve("odd.jsonc"))).isEqualTo("row 63");
            assertThat(leftovers(folder)).isEmpty();
        }
    }

    @Test
    void everyDistinctTargetGetsItsOwnRow() throws IOException {
        FailingFiles files = FailingFiles.at(root);
        List<String> targets = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            targets.add("r" + i + ".jsonc");
        }
        Path folder = root.resolve("data");
        BatchWriter.writeJournaled(files, items(folder, targets));
        for (int i = 0; i < 200; i++) {
            assertThat(Files.readString(folder.resolve("r" + i + ".jsonc"))).isEqualTo("row " + i);
        }
        assertThat(leftovers(folder)).isEmpty();
    }

    @Test
    void aFailedRenameNamesItsTargetAndLeavesNoTempFile() throws IOException {
        FailingFiles files = FailingFiles.at(root);
        List<String> targets = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            targets.add("r" + i + ".jsonc");
        }
        Path folder = root.resolve("data");
        files.failAt(Point.RENAME, name -> name.endsWith("/r37.jsonc"));
        assertThatThrownBy(() -> BatchWriter.writeJournaled(files, items(folder, targets)))
                .isInstanceOf(StorageException.class).hasMessageContaining("r37.jsonc");
        assertThat(leftovers(folder)).isEmpty();
        assertThat(folder.resolve("r37.jsonc")).doesNotExist();
    }
}
