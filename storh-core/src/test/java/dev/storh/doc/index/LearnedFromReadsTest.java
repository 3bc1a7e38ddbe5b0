package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A count or a page that follows a read of the same value (a page of an equality, the ids of a pair
 * of values) is answered from what that read found, with no look at the value file, while nothing
 * but the store itself can have written; after a write of its own or of another instance it is the
 * file's again. Checked against a scan of the records through random writes of both instances.
 */
class LearnedFromReadsTest {

    @TempDir
    Path root;

    /** The local seam, noting every look at and read of an index entry file (nothing is faked). */
    static final class NotingEntryReads extends ForwardingFiles {
        final List<String> touched = Collections.synchronizedList(new ArrayList<>());

        NotingEntryReads(StoreFiles files) {
            super(files);
        }

        private void note(String what, String name) {
            if (name.contains("/entries/")) {
                touched.add(what + " " + name.substring(name.indexOf("/entries/")));
            }
        }

        @Override
        public Optional<String> version(String name) throws IOException {
            note("version", name);
            return super.version(name);
        }

        @Override
        public Optional<String> likelyFileVersion(String name) throws IOException {
            note("likely", name);
            return super.likelyFileVersion(name);
        }

        @Override
        public Optional<String> versionInSeenFolder(String name) throws IOException {
            note("seen", name);
            return super.versionInSeenFolder(name);
        }

        @Override
        public Optional<Entry> stat(String name) throws IOException {
            note("stat", name);
            return super.stat(name);
        }

        @Override
        public boolean exists(String name) throws IOException {
            note("exists", name);
            return super.exists(name);
        }

        @Override
        public InputStream open(String name) throws IOException {
            note("open", name);
            return super.open(name);
        }

        @Override
        public InputStream open(String name, long offset) throws IOException {
            note("open", name);
            return super.open(name, offset);
        }

        @Override
        public byte[] readAll(String name) throws IOException {
            note("read", name);
            return super.readAll(name);
        }

        @Override
        public byte[] readAll(String name, long sizeSeen) throws IOException {
            note("read", name);
            return super.readAll(name, sizeSeen);
        }

        @Override
        public Input openInput(String name) throws IOException {
            note("input", name);
            return super.openInput(name);
        }

        List<String> drain() {
            synchronized (touched) {
                List<String> out = List.copyOf(touched);
                touched.clear();
                return out;
            }
        }
    }

    private static long scanCount(DocStore store, String kind, Long b) {
        try (var all = store.stream()) {
            return all.map(StorageRecord::data)
                    .filter(d -> kind.equals(d.get("kind")) && (b == null || b.equals(d.get("b")))).count();
        }
    }

    @Test
    void aCountAfterAPageOfTheSameValueTakesNoLookAtItsFile() throws Exception {
        NotingEntryReads[] seam = new NotingEntryReads[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new NotingEntryReads(LocalFiles.at(dir))).build();
        try (DocStore store = DocStore.open(root, "c", options); DocStore other = DocStore.open(root, "c")) {
            for (int i = 0; i < 40; i++) {
                store.put(Map.of("kind", i % 4 == 0 ? "page" : "post", "b", (long) (i % 5)));
            }
            store.indexes().field("kind").index().field("b").index().sync();
            assertThat(store.query().where("kind").eq("post").count()).isEqualTo(30); // the instance has seen its files since

            assertThat(store.query().where("kind").eq("page").limit(3).get()).hasSize(3);
            seam[0].drain();
            assertThat(store.query().where("kind").eq("page").count()).isEqualTo(10);
            assertThat(seam[0].drain()).as("the count the page read found, kept").isEmpty();

            List<String> firstPages = store.query().where("kind").eq("page").limit(3).get().stream().map(StorageRecord::id).toList();
            seam[0].drain();
            assertThat(store.query().where("kind").eq("page").limit(1).get()).extracting(StorageRecord::id)
                    .containsExactly(firstPages.get(0));
            assertThat(store.query().where("kind").eq("page").limit(3).get()).extracting(StorageRecord::id)
                    .containsExactlyElementsOf(firstPages);
            assertThat(seam[0].drain()).as("pages within the ids a page read found, kept").isEmpty();
            assertThat(store.query().where("kind").eq("page").limit(4).get()).hasSize(4);
            assertThat(seam[0].drain()).as("a longer page is read").isNotEmpty();

            assertThat(store.query().where("kind").eq("page").where("b").eq(0L).get()).hasSize(2); // i = 0, 20
            assertThat(store.query().where("kind").eq("post").where("b").eq(99L).get()).isEmpty(); // no bucket
            seam[0].drain();
            assertThat(store.query().where("kind").eq("page").where("b").eq(0L).count()).isEqualTo(2);
            assertThat(store.query().where("kind").eq("post").where("b").eq(99L).count()).isZero();
            assertThat(seam[0].drain()).as("the counts the pair reads found, kept").isEmpty();

            other.put(Map.of("kind", "page", "b", 0L)); // another writer: the files are looked at again
            assertThat(store.query().where("kind").eq("page").count()).isEqualTo(11);
            assertThat(store.query().where("kind").eq("page").where("b").eq(0L).count()).isEqualTo(3);
            assertThat(seam[0].drain()).as("checked again after another writer").isNotEmpty();

            other.put(Map.of("kind", "post", "b", 99L));
            assertThat(store.query().where("kind").eq("post").where("b").eq(99L).get()).hasSize(1);
            assertThat(store.query().where("kind").eq("post").where("b").eq(99L).count()).isEqualTo(1);

            assertThat(store.query().where("kind").eq("page").limit(1).get()).hasSize(1);
            String early = store.put(Map.of("kind", "page", "b", 0L), "00000000-0000-7000-8000-000000000001").id();
            assertThat(store.query().where("kind").eq("page").limit(1).get()).extracting(StorageRecord::id)
                    .as("its own write: the page is the file's again").containsExactly(early);
            store.put(Map.of("kind", "page", "b", 0L)); // its own write: the count is the file's again
            assertThat(store.query().where("kind").eq("page").count()).isEqualTo(13);
            assertThat(store.query().where("kind").eq("page").where("b").eq(0L).count()).isEqualTo(5);
        }
    }

    @Test
    void countsFollowTheRecordsThroughRandomPagesAndWritesOfTwoInstances() throws Exception {
        long seed = System.nanoTime();
        System.out.println("LearnedFromReadsTest seed " + seed);
        Random random = new Random(seed);
        String[] kinds = {"page", "post", "note"};
        try (DocStore store = DocStore.open(root, "c"); DocStore other = DocStore.open(root, "c")) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                ids.add(store.put(Map.of("kind", kinds[i % 3], "b", (long) (i % 4))).id());
            }
            store.indexes().field("kind").index().field("b").index().sync();
            for (int step = 0; step < 300; step++) {
                String kind = kinds[random.nextInt(kinds.length)];
                long b = random.nextInt(5);
                DocStore writer = random.nextBoolean() ? store : other;
                switch (random.nextInt(7)) {
                    case 0 -> ids.add(writer.put(Map.of("kind", kind, "b", b)).id());
                    case 1 -> {
                        if (!ids.isEmpty()) {
                            String id = ids.get(random.nextInt(ids.size()));
                            writer.put(Map.of("kind", kind, "b", b), id);
                        }
                    }
                    case 2 -> {
                        if (!ids.isEmpty()) {
                            writer.delete(ids.remove(random.nextInt(ids.size())));
                        }
                    }
                    case 3 -> {
                        int limit = 1 + random.nextInt(4);
                        List<String> expected;
                        try (var all = store.stream()) {
                            expected = all.filter(r -> kind.equals(r.data().get("kind"))).map(StorageRecord::id).sorted()
                                    .limit(limit).toList();
                        }
                        assertThat(store.query().where("kind").eq(kind).limit(limit).get()).extracting(StorageRecord::id)
                                .as("seed %d step %d kind %s limit %d", seed, step, kind, limit).containsExactlyElementsOf(expected);
                    }
                    case 4 -> store.query().where("kind").eq(kind).where("b").eq(b).get();
                    default -> {
                        long expected = scanCount(store, kind, null);
                        assertThat(store.query().where("kind").eq(kind).count()).as("seed %d step %d kind %s", seed, step, kind)
                                .isEqualTo(expected);
                        assertThat(store.query().where("kind").eq(kind).where("b").eq(b).count())
                                .as("seed %d step %d kind %s b %d", seed, step, kind, b).isEqualTo(scanCount(store, kind, b));
                    }
                }
            }
        }
    }
}
