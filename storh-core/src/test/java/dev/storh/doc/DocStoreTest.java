package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.CorruptRecordException;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.query.RecordQuery;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocStoreTest {

    @TempDir
    Path root;

    private static List<String> ids(Stream<StorageRecord> s) {
        try (s) {
            return s.map(StorageRecord::id).toList();
        }
    }

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void putWritesTheCanonicalFileInItsBucketAndGetReadsItBack() throws IOException {
        try (DocStore pages = DocStore.open(root, "pages")) {
            String id = "01a229d2-b64d-728d-a476-ed40c91002a2";
            StorageRecord stored = pages.put(map("slug", "a/b", "kind", "page",
                    "title", "Slash / and \"quotes\" and \\ backslash", "weight", 2.5), id);
            Path file = root.resolve("pages/data/ed/" + id + ".jsonc");
            assertThat(pages.pathForId(id)).isEqualTo(file);
            assertThat(Files.readString(file)).isEqualTo("{\"id\":\"01a229d2-b64d-728d-a476-ed40c91002a2\",\"data\":"
                    + "{\"slug\":\"a/b\",\"kind\":\"page\",\"title\":\"Slash / and \\\"quotes\\\" and \\\\ backslash\","
                    + "\"weight\":2.5}}\n");
            assertThat(stored.id()).isEqualTo(id);
            StorageRecord read = pages.get(id).orElseThrow();
            assertThat(read.data()).containsEntry("weight", 2.5).containsEntry("slug", "a/b");
            assertThat(read.data().keySet()).containsExactly("slug", "kind", "title", "weight");
        }
    }

    @Test
    void aRecordFileEndingInAnUnterminatedBlockCommentIsReadAsTheOriginalReadsIt() throws IOException {
        try (DocStore store = DocStore.open(root, "c")) {
            String id = "018bcfe5-6800-726c-a753-80d71a17e586";
            Path file = store.pathForId(id);
            Files.createDirectories(file.getParent());
            Files.writeString(file, "{\"id\":\"" + id + "\",\"data\":{\"a\":1}}\n/* trailing, never closed\n");
            assertThat(store.get(id).orElseThrow().data()).containsEntry("a", 1L);
            assertThat(store.stream().map(StorageRecord::id).toList()).containsExactly(id);
            assertThat(store.verify().ok()).isTrue();
        }
    }

    @Test
    void emptyDataIsWrittenAsTheOriginalsEmptyArray() throws IOException {
        try (DocStore store = DocStore.open(root, "c")) {
            StorageRecord r = store.put(Map.of(), "018bcfe5-6800-726c-a753-80d71a17e586");
            assertThat(Files.readString(store.pathForId(r.id())))
                    .isEqualTo("{\"id\":\"018bcfe5-6800-726c-a753-80d71a17e586\",\"data\":[]}\n");
            assertThat(store.get(r.id()).orElseThrow().data()).isEmpty();
        }
    }

    @Test
    void generatedIdsAreValidAndPutReplacesWholeRecords() {
        try (DocStore store = DocStore.open(root, "c")) {
            StorageRecord r = store.put(map("a", 1L, "b", 2L));
            assertThat(UuidV7.isValid(r.id())).isTrue();
            store.put(map("a", 3L), r.id());
            assertThat(store.get(r.id()).orElseThrow().data()).isEqualTo(map("a", 3L));
            assertThat(store.count()).isEqualTo(1);
        }
    }

    @Test
    void upperCaseIdsAreStoredLowerCase() {
        try (DocStore store = DocStore.open(root, "c")) {
            StorageRecord r = store.put(map("x", true), "0190F0E0-1234-7ABC-8DEF-ABCDEF012345");
            assertThat(r.id()).isEqualTo("0190f0e0-1234-7abc-8def-abcdef012345");
            assertThat(root.resolve("c/data/ab/0190f0e0-1234-7abc-8def-abcdef012345.jsonc")).isRegularFile();
            assertThat(store.get("0190F0E0-1234-7ABC-8DEF-ABCDEF012345")).isPresent();
        }
    }

    @Test
    void deleteReportsWhetherARecordExistedAndKeepsTheBucket() {
        try (DocStore store = DocStore.open(root, "c")) {
            StorageRecord r = store.put(map("x", 1L));
            assertThat(store.delete(r.id())).isTrue();
            assertThat(store.delete(r.id())).isFalse();
            assertThat(store.delete(UuidV7.generate())).isFalse();
            assertThat(store.get(r.id())).isEmpty();
            assertThat(store.pathForId(r.id()).getParent()).isDirectory();
        }
    }

    @Test
    void streamMergesBucketsIntoIdOrderWithCursorTimeRangeEqualityAndLimit() {
        List<String> ids = new ArrayList<>();
        for (int k = 0; k < 40; k++) {
            ids.add(UuidV7.generate(1700000000000L + k));
        }
        try (DocStore store = DocStore.open(root, "c")) {
            List<String> shuffled = new ArrayList<>(ids);
            java.util.Collections.shuffle(shuffled, new java.util.Random(7));
            for (String id : shuffled) {
                int k = ids.indexOf(id);
                store.put(map("kind", k % 2 == 0 ? "page" : "post", "k", (long) k), id);
            }
            assertThat(ids(store.stream())).containsExactlyElementsOf(ids);
            assertThat(store.ids().toList()).containsExactlyElementsOf(ids);
            assertThat(ids(store.stream(RecordQuery.all().after(ids.get(9)).limit(5)))).isEqualTo(ids.subList(10, 15));
            assertThat(ids(store.stream(RecordQuery.all().timeRangeMs(1700000000001L, 1700000000003L))))
                    .isEqualTo(ids.subList(1, 4));
            assertThat(ids(store.stream(RecordQuery.all().after(ids.get(0)).timeRangeMs(1700000000001L, 1700000000003L)
                    .whereEqual("kind", "post").limit(1)))).containsExactly(ids.get(1));
            assertThat(ids(store.stream(RecordQuery.all().whereEqual("k", 4)))).containsExactly(ids.get(4));
            assertThat(ids(store.stream(RecordQuery.all().whereEqual("k", 4.0)))).isEmpty();
        }
    }

    @Test
    void whereEqualNullMatchesOnlyAnExplicitNull() {
        try (DocStore store = DocStore.open(root, "c")) {
            StorageRecord explicit = store.put(map("marker", null));
            store.put(map("other", 1L));
            assertThat(ids(store.stream(RecordQuery.all().whereEqual("marker", null)))).containsExactly(explicit.id());
        }
    }

    @Test
    void corruptFilesFailTheStreamUnlessAHandlerTakesThem() throws IOException {
        try (DocStore store = DocStore.open(root, "c")) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                ids.add(store.put(map("i", (long) i)).id());
            }
            Files.writeString(store.pathForId(ids.get(3)), "{ broken");
            List<String> reported = new ArrayList<>();
            assertThat(ids(store.stream(RecordQuery.all().continueOnError((id, e) -> reported.add(id)))))
                    .containsExactlyElementsOf(ids.subList(0, 3));
            assertThat(reported).containsExactly(ids.get(3));
            assertThatThrownBy(() -> ids(store.stream())).isInstanceOf(CorruptRecordException.class)
                    .hasMessageContaining("Invalid JSONC").hasMessageContaining(ids.get(3));
            assertThatThrownBy(() -> store.get(ids.get(3))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("Invalid JSONC storage file");
            // A cursor past the corrupt file never reads it.
            assertThat(ids(store.stream(RecordQuery.all().after(ids.get(3))))).isEmpty();
            StoreStats stats = store.stats();
            assertThat(stats.records()).isEqualTo(3);
            assertThat(stats.corrupt()).isEqualTo(1);
        }
    }

    @Test
    void recordFilesAreValidatedAgainstTheirNames() throws IOException {
        try (DocStore store = DocStore.open(root, "c")) {
            String a = UuidV7.generate();
            String b = UuidV7.generate();
            Path pathA = store.pathForId(a);
            Files.createDirectories(pathA.getParent());
            Files.writeString(pathA, "{\"id\":\"" + b + "\",\"data\":{}}");
            assertThatThrownBy(() -> store.get(a)).isInstanceOf(CorruptRecordException.class)
                    .hasMessageContaining("does not match");
            Files.writeString(pathA, "[1]");
            assertThatThrownBy(() -> store.get(a)).hasMessageContaining("object");
            Files.writeString(pathA, "{\"1\":\"one\"}");
            assertThatThrownBy(() -> store.get(a)).hasMessageContaining("object");
            Files.writeString(pathA, "{\"data\":{}}");
            assertThatThrownBy(() -> store.get(a)).hasMessageContaining("Invalid UUIDv7 value.");
            Files.writeString(pathA, "{\"id\":\"" + a + "\",\"data\":\"str\",\"extra\":1}");
            assertThat(store.get(a).orElseThrow().data()).isEmpty();
            Files.writeString(pathA, "{ \"data\": {\"x\": 1,}, // c\n \"id\": \"" + a + "\" }");
            assertThat(store.get(a).orElseThrow().data()).containsEntry("x", 1L);
        }
    }

    @Test
    void invalidIdsAndUnencodableDataWriteNothing() throws IOException {
        try (DocStore store = DocStore.open(root, "c")) {
            assertThatThrownBy(() -> store.put(map("a", 1L), "../../etc/passwd")).isInstanceOf(StorageException.class)
                    .hasMessageContaining("Invalid UUIDv7 value.");
            assertThatThrownBy(() -> store.get("nope")).hasMessageContaining("Invalid UUIDv7 value.");
            assertThatThrownBy(() -> store.put(map("bad", Double.NaN))).hasMessageContaining("bad");
            assertThatThrownBy(() -> store.putMany(List.of(map("ok", 1L), map("bad", Double.NaN))))
                    .isInstanceOf(StorageException.class);
            assertThat(store.count()).isZero();
            assertThat(Files.exists(root.resolve("c/data"))).isFalse();
        }
    }

    @Test
    void unsafeCollectionNamesAreRefusedAndNothingIsWrittenOutsideTheRoot() throws IOException {
        Path inner = Files.createDirectories(root.resolve("inner"));
        for (String bad : List.of("..", ".", "", "../escaped", "a/b", "a\\b", "x\0y", "/etc")) {
            assertThatThrownBy(() -> DocStore.open(inner, bad)).as(bad).isInstanceOf(StorageException.class)
                    .hasMessageContaining("collection");
        }
        try (Stream<Path> all = Files.list(root)) {
            assertThat(all.map(p -> p.getFileName().toString()).toList()).containsExactly("inner");
        }
        try (Stream<Path> all = Files.list(inner)) {
            assertThat(all.toList()).isEmpty();
        }
    }

    @Test
    void aFileWhereTheRootShouldBeFailsClearly() throws IOException {
        Path file = Files.writeString(root.resolve("not-a-folder"), "x");
        assertThatThrownBy(() -> DocStore.open(file, "c")).isInstanceOf(StorageException.class)
                .hasMessageContaining("not-a-folder");
    }

    @Test
    void putManyFollowsTheOriginalsEnvelopeRules() {
        try (DocStore store = DocStore.open(root, "c")) {
            String given = UuidV7.generate();
            List<StorageRecord> out = store.putMany(List.of(
                    map("id", given, "title", "x"),
                    map("data", map("inner", 1L), "title", "lost"),
                    map("plain", true)));
            assertThat(out).hasSize(3);
            assertThat(out.get(0).id()).isEqualTo(given);
            assertThat(store.get(given).orElseThrow().data()).isEqualTo(map("id", given, "title", "x"));
            assertThat(store.get(out.get(1).id()).orElseThrow().data()).isEqualTo(map("inner", 1L));
            assertThat(store.get(out.get(2).id()).orElseThrow().data()).isEqualTo(map("plain", true));
            assertThat(store.putStream(List.of(map("a", 1L), map("b", 2L)))).isEqualTo(2);
            assertThat(store.count()).isEqualTo(5);
        }
    }

    @Test
    void bulkWritesKeepInputOrderForRepeatedIdsAndLeaveNoTempFiles() throws IOException {
        try (DocStore store = DocStore.open(root, "c")) {
            String id = UuidV7.generate();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (int i = 0; i < 1500; i++) {
                rows.add(map("n", (long) i));
            }
            rows.add(map("id", id, "data", map("v", "first")));
            rows.add(map("id", id, "data", map("v", "second")));
            assertThat(store.putStream(rows)).isEqualTo(1502);
            assertThat(store.count()).isEqualTo(1501);
            assertThat(store.get(id).orElseThrow().data()).isEqualTo(map("v", "second"));
            // A bad row in a stream: rows before it are written and durable, nothing half-written.
            List<Map<String, Object>> withBadRow = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                withBadRow.add(map("m", (long) i));
            }
            withBadRow.add(map("bad", Double.NaN));
            withBadRow.add(map("never", true));
            assertThatThrownBy(() -> store.putStream(withBadRow)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("bad");
            assertThat(store.count()).isEqualTo(1501 + 700);
            try (Stream<Path> files = Files.walk(root.resolve("c"))) {
                assertThat(files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList()).isEmpty();
            }
        }
    }

    @Test
    void customIdGeneratorsAreValidated() {
        DocStoreOptions options = DocStoreOptions.builder().idGenerator(() -> "018bcfe5-6800-7000-8000-000000000001").build();
        try (DocStore store = DocStore.open(root, "c", options)) {
            assertThat(store.put(map("a", 1L)).id()).isEqualTo("018bcfe5-6800-7000-8000-000000000001");
        }
        DocStoreOptions bad = DocStoreOptions.builder().idGenerator(() -> "42").build();
        try (DocStore store = DocStore.open(root, "d", bad)) {
            assertThatThrownBy(() -> store.put(map("a", 1L))).hasMessageContaining("Invalid UUIDv7 value")
                    .hasMessageContaining("42");
        }
    }

    @Test
    void jsonlExportAndImportRoundTrip() throws IOException {
        Path export = root.resolve("out/export.jsonl");
        List<String> ids;
        try (DocStore source = DocStore.open(root, "source")) {
            source.put(map("t", "café / x"));
            source.put(Map.of());
            source.put(map("n", 1.0, "list", List.of(1L, "two")));
            source.put(map("nested", map("deep", map("er", null))));
            ids = source.ids().toList();
            assertThat(source.exportJsonl(export)).isEqualTo(4);
        }
        List<String> lines = Files.readAllLines(export, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("{\"id\":\"" + ids.get(0) + "\",\"data\":");
        assertThat(lines.get(1)).isEqualTo("{\"id\":\"" + ids.get(1) + "\",\"data\":[]}");
        try (Stream<Path> siblings = Files.list(export.getParent())) {
            assertThat(siblings.toList()).containsExactly(export);
        }
        try (DocStore target = DocStore.open(root, "target")) {
            assertThat(target.importJsonl(export)).isEqualTo(4);
            assertThat(target.ids().toList()).containsExactlyElementsOf(ids);
            for (String id : ids) {
                assertThat(Files.readAllBytes(target.pathForId(id)))
                        .isEqualTo(Files.readAllBytes(root.resolve("source").resolve(root.relativize(target.pathForId(id))
                                .subpath(1, 4))));
            }
        }
    }

    @Test
    void importAcceptsTheOriginalsRowShapesAndReportsBadRows() throws IOException {
        String keep = UuidV7.generate();
        Path file = Files.writeString(root.resolve("in.jsonl"), String.join("\n",
                "{\"ok\":true}",
                "   ",
                "{\"0\":\"drop\",\"ok\":true}\r",
                "{\"id\":\"" + keep + "\",\"data\":{\"ok\":true},\"extra\":\"drop\"}",
                "[]",
                "") + "\n");
        try (DocStore store = DocStore.open(root, "c")) {
            assertThat(store.importJsonl(file)).isEqualTo(4);
            assertThat(store.get(keep).orElseThrow().data()).isEqualTo(map("ok", true));
            try (Stream<StorageRecord> all = store.stream()) {
                assertThat(all.map(StorageRecord::data).toList())
                        .containsExactlyInAnyOrder(map("ok", true), map("ok", true), map("ok", true), Map.of());
            }
            Path bad = Files.writeString(root.resolve("bad.jsonl"), "{\"a\":1}\n\"not-object\"\n{\"b\":2}\n");
            assertThatThrownBy(() -> store.importJsonl(bad)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("JSONL").hasMessageContaining("line 2");
            Path broken = Files.writeString(root.resolve("broken.jsonl"), "{\"a\":\n");
            assertThatThrownBy(() -> store.importJsonl(broken)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("line 1");
            assertThatThrownBy(() -> store.importJsonl(root.resolve("missing.jsonl")))
                    .hasMessageContaining("import");
            assertThatThrownBy(() -> store.exportJsonl(root)).hasMessageContaining("export");
        }
    }

    @Test
    void writerMarkerExistsWhileTheStoreWritesAndIsRemovedOnClose() throws IOException {
        Path writers = root.resolve("c/.storh/writers");
        DocStore store = DocStore.open(root, "c");
        assertThat(writers).isDirectory();
        assertThat(Files.exists(root.resolve("c/.storh/write.lock"))).isFalse();
        store.put(map("a", 1L));
        try (Stream<Path> markers = Files.list(writers)) {
            List<String> names = markers.map(p -> p.getFileName().toString()).toList();
            assertThat(names).hasSize(1);
            assertThat(names.get(0)).matches(ProcessHandle.current().pid() + "\\.[0-9a-f]{8}");
        }
        assertThat(root.resolve("c/.storh/write.lock")).isRegularFile();
        store.close();
        try (Stream<Path> markers = Files.list(writers)) {
            assertThat(markers.toList()).isEmpty();
        }
        assertThatThrownBy(() -> store.put(map("a", 2L))).hasMessageContaining("closed");
    }

    @Test
    void tempFilesOfACrashedWriterAreSweptOnOpenAndLiveOnesKept() throws IOException {
        Path bucket = Files.createDirectories(root.resolve("c/data/ab"));
        Path writers = Files.createDirectories(root.resolve("c/.storh/writers"));
        Path deadTemp = Files.writeString(bucket.resolve(".99999999.abcdef01.1.tmp"), "half");
        Path liveTemp = Files.writeString(bucket.resolve("." + ProcessHandle.current().pid() + ".abcdef01.1.tmp"), "x");
        Path freshOther = Files.writeString(bucket.resolve(".manifest.jsonc.a1b2c3d4e5f6.tmp"), "x");
        Path agedOther = Files.writeString(bucket.resolve(".leftover.tmp"), "x");
        Files.setLastModifiedTime(agedOther, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 120_000));
        // No stale marker: opening is constant-time and sweeps nothing.
        DocStore.open(root, "c").close();
        assertThat(deadTemp).exists();
        // A marker of a dead process means a crashed writer: the next open sweeps.
        Path staleMarker = Files.createFile(writers.resolve("99999999.deadbeef"));
        Path junkMarker = Files.createFile(writers.resolve("not-a-pid"));
        DocStore.open(root, "c").close();
        assertThat(deadTemp).doesNotExist();
        assertThat(agedOther).doesNotExist();
        assertThat(liveTemp).exists();
        assertThat(freshOther).exists();
        assertThat(staleMarker).doesNotExist();
        assertThat(junkMarker).doesNotExist();
    }

    @Test
    void aBucketRemovedBehindTheStoresBackIsCreatedAgain() throws IOException {
        try (DocStore store = DocStore.open(root, "c")) {
            StorageRecord first = store.put(map("a", 1L));
            Path bucket = store.pathForId(first.id()).getParent();
            Files.delete(store.pathForId(first.id()));
            Files.delete(bucket);
            store.put(map("a", 2L), first.id());
            assertThat(store.get(first.id()).orElseThrow().data()).containsEntry("a", 2L);
        }
    }

    @Test
    void theCachedListingSeesFilesAddedAndRemovedBehindTheStoresBack() throws IOException {
        try (DocStore store = DocStore.open(root, "c")) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                ids.add(store.put(map("i", (long) i)).id());
            }
            assertThat(store.count()).isEqualTo(20);
            assertThat(store.count()).isEqualTo(20);
            // Another writer adds a record (its bucket folder changes) and removes one.
            String external = UuidV7.generate();
            Path file = store.pathForId(external);
            Files.createDirectories(file.getParent());
            Files.writeString(file, "{\"id\":\"" + external + "\",\"data\":{\"by\":\"other\"}}\n");
            Files.delete(store.pathForId(ids.get(3)));
            assertThat(store.count()).isEqualTo(20);
            assertThat(store.ids().toList()).contains(external).doesNotContain(ids.get(3)).isSorted();
            // Own writes and deletes show at once.
            store.delete(ids.get(4));
            String mine = store.put(map("mine", true)).id();
            assertThat(store.ids().toList()).contains(mine).doesNotContain(ids.get(4)).hasSize(20);
        }
    }

    @Test
    void settledBucketsAreNotReadAgainUntilTheirFolderChanges() throws IOException {
        try (DocStore store = DocStore.open(root, "c")) {
            String id = store.put(map("a", 1L)).id();
            Path bucket = store.pathForId(id).getParent();
            java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 10_000);
            Files.setLastModifiedTime(bucket, old);
            assertThat(store.count()).isEqualTo(1); // cached now: the folder is settled
            // A file slipped in while the folder keeps its old time (as on a coarse-clock file
            // system): the cached listing does not see it, which proves the cache is used...
            String sneaky = id.substring(0, 24) + id.substring(24, 26) + "0000000000";
            Files.writeString(bucket.resolve(sneaky + ".jsonc"), "{\"id\":\"" + sneaky + "\",\"data\":[]}\n");
            Files.setLastModifiedTime(bucket, old);
            assertThat(store.count()).isEqualTo(1);
            // ...and any real change of the folder's time makes it read again.
            Files.setLastModifiedTime(bucket, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 5_000));
            assertThat(store.count()).isEqualTo(2);
        }
    }

    @Test
    void anEmptyCollectionStreamsNothing() {
        try (DocStore store = DocStore.open(root, "empty")) {
            assertThat(ids(store.stream())).isEmpty();
            assertThat(store.count()).isZero();
            assertThat(store.stats()).isEqualTo(new StoreStats(0, 0, 0, 0));
            assertThat(store.stats().toMap()).containsExactly(Map.entry("records", 0L), Map.entry("bytes", 0L),
                    Map.entry("corrupt", 0L), Map.entry("indexes", 0L));
        }
    }
}
