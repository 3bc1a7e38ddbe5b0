package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.query.Direction;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the range and delta reads of a query touch: a repeated ordered read whose blocks are known
 * opens no file; a range file without a delta is never opened for its delta (no failed open); a
 * value file's delta is looked at with the one look that is cheapest when it is absent, also by the
 * read that merges it. Another writer's changes are seen every time: the answers stay those of a
 * scan of the records.
 */
class RangeAndDeltaLookCostTest {

    @TempDir
    Path root;

    /** The local seam, noting every look and every open (nothing is faked). */
    static final class Noting extends ForwardingFiles {
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());

        Noting(StoreFiles files) {
            super(files);
        }

        @Override
        public Optional<String> version(String name) throws IOException {
            calls.add("version " + name);
            return super.version(name);
        }

        @Override
        public Optional<String> versionInSeenFolder(String name) throws IOException {
            calls.add("seen " + name);
            return super.versionInSeenFolder(name);
        }

        @Override
        public InputStream open(String name) throws IOException {
            calls.add("open " + name);
            return super.open(name);
        }

        @Override
        public InputStream open(String name, long offset) throws IOException {
            calls.add("from" + offset + " " + name);
            return super.open(name, offset);
        }

        @Override
        public byte[] readAll(String name) throws IOException {
            calls.add("read " + name);
            return super.readAll(name);
        }

        @Override
        public byte[] readAll(String name, long sizeSeen) throws IOException {
            calls.add("read " + name);
            return super.readAll(name, sizeSeen);
        }

        @Override
        public Input openInput(String name) throws IOException {
            calls.add("input " + name);
            return super.openInput(name);
        }

        /** @return the kinds of call made on names ending with {@code suffix}, in order */
        List<String> at(String suffix) {
            synchronized (calls) {
                return calls.stream().filter(l -> l.endsWith(suffix)).map(l -> l.substring(0, l.indexOf(' '))).toList();
            }
        }
    }

    private static final String MAIN = "/range/6174.jsonl"; // field "at"
    private static final String DELTA = "/range/6174.delta.jsonl";

    private static Optional<String> firstByScan(DocStore store, boolean ascending) {
        Comparator<StorageRecord> byAt = Comparator.comparingLong(r -> (Long) r.data().get("at"));
        List<StorageRecord> all = new ArrayList<>(store.query().where("n").gte(0L).get());
        all.sort(ascending ? byAt.thenComparing(StorageRecord::id) : byAt.reversed().thenComparing(StorageRecord::id));
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0).id());
    }

    private static Optional<String> first(DocStore store, Direction direction) {
        return store.query().where("at").gte(0L).orderBy("at", direction).first().map(StorageRecord::id);
    }

    @Test
    void aRepeatedOrderedFirstOpensNoFileAndAnotherWritersRecordsAreStillFound() throws Exception {
        Noting[] seam = new Noting[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new Noting(LocalFiles.at(dir))).build();
        try (DocStore store = DocStore.open(root, "c", options); DocStore other = DocStore.open(root, "c")) {
            for (int i = 0; i < 1_500; i++) { // about 5 blocks of the main file
                store.put(Map.of("n", (long) i, "at", 1_000L + (i * 7919L) % 1_500));
            }
            store.indexes().field("at").range().sync();
            for (Direction direction : Direction.values()) {
                boolean ascending = direction == Direction.ASC;
                assertThat(first(store, direction)).isEqualTo(firstByScan(store, ascending));
                seam[0].calls.clear();
                assertThat(first(store, direction)).isEqualTo(firstByScan(store, ascending));
                assertThat(seam[0].at(MAIN)).as("the blocks and first keys are known: no open").isEmpty();
                assertThat(seam[0].at(DELTA)).as("no delta: never opened").isEmpty();
            }

            // Another writer appends to the delta: the next reads see its record, first and last.
            String low = other.put(Map.of("n", 5_000L, "at", 10L)).id();
            String high = other.put(Map.of("n", 5_001L, "at", 9_999L)).id();
            assertThat(first(store, Direction.ASC)).contains(low).isEqualTo(firstByScan(store, true));
            assertThat(first(store, Direction.DESC)).contains(high).isEqualTo(firstByScan(store, false));
            assertThat(seam[0].at(DELTA)).as("the delta is there now: read").contains("read");
        }
    }

    @Test
    void aSeekOverARangeFileWithoutDeltaNeverOpensTheDelta() throws Exception {
        Noting[] seam = new Noting[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new Noting(LocalFiles.at(dir))).build();
        try (DocStore store = DocStore.open(root, "d", options)) {
            for (int i = 0; i < 300; i++) {
                store.put(Map.of("n", (long) i, "at", 100L + i));
            }
            store.indexes().field("at").range().sync();
        }
        try (DocStore store = DocStore.open(root, "d", options)) { // a new instance: its first seek opens the files
            seam[0].calls.clear();
            assertThat(store.query().where("at").between(110L, 119L).count()).isEqualTo(10);
            assertThat(store.query().where("at").between(110L, 119L).get()).hasSize(10);
            // The stamps' looks, and the seek's one plain look: no open of a missing file.
            assertThat(seam[0].at(DELTA)).contains("seen").doesNotContain("open", "read", "input");
            assertThat(seam[0].at(MAIN)).isNotEmpty();
        }
    }

    @Test
    void anEqualityReadLooksAtAnAbsentDeltaOnceAndMergesAPresentOne() throws Exception {
        Noting[] seam = new Noting[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new Noting(LocalFiles.at(dir))).build();
        String page = "/s-70616765.jsonc"; // kind = "page"
        String pageDelta = "/s-70616765.delta.jsonl";
        try (DocStore store = DocStore.open(root, "e", options); DocStore other = DocStore.open(root, "e")) {
            for (int i = 0; i < 40; i++) {
                store.put(Map.of("kind", i % 2 == 0 ? "page" : "post", "n", (long) i));
            }
            store.indexes().valueDeltas(true).field("kind").index().sync();
            seam[0].calls.clear();
            assertThat(store.query().where("kind").eq("page").first()).isPresent();
            assertThat(store.query().where("kind").eq("page").limit(5).get()).hasSize(5);
            assertThat(seam[0].at(pageDelta)).as("absent: one plain look per read, never version's two").isNotEmpty()
                    .containsOnly("seen");

            String added = other.put(Map.of("kind", "page", "n", -1L)).id(); // appends to the delta
            seam[0].calls.clear();
            List<String> pages = store.query().where("kind").eq("page").get().stream().map(StorageRecord::id).toList();
            assertThat(pages).hasSize(21).contains(added);
            assertThat(seam[0].at(pageDelta)).contains("read").doesNotContain("version");
            assertThat(seam[0].at(page)).contains("read");
            assertThat(store.query().where("kind").eq("page").first().map(StorageRecord::id)).contains(
                    pages.stream().sorted().findFirst().orElseThrow());
        }
    }
}
