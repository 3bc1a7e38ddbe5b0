package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.store.RepairReport;
import dev.storh.store.VerifyReport;
import dev.storh.progress.Progress;
import dev.storh.progress.ProgressListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole-collection operations report their progress through a listener, on real files. */
class DocStoreProgressTest {

    private static final int RECORDS = 600;

    @TempDir
    Path temp;

    private DocStore filled() {
        DocStore store = DocStore.open(temp, "places");
        store.putMany(IntStream.range(0, RECORDS).mapToObj(i -> Map.of("name", "place " + i, "kind", "k" + (i % 7)))
                .toList());
        return store;
    }

    private static void assertRun(List<Progress> seen, String operation, long total) {
        assertThat(seen).as("snapshots").hasSizeGreaterThanOrEqualTo(2);
        assertThat(seen).extracting(Progress::operation).containsOnly(operation);
        Progress first = seen.get(0);
        Progress last = seen.get(seen.size() - 1);
        assertThat(first.done()).isZero();
        assertThat(first.finished()).isFalse();
        assertThat(last.finished()).isTrue();
        assertThat(last.done()).isEqualTo(total);
        assertThat(last.fraction()).hasValue(1.0);
        assertThat(seen.stream().filter(Progress::finished)).hasSize(1);
        assertThat(seen.stream().map(Progress::done).toList()).isSorted();
        assertThat(seen.stream().map(Progress::bytes).toList()).isSorted();
        assertThat(seen.stream().map(Progress::elapsed).toList()).isSorted();
    }

    @Test
    void verifyCountsEveryRecordFileAndItsBytes() {
        try (DocStore store = filled()) {
            List<Progress> seen = new ArrayList<>();
            VerifyReport<StoreStats> report = store.verify(seen::add);
            assertThat(report.ok()).isTrue();
            assertRun(seen, "verify", RECORDS);
            assertThat(seen.get(0).total()).isEqualTo(RECORDS);
            assertThat(seen.get(seen.size() - 1).bytes()).isEqualTo(report.stats().bytes());
        }
    }

    @Test
    void repairCountsTheScanAndTheRebuildAndSkipsCorruptFilesInTheSecondPass() throws Exception {
        try (DocStore store = filled()) {
            store.indexes().field("kind").sync();
            String victim = store.ids().findFirst().orElseThrow();
            Files.writeString(store.pathForId(victim), "{ broken");
            List<Progress> seen = new ArrayList<>();
            RepairReport<DocRepair> report = store.repair(seen::add);
            assertThat(report.details().quarantined()).isEqualTo(1);
            assertRun(seen, "repair", 2L * RECORDS - 1);
            assertThat(seen.get(0).total()).isEqualTo(2L * RECORDS);
            assertThat(store.verify().ok()).isTrue();
        }
    }

    @Test
    void reindexAndCompactCountRecords() {
        try (DocStore store = filled()) {
            store.indexes().field("kind").sync();
            List<Progress> reindex = new ArrayList<>();
            assertThat(store.reindex(reindex::add).entries()).isEqualTo(RECORDS);
            assertRun(reindex, "reindex", RECORDS);
            List<Progress> compact = new ArrayList<>();
            assertThat(store.compact(compact::add).details().records()).isEqualTo(RECORDS);
            assertRun(compact, "compact", RECORDS);
        }
    }

    @Test
    void exportCountsRecordsAndBytesWrittenAndImportCountsBytesRead() throws Exception {
        Path file = temp.resolve("out/places.jsonl");
        try (DocStore store = filled()) {
            List<Progress> export = new ArrayList<>();
            assertThat(store.exportJsonl(file, export::add)).isEqualTo(RECORDS);
            assertRun(export, "export", RECORDS);
            assertThat(export.get(export.size() - 1).bytes()).isEqualTo(Files.size(file));
        }
        try (DocStore copy = DocStore.open(temp, "copy")) {
            List<Progress> imported = new ArrayList<>();
            assertThat(copy.importJsonl(file, imported::add)).isEqualTo(RECORDS);
            assertRun(imported, "import", RECORDS);
            assertThat(imported.get(0).total()).isEqualTo(Progress.UNKNOWN);
            assertThat(imported.get(0).totalBytes()).isEqualTo(Files.size(file));
            assertThat(imported.get(imported.size() - 1).bytes()).isEqualTo(Files.size(file));
            assertThat(copy.count()).isEqualTo(RECORDS);
        }
    }

    @Test
    void aListenerThatThrowsStopsTheExportAndLeavesTheTargetAsItWas() throws Exception {
        Path file = temp.resolve("places.jsonl");
        Files.writeString(file, "old\n");
        try (DocStore store = filled()) {
            ProgressListener cancel = p -> {
                throw new IllegalStateException("cancelled by the operator");
            };
            assertThatThrownBy(() -> store.exportJsonl(file, cancel)).hasStackTraceContaining("cancelled by the operator");
            assertThat(Files.readString(file)).isEqualTo("old\n");
            try (var leftovers = Files.list(temp)) {
                assertThat(leftovers.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
            }
        }
    }

    @Test
    void anEmptyCollectionFinishesAtOnce() {
        try (DocStore store = DocStore.open(temp, "empty")) {
            List<Progress> seen = new ArrayList<>();
            store.verify(seen::add);
            assertRun(seen, "verify", 0);
            assertThat(seen.get(0).total()).isZero();
        }
    }
}
