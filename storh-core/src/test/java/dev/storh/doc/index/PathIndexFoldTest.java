package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.LocalFiles;
import dev.storh.query.FieldPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A path index whose delta is folded into its main file by this store's own write: the store's
 * state already holds the entries it wrote, so the unique checks and queries that follow read no
 * main file back (before, every fold cost a whole read and decode of the index at the next batch).
 * Another writer's later changes are still seen, and answers stay those of a scan.
 */
class PathIndexFoldTest {

    private static final FieldPath SKU = FieldPath.of("sku");

    @TempDir
    Path root;

    private static Map<String, Object> item(String sku, long n) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("sku", sku);
        data.put("n", n);
        return data;
    }

    /** A long value, so that a few hundred records fill the delta past the fold size. */
    private static String sku(Random random, int i) {
        StringBuilder text = new StringBuilder("sku-").append(i).append('-');
        while (text.length() < 2_000) {
            text.append(Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
        }
        return text.toString();
    }

    private static List<String> idsByScan(DocStore store, String sku) {
        try (Stream<StorageRecord> all = store.stream()) {
            return all.filter(r -> sku.equals(r.data().get("sku"))).map(StorageRecord::id).sorted().toList();
        }
    }

    private static List<String> idsByIndex(DocStore store, String sku) {
        return store.query().where(SKU).eq(sku).get().stream().map(StorageRecord::id).sorted().toList();
    }

    private Path pathsFolder() {
        return root.resolve("c").resolve(".storh").resolve("indexes").resolve("entries").resolve("paths");
    }

    private boolean folded() throws IOException {
        try (Stream<Path> files = Files.list(pathsFolder())) {
            List<Path> all = files.toList();
            boolean deltaAbsent = all.stream().noneMatch(p -> p.getFileName().toString().endsWith(".delta.jsonl"));
            boolean bigMain = all.stream().anyMatch(p -> p.getFileName().toString().endsWith(".jsonl") && size(p) > (1 << 20));
            return deltaAbsent && bigMain;
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    @Test
    void afterItsOwnFoldAStoreReadsNoMainFileBackAndStillSeesAnotherWriter() throws Exception {
        long seed = System.nanoTime();
        System.out.println("PathIndexFoldTest seed " + seed);
        Random random = new Random(seed);
        RangeAndDeltaLookCostTest.Noting[] seam = new RangeAndDeltaLookCostTest.Noting[1];
        DocStoreOptions options = DocStoreOptions.builder()
                .files(dir -> seam[0] = new RangeAndDeltaLookCostTest.Noting(LocalFiles.at(dir))).build();
        List<String> skus = new ArrayList<>();
        try (DocStore store = DocStore.open(root, "c", options)) {
            store.indexes().definePath(SKU, true, false).sync();
            int batches = 0;
            while (!folded()) {
                assertThat(batches++).as("a fold within 20 batches of 100 values of 2 KB (seed %d)", seed).isLessThan(20);
                List<Map<String, Object>> batch = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    String sku = sku(random, skus.size());
                    skus.add(sku);
                    batch.add(item(sku, skus.size()));
                }
                store.putMany(batch);
            }

            seam[0].calls.clear();
            String fresh = sku(random, -1);
            String freshId = store.put(item(fresh, -1L)).id();
            String old = skus.get(random.nextInt(skus.size()));
            assertThatThrownBy(() -> store.put(item(old, -2L))).as("seed %d", seed)
                    .isInstanceOf(UniqueConstraintException.class).hasMessageContaining("sku");
            assertThat(idsByIndex(store, fresh)).containsExactly(freshId);
            assertThat(idsByIndex(store, old)).as("seed %d", seed).hasSize(1).isEqualTo(idsByScan(store, old));
            synchronized (seam[0].calls) {
                assertThat(seam[0].calls.stream().filter(c -> c.contains("/paths/") && c.endsWith(".jsonl")
                        && !c.endsWith(".delta.jsonl") && (c.startsWith("read ") || c.startsWith("open ")
                                || c.startsWith("input ")))).as("the main file this store folded is not read back").isEmpty();
            }

            // Another writer's value, after the fold: refused here, found by the index.
            String others = sku(random, -3);
            String othersId;
            try (DocStore other = DocStore.open(root, "c")) {
                othersId = other.put(item(others, -3L)).id();
            }
            assertThatThrownBy(() -> store.put(item(others, -4L))).isInstanceOf(UniqueConstraintException.class);
            assertThat(idsByIndex(store, others)).containsExactly(othersId).isEqualTo(idsByScan(store, others));
            for (int i = 0; i < 20; i++) {
                String sku = skus.get(random.nextInt(skus.size()));
                assertThat(idsByIndex(store, sku)).as("seed %d", seed).isEqualTo(idsByScan(store, sku)).hasSize(1);
            }
            assertThat(store.verify().errors()).isEmpty();
        }
    }
}
