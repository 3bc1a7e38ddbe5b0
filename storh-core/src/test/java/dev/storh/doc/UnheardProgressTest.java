package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.progress.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export or a reindex nobody listens to does not count the records first for a progress total
 * nobody reads: each bucket folder is listed once, not once for the count and again for the walk. With
 * a listener the total is there, and it is the record count.
 */
class UnheardProgressTest {

    @TempDir
    Path root;

    /** Counts the listings of each bucket folder. */
    private static final class ListingCounting extends ForwardingFiles {
        final Map<String, AtomicInteger> lists = new ConcurrentHashMap<>();

        ListingCounting(Path folder) {
            super(LocalFiles.at(folder));
        }

        @Override
        public List<String> list(String dir) throws IOException {
            if (dir.matches("data/[0-9a-f]{2}")) {
                lists.computeIfAbsent(dir, d -> new AtomicInteger()).incrementAndGet();
            }
            return files.list(dir);
        }
    }

    private DocStore open(ListingCounting[] seam) {
        return DocStore.open(root, "c", DocStoreOptions.builder().files(folder -> {
            seam[0] = new ListingCounting(folder);
            return seam[0];
        }).build());
    }

    @Test
    void anExportAndAReindexNobodyHearsListEachBucketOnce() throws Exception {
        ListingCounting[] seam = new ListingCounting[1];
        try (DocStore store = open(seam)) {
            store.indexes().field("n").index().sync();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                rows.add(Map.of("n", (long) (i % 7)));
            }
            store.putStream(rows); // buckets just written: their listings cannot be kept yet
            seam[0].lists.clear();
            Path out = root.resolve("out.jsonl");
            assertThat(store.exportJsonl(out)).isEqualTo(60);
            assertThat(Files.readAllLines(out)).hasSize(60);
            assertThat(seam[0].lists).isNotEmpty();
            assertThat(seam[0].lists.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
            seam[0].lists.clear();
            assertThat(store.reindex().fields()).isEqualTo(1);
            assertThat(seam[0].lists.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
            assertThat(store.query().where("n").eq(3L).count()).isEqualTo(9);
        }
    }

    @Test
    void aListenerStillGetsTheRecordCountAsItsTotal() {
        ListingCounting[] seam = new ListingCounting[1];
        try (DocStore store = open(seam)) {
            for (int i = 0; i < 25; i++) {
                store.put(Map.of("n", (long) i));
            }
            List<Progress> seen = new ArrayList<>();
            store.exportJsonl(root.resolve("out.jsonl"), seen::add);
            assertThat(seen).isNotEmpty();
            assertThat(seen.get(0).total()).isEqualTo(25);
            assertThat(seen.get(seen.size() - 1).done()).isEqualTo(25);
            List<Progress> reindexed = new ArrayList<>();
            store.reindex(reindexed::add);
            assertThat(reindexed.get(0).total()).isEqualTo(25);
        }
    }
}
