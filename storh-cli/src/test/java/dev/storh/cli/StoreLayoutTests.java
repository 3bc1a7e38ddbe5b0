package dev.storh.cli;

import dev.storh.SharedFiles;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreLayoutTests {

    @TempDir
    Path temp;

    @Test // spec/docstore.md §4, spec/log-queue.md §2.2, §3.1
    void detectsEachEngineOfTheFixtureFromItsFiles() {
        Path app = SharedFiles.copyPhpCollections(temp, "pages", "events", "jobs");
        assertThat(StoreLayout.detect(app.resolve("pages"))).containsExactly(Engine.DOC);
        assertThat(StoreLayout.detect(app.resolve("events"))).containsExactly(Engine.LOG);
        assertThat(StoreLayout.detect(app.resolve("jobs"))).containsExactly(Engine.QUEUE);
        assertThat(StoreLayout.detect(app)).isEmpty();
        assertThat(StoreLayout.evidence(Engine.LOG, app.resolve("events"))).isEqualTo("manifest.jsonc, segments/");
        assertThat(StoreLayout.evidence(Engine.DOC, app.resolve("pages"))).isEqualTo("data/");
    }

    @Test // a log keeps writer markers in .storh/ too; an empty DocStore has only .storh/
    void aStorhFolderAloneIsADocumentCollectionUnlessLogFilesAreThere() throws IOException {
        Path empty = Files.createDirectories(temp.resolve("empty/.storh/writers"));
        assertThat(StoreLayout.detect(empty.getParent().getParent())).containsExactly(Engine.DOC);
        Path log = Files.createDirectories(temp.resolve("log/.storh/writers")).getParent().getParent();
        Files.createDirectories(log.resolve("segments"));
        assertThat(StoreLayout.detect(log)).containsExactly(Engine.LOG);
    }

    @Test // spec/cli.md §6 C3: the original's compact wrote log files into document collections
    void aFolderCanHoldTwoEngines() throws IOException {
        Path mixed = Files.createDirectories(temp.resolve("mixed/data"));
        Files.writeString(mixed.getParent().resolve("manifest.jsonc"), "{}");
        assertThat(StoreLayout.detect(mixed.getParent())).containsExactly(Engine.DOC, Engine.LOG);
        assertThat(StoreLayout.list(temp)).extracting(StoreLayout.Found::engine).containsExactly(Engine.DOC, Engine.LOG);
    }

    @Test
    void listsNestedFoldersByRelativeNameAndSkipsHiddenOnes() throws IOException {
        Files.createDirectories(temp.resolve("events/partitions/2026-11/segments"));
        Files.writeString(temp.resolve("events/partitions/2026-11/manifest.jsonc"), "{\"segments\":[]}");
        Files.createDirectories(temp.resolve(".hidden/data"));
        Files.createDirectories(temp.resolve("a/b/c/d/data"));
        assertThat(StoreLayout.list(temp)).extracting(StoreLayout.Found::name).containsExactly("events/partitions/2026-11");
        assertThat(StoreLayout.list(temp).get(0)).isEqualTo(new StoreLayout.Found("events/partitions/2026-11", Engine.LOG, 1, 15));
    }
}
