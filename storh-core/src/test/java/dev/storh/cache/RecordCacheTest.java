package dev.storh.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.LookCountingFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each validation mode against edits made behind the store's back. */
class RecordCacheTest {

    @TempDir
    Path root;

    private DocStore open(Cache cache, CacheValidation mode) {
        return DocStore.open(root, "c", DocStoreOptions.builder().cache(cache).cacheValidation(mode).build());
    }

    private static String file(String id, String value) {
        return "{\"id\":\"" + id + "\",\"data\":{\"v\":\"" + value + "\"}}\n";
    }

    /** Rewrites a file in place (same inode), then restores its modification time. */
    private static void rewriteInPlaceKeepingTime(Path path, String content) throws Exception {
        FileTime before = Files.getLastModifiedTime(path);
        Files.writeString(path, content, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        Files.setLastModifiedTime(path, before);
    }

    /** Replaces a file by rename as another writer would (new inode), same size, same mtime. */
    private static void replaceByRenameKeepingTime(Path path, String content) throws Exception {
        FileTime before = Files.getLastModifiedTime(path);
        Path temp = path.resolveSibling(".external.tmp");
        Files.writeString(temp, content);
        Files.setLastModifiedTime(temp, before);
        Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void statSeesRenamesWithTheSameSizeAndTimeButNotSettledInPlaceRewritesThatKeepBoth() throws Exception {
        try (DocStore store = open(Cache.memory(100), CacheValidation.STAT)) {
            String id = store.put(Map.of("v", "alpha")).id();
            Path path = store.pathForId(id);
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "alpha");
            replaceByRenameKeepingTime(path, file(id, "bravo"));
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "bravo");
            // Within the settle time a hit compares the bytes: an in-place rewrite in one clock tick is seen.
            rewriteInPlaceKeepingTime(path, file(id, "delta"));
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "delta");
            rewriteInPlaceKeepingTime(path, file(id, "bravo"));
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "bravo");
            Thread.sleep(CacheValidation.SETTLE_MILLIS + 100);
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "bravo"); // settles the entry
            rewriteInPlaceKeepingTime(path, file(id, "charl"));
            // Settled, then same inode, size and nanosecond time set back: STAT cannot tell (HASH can).
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "bravo");
            Files.writeString(path, file(id, "a longer value"));
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "a longer value");
            Files.delete(path);
            assertThat(store.get(id)).isEmpty();
        }
    }

    /**
     * Another writer (a second store with a cache of its own, as another process or the original
     * would be) rewrites a record the first store has cached, many times in a row with values of
     * one size, each within a clock tick of the last: renames that free and reuse inode numbers.
     * The default cache, STAT, must see every one.
     */
    @Test
    void statSeesEverySameSizeRewriteByAnotherWriterWithinOneTick() {
        try (DocStore reader = DocStore.open(root, "c");
                DocStore writer = open(Cache.memory(10), CacheValidation.STAT)) {
            String id = reader.put(Map.of("v", "v-0000")).id();
            for (int round = 1; round <= 300; round++) {
                assertThat(reader.get(id).orElseThrow().data()).as("round %d", round)
                        .containsEntry("v", "v-" + String.format("%04d", round - 1));
                writer.put(Map.of("v", "x-" + String.format("%04d", round)), id);
                writer.put(Map.of("v", "v-" + String.format("%04d", round)), id);
            }
            assertThat(reader.get(id).orElseThrow().data()).containsEntry("v", "v-0300");
        }
    }

    /** Counts the opens of record files ({@code data/...}), the reads a cache hit must not need. */
    private static final class RecordReadCounting extends ForwardingFiles {
        private final AtomicInteger reads;

        RecordReadCounting(Path folder, AtomicInteger reads) {
            super(LocalFiles.at(folder));
            this.reads = reads;
        }

        @Override
        public InputStream open(String name) throws IOException {
            if (name.startsWith("data/")) {
                reads.incrementAndGet();
            }
            return files.open(name);
        }

        @Override
        public byte[] readAll(String name, long sizeSeen) throws IOException {
            if (name.startsWith("data/")) {
                reads.incrementAndGet();
            }
            return files.readAll(name, sizeSeen);
        }
    }

    private DocStore openCounted(AtomicInteger reads) {
        return DocStore.open(root, "c", DocStoreOptions.builder().cache(Cache.memory(100))
                .cacheValidation(CacheValidation.STAT).files(folder -> new RecordReadCounting(folder, reads)).build());
    }

    /**
     * A store that is the collection's only registered writer trusts the records it writes on
     * their version at once (no read, no hash), and stops trusting them on that alone as soon as
     * another writer registers: then every same-size rewrite within one tick is still seen.
     */
    @Test
    void ownWritesAreTrustedWithoutAReadUntilAnotherWriterRegisters() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        try (DocStore reader = openCounted(reads)) {
            reader.put(Map.of("v", "first write registers the marker"));
            Thread.sleep(50); // the writers folder's time lies in an earlier clock tick than the next write
            String id = reader.put(Map.of("v", "v-0000")).id();
            reads.set(0);
            for (int i = 0; i < 3; i++) {
                assertThat(reader.get(id).orElseThrow().data()).containsEntry("v", "v-0000");
            }
            assertThat(reads.get()).as("record reads of hits on the store's own write").isZero();
            try (DocStore writer = open(Cache.memory(10), CacheValidation.STAT)) {
                for (int round = 1; round <= 300; round++) {
                    writer.put(Map.of("v", "x-" + String.format("%04d", round)), id);
                    writer.put(Map.of("v", "v-" + String.format("%04d", round)), id);
                    assertThat(reader.get(id).orElseThrow().data()).as("round %d", round)
                            .containsEntry("v", "v-" + String.format("%04d", round));
                }
            }
            assertThat(reads.get()).as("reads once another writer registered").isGreaterThanOrEqualTo(300);
        }
    }

    /**
     * Closing a store drops its collection's entries from a shared cache, so a store opened later
     * keeps its own writes although the closed store's often-read records had filled the cache
     * (a full frequency-based cache would otherwise turn the new, once-seen entries away).
     */
    @Test
    void closingAStoreDropsItsEntriesSoTheNextStoresWritesAreKept() throws Exception {
        Cache shared = Cache.memory(100);
        DocStoreOptions options = DocStoreOptions.builder().cache(shared).cacheValidation(CacheValidation.STAT).build();
        try (DocStore other = DocStore.open(root, "other", options)) {
            String kept = other.put(Map.of("v", "kept")).id();
            try (DocStore first = DocStore.open(root, "first", options)) {
                for (int i = 0; i < 120; i++) {
                    String id = first.put(Map.of("v", "first-" + i)).id();
                    for (int read = 0; read < 4; read++) {
                        assertThat(first.get(id)).isPresent();
                    }
                }
            }
            // At most the other collection's one entry is left (the first store's reads may have evicted it).
            assertThat(shared.size()).as("entries left after the first store closed").isLessThanOrEqualTo(1);
            assertThat(other.get(kept).orElseThrow().data()).containsEntry("v", "kept");
            AtomicInteger reads = new AtomicInteger();
            try (DocStore second = DocStore.open(root, "second", DocStoreOptions.builder().cache(shared)
                    .cacheValidation(CacheValidation.STAT).files(folder -> new RecordReadCounting(folder, reads)).build())) {
                second.put(Map.of("v", "first write registers the marker"));
                Thread.sleep(50); // the writers folder's time lies in an earlier clock tick than the next writes
                java.util.List<String> ids = new java.util.ArrayList<>();
                for (int i = 0; i < 60; i++) {
                    ids.add(second.put(Map.of("v", "second-" + i)).id());
                }
                reads.set(0);
                for (int i = 0; i < ids.size(); i++) {
                    assertThat(second.get(ids.get(i)).orElseThrow().data()).containsEntry("v", "second-" + i);
                }
                assertThat(reads.get()).as("record reads of gets of the second store's own writes").isZero();
            }
        }
    }

    /** A file last modified the settle time or more before it is read settles at its first read. */
    @Test
    void aFileLeftAloneForTheSettleTimeIsTrustedFromItsFirstRead() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        String id;
        Path path;
        try (DocStore writer = open(Cache.none(), CacheValidation.STAT)) {
            id = writer.put(Map.of("v", "alpha")).id();
            path = writer.pathForId(id);
        }
        FileTime old = FileTime.from(Instant.now().minusMillis(CacheValidation.SETTLE_MILLIS + 5_000));
        Files.setLastModifiedTime(path, old);
        try (DocStore store = openCounted(reads)) {
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "alpha");
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "alpha");
            assertThat(reads.get()).as("reads of an old file").isEqualTo(1);
            replaceByRenameKeepingTime(path, file(id, "bravo"));
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "bravo");
            Files.writeString(path, file(id, "charl"), StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "charl");
        }
    }

    @Test
    void defaultOptionsCacheRecordsFilledByTheirOwnWrites() {
        assertThat(DocStoreOptions.defaults().cache()).isSameAs(Cache.standard());
        AtomicInteger reads = new AtomicInteger();
        try (DocStore store = DocStore.open(root, "c",
                DocStoreOptions.builder().files(folder -> new RecordReadCounting(folder, reads)).build())) {
            String id = store.put(Map.of("v", "own")).id();
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "own");
            assertThat(reads.get()).as("a record this store wrote is read from the standard cache").isZero();
        }
        try (DocStore off = DocStore.open(root, "c", DocStoreOptions.builder().cache(Cache.none()).build())) {
            assertThat(off.count()).isEqualTo(1);
        }
    }

    @Test
    void hashSeesInPlaceRewritesThatKeepSizeAndTime() throws Exception {
        try (DocStore store = open(Cache.memory(100), CacheValidation.HASH)) {
            String id = store.put(Map.of("v", "alpha")).id();
            Path path = store.pathForId(id);
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "alpha");
            rewriteInPlaceKeepingTime(path, file(id, "bravo"));
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "bravo");
            assertThat(store.query().where("v").eq("bravo").count()).isEqualTo(1);
        }
    }

    @Test
    void trustIgnoresExternalEditsButSeesItsOwnWrites() throws Exception {
        try (DocStore store = open(Cache.memory(100), CacheValidation.TRUST)) {
            String id = store.put(Map.of("v", "alpha")).id();
            Path path = store.pathForId(id);
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "alpha");
            Files.writeString(path, file(id, "external"));
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "alpha");
            store.put(Map.of("v", "own"), id);
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "own");
            store.delete(id);
            assertThat(store.get(id)).isEmpty();
            // A cached miss stays a miss for files written behind the store's back.
            Files.createDirectories(path.getParent());
            Files.writeString(path, file(id, "sneaky"));
            assertThat(store.get(id)).isEmpty();
        }
    }

    @Test
    void negativeEntriesAreRecheckedInStatMode() throws Exception {
        try (DocStore store = open(Cache.memory(100), CacheValidation.STAT)) {
            String id = store.put(Map.of("v", "x")).id();
            Path path = store.pathForId(id);
            store.delete(id);
            assertThat(store.get(id)).isEmpty();
            Files.writeString(path, file(id, "back"));
            assertThat(store.get(id).orElseThrow().data()).containsEntry("v", "back");
        }
    }

    /** @return the looks counted at names under {@code data/} */
    private static int dataLooks(LookCountingFiles files) {
        return files.looks().entrySet().stream().filter(e -> e.getKey().startsWith("data")).mapToInt(Map.Entry::getValue).sum();
    }

    /**
     * {@code exists} (and an {@code id eq} count) answers from a cached entry whose file still has
     * its version, for one look, and looks on disk (data folder, bucket and file) whenever the
     * entry cannot tell: every change made behind the store's back is seen.
     */
    @Test
    void existsAnswersFromAnEntryWithOneLookAndSeesChangesBehindIt() throws Exception {
        java.util.List<LookCountingFiles> made = new java.util.ArrayList<>();
        try (DocStore store = DocStore.open(root, "c", DocStoreOptions.builder().cache(Cache.memory(100))
                .cacheValidation(CacheValidation.STAT).files(folder -> {
                    LookCountingFiles counting = new LookCountingFiles(folder);
                    made.add(counting);
                    return counting;
                }).build())) {
            LookCountingFiles looks = made.get(made.size() - 1);
            String id = store.put(Map.of("v", "x")).id();
            Path path = store.pathForId(id);
            looks.reset();
            assertThat(store.exists(id)).isTrue();
            assertThat(store.query().where("id").eq(id).count()).isEqualTo(1);
            assertThat(dataLooks(looks)).as("looks of two answers from the entry").isEqualTo(2);

            Files.delete(path); // behind the store's back: the entry's version is gone
            assertThat(store.exists(id)).isFalse();
            assertThat(store.query().where("id").eq(id).count()).isZero();
            Files.writeString(path, file(id, "back"));
            assertThat(store.exists(id)).isTrue();

            String never = store.put(Map.of("v", "y")).id();
            Path neverPath = store.pathForId(never);
            store.delete(never);
            assertThat(store.get(never)).isEmpty(); // a negative entry
            looks.reset();
            assertThat(store.exists(never)).isFalse();
            assertThat(dataLooks(looks)).as("looks of a negative entry's answer").isLessThanOrEqualTo(2);
            Files.writeString(neverPath, file(never, "sneaky"));
            assertThat(store.exists(never)).isTrue();
            assertThat(store.query().where("id").eq(never).count()).isEqualTo(1);
        }
    }

    @Test
    void twoStoresSharingACacheSeeEachOthersWrites() {
        Cache shared = Cache.memory(1000);
        try (DocStore a = open(shared, CacheValidation.TRUST); DocStore b = open(shared, CacheValidation.TRUST)) {
            String id = a.put(Map.of("v", "first")).id();
            assertThat(b.get(id).orElseThrow().data()).containsEntry("v", "first");
            a.put(Map.of("v", "second"), id);
            assertThat(b.get(id).orElseThrow().data()).containsEntry("v", "second");
            assertThat(shared.size()).isEqualTo(1);
        }
    }

    @Test
    void budgetsAndBadSizes() {
        Cache small = Cache.memory(10, 1_000_000);
        try (DocStore store = open(small, CacheValidation.STAT)) {
            for (int i = 0; i < 50; i++) {
                StorageRecord r = store.put(Map.of("i", (long) i));
                store.get(r.id());
            }
            assertThat(small.size()).isLessThanOrEqualTo(10);
        }
        Cache tiny = Cache.memory(1000, 200);
        try (DocStore store = open(tiny, CacheValidation.STAT)) {
            for (int i = 0; i < 20; i++) {
                store.get(store.put(Map.of("text", "x".repeat(150))).id());
            }
            assertThat(tiny.size()).isLessThanOrEqualTo(1);
        }
        assertThatThrownBy(() -> Cache.memory(0)).isInstanceOf(StorageException.class).hasMessageContaining("cache");
        assertThatThrownBy(() -> Cache.memory(1, 0)).hasMessageContaining("cache");
        assertThatThrownBy(() -> CacheValidation.parse("never")).hasMessageContaining("cache validation");
        assertThat(CacheValidation.parse("Hash")).isEqualTo(CacheValidation.HASH);
    }
}
