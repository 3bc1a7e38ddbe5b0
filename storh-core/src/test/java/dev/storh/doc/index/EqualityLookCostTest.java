package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An equality look-up whose value file must be checked again (another writer registered since)
 * takes the value file's version with the look that is cheapest when it is there, its delta's with
 * the look that is cheapest when it is absent (its folder was just seen), and a value that had no
 * file the last time with the look that is cheapest when it still has none; the answers stay those
 * of the files.
 */
class EqualityLookCostTest {

    @TempDir
    Path root;

    /** The local seam, noting which look each version was taken with (nothing is faked). */
    static final class NotingLooks extends ForwardingFiles {
        final List<String> looks = Collections.synchronizedList(new ArrayList<>());

        NotingLooks(StoreFiles files) {
            super(files);
        }

        @Override
        public Optional<String> version(String name) throws IOException {
            looks.add("version " + name);
            return super.version(name);
        }

        @Override
        public Optional<String> likelyFileVersion(String name) throws IOException {
            looks.add("likely " + name);
            return super.likelyFileVersion(name);
        }

        @Override
        public Optional<String> versionInSeenFolder(String name) throws IOException {
            looks.add("seen " + name);
            return super.versionInSeenFolder(name);
        }

        List<String> at(String suffix) {
            synchronized (looks) {
                return looks.stream().filter(l -> l.endsWith(suffix)).map(l -> l.substring(0, l.indexOf(' '))).toList();
            }
        }
    }

    private static List<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).sorted().toList();
    }

    @Test
    void checkedAgainValueFilesAndDeltasTakeOneLookEachAndAnswersFollowTheFiles() throws Exception {
        NotingLooks[] seam = new NotingLooks[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new NotingLooks(LocalFiles.at(dir))).build();
        String page = "/s-70616765.jsonc"; // kind = "page"
        String pageDelta = "/s-70616765.delta.jsonl";
        String none = "/s-6e6f6e65.jsonc"; // kind = "none", never stored
        try (DocStore store = DocStore.open(root, "c", options); DocStore other = DocStore.open(root, "c")) {
            for (int i = 0; i < 30; i++) {
                store.put(Map.of("kind", i % 3 == 0 ? "page" : "post", "n", i));
            }
            store.indexes().field("kind").index().sync();
            other.put(Map.of("kind", "post", "n", 100)); // another writer: what this instance checked is checked again

            seam[0].looks.clear();
            assertThat(store.query().where("kind").eq("page").count()).isEqualTo(10);
            assertThat(seam[0].at(page)).containsExactly("likely");
            assertThat(seam[0].at(pageDelta)).containsExactly("seen");

            other.put(Map.of("kind", "post", "n", 101));
            seam[0].looks.clear();
            List<StorageRecord> pages = store.query().where("kind").eq("page").get();
            assertThat(seam[0].at(page)).containsExactly("likely");
            // The cache's look, then the look of the read that merges the delta into the ids: both the
            // one plain look that an absent delta costs.
            assertThat(seam[0].at(pageDelta)).containsExactly("seen", "seen");
            assertThat(ids(pages)).hasSize(10).isEqualTo(ids(store.query().where("n").gte(0L).get().stream()
                    .filter(r -> "page".equals(r.data().get("kind"))).toList()));

            for (int round = 0; round < 2; round++) {
                other.put(Map.of("kind", "post", "n", 200 + round));
                seam[0].looks.clear();
                assertThat(store.query().where("kind").eq("none").count()).isZero();
                assertThat(store.query().where("kind").eq("none").get()).isEmpty();
            }
            // The first look-up of each cache expects a file; once it had none, the next expects none.
            assertThat(seam[0].at(none)).containsExactly("version", "version");

            String added = other.put(Map.of("kind", "none", "n", 300)).id();
            assertThat(store.query().where("kind").eq("none").count()).isEqualTo(1);
            assertThat(ids(store.query().where("kind").eq("none").get())).containsExactly(added);
            other.put(Map.of("kind", "page", "n", 301));
            assertThat(store.query().where("kind").eq("page").count()).isEqualTo(11);
            assertThat(store.query().where("kind").eq("page").get()).hasSize(11);
        }
    }

    @Test
    void compoundCountsExpectNoBucketAtFirstAndTheBucketOnceItWasThere() throws Exception {
        NotingLooks[] seam = new NotingLooks[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new NotingLooks(LocalFiles.at(dir))).build();
        try (DocStore store = DocStore.open(root, "c", options); DocStore other = DocStore.open(root, "c")) {
            for (int i = 0; i < 30; i++) {
                store.put(Map.of("kind", i % 3 == 0 ? "page" : "post", "b", (long) (i % 5)));
            }
            store.indexes().field("kind").index().field("b").index().sync();
            List<Long> counts = new ArrayList<>();
            List<List<String>> looks = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                other.put(Map.of("kind", "post", "b", 100L + round)); // another writer: checked again
                seam[0].looks.clear();
                counts.add(store.query().where("kind").eq("page").where("b").eq(0L).count());
                counts.add(store.query().where("kind").eq("page").where("b").eq(99L).count());
                looks.add(seam[0].looks.stream().filter(l -> l.contains("/compound/") && l.endsWith(".jsonc"))
                        .map(l -> l.substring(0, l.indexOf(' '))).toList());
            }
            assertThat(counts).containsExactly(2L, 0L, 2L, 0L); // i = 0 and 15
            assertThat(looks.get(0)).as("first look-ups: a pair's bucket is as often absent").containsExactly("version", "version");
            assertThat(looks.get(1)).as("then as the last look found it").containsExactly("likely", "version");
            other.put(Map.of("kind", "page", "b", 99L));
            assertThat(store.query().where("kind").eq("page").where("b").eq(99L).count()).isEqualTo(1);
            assertThat(store.query().where("kind").eq("page").where("b").eq(0L).count()).isEqualTo(2);
        }
    }
}
