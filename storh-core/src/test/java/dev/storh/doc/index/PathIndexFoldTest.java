package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
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
 * What a store writes to a path index, its state takes as read. A delta folded into its main file by
 * this store's own write: the unique checks and queries that follow read no main file back (before,
 * every fold cost a whole read and decode of the index at the next batch). The delta lines it
 * appends: they are not read back either, and a write whose files are put back (its undo) takes them
 * out of the state again, also when another writer then grows the delta past where they ended.
 * Another writer's later changes are still seen, and answers stay those of a scan. Real files in a
 * temp folder.
 */
class PathIndexFoldTest {

    private static final FieldPath SKU = FieldPath.of("sku");
    private static final FieldPath CODE = FieldPath.of("code");
    private static final String SKU_DELTA = "/paths/" + new PathIndexDefinition(SKU, true, false).fileKey() + ".delta.jsonl";

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

    private static List<String> idsByScan(DocStore store, String field, String value) {
        try (Stream<StorageRecord> all = store.stream()) {
            return all.filter(r -> value.equals(r.data().get(field))).map(StorageRecord::id).sorted().toList();
        }
    }

    private static List<String> idsByIndex(DocStore store, FieldPath path, String value) {
        return store.query().where(path).eq(value).get().stream().map(StorageRecord::id).sorted().toList();
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
            assertThat(idsByIndex(store, SKU, fresh)).containsExactly(freshId);
            assertThat(idsByIndex(store, SKU, old)).as("seed %d", seed).hasSize(1).isEqualTo(idsByScan(store, "sku", old));
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
            assertThat(idsByIndex(store, SKU, others)).containsExactly(othersId).isEqualTo(idsByScan(store, "sku", others));
            for (int i = 0; i < 20; i++) {
                String sku = skus.get(random.nextInt(skus.size()));
                assertThat(idsByIndex(store, SKU, sku)).as("seed %d", seed).isEqualTo(idsByScan(store, "sku", sku)).hasSize(1);
            }
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    private static Map<String, Object> coded(String sku, String code) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("sku", sku);
        data.put("code", code);
        return data;
    }

    private Path skuDelta() throws IOException {
        try (Stream<Path> files = Files.walk(root.resolve("c").resolve(".storh").resolve("indexes"))) {
            return files.filter(p -> p.toString().endsWith(SKU_DELTA)).findFirst().orElseThrow();
        }
    }

    private static List<Map<String, Object>> batch(String prefix, int n, int width) {
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            items.add(coded(prefix + "-sku-" + i + "-" + "x".repeat(width), prefix + "-code-" + i + "-" + "y".repeat(width)));
        }
        return items;
    }

    @Test
    void aStoreDoesNotReadBackTheDeltaLinesItAppended() throws Exception {
        RangeAndDeltaLookCostTest.Noting[] seam = new RangeAndDeltaLookCostTest.Noting[1];
        DocStoreOptions options = DocStoreOptions.builder()
                .files(dir -> seam[0] = new RangeAndDeltaLookCostTest.Noting(LocalFiles.at(dir))).build();
        try (DocStore store = DocStore.open(root, "c", options)) {
            store.indexes().definePath(SKU, true, false).sync();
            for (int b = 0; b < 3; b++) {
                store.putMany(batch("b" + b, 20, 10));
            }
            long before = Files.size(skuDelta());
            seam[0].calls.clear();
            store.putMany(batch("b3", 20, 10));
            assertThatThrownBy(() -> store.put(coded("b3-sku-7-" + "x".repeat(10), "dup")))
                    .isInstanceOf(UniqueConstraintException.class);
            assertThat(idsByIndex(store, SKU, "b3-sku-7-" + "x".repeat(10))).hasSize(1)
                    .isEqualTo(idsByScan(store, "sku", "b3-sku-7-" + "x".repeat(10)));
            assertThat(idsByIndex(store, SKU, "b1-sku-3-" + "x".repeat(10))).hasSize(1);
            List<Long> offsets;
            synchronized (seam[0].calls) {
                offsets = seam[0].calls.stream().filter(c -> c.startsWith("from") && c.endsWith(SKU_DELTA))
                        .map(c -> Long.parseLong(c.substring(4, c.indexOf(' ')))).toList();
            }
            // Only the look at the delta's last byte before an append: no line read back.
            assertThat(offsets).as("delta reads at %s (size before the batch %d)", offsets, before).containsExactly(before - 1);
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    /** While armed, lets the first path index delta append through and fails the append to another. */
    static final class FailingAppends extends ForwardingFiles {
        volatile boolean armed;
        volatile String passed;

        FailingAppends(StoreFiles files) {
            super(files);
        }

        @Override
        public Output append(String name) throws IOException {
            if (armed && name.contains("/paths/") && name.endsWith(".delta.jsonl")) {
                if (passed == null) {
                    passed = name;
                } else if (!passed.equals(name)) {
                    throw new IOException("injected append failure: " + name);
                }
            }
            return super.append(name);
        }
    }

    @Test
    void anUndoneWriteLeavesNothingInTheStateAlsoWhenAnotherWriterGrowsTheDelta() throws Exception {
        long seed = System.nanoTime();
        System.out.println("PathIndexDeltaAdoptTest seed " + seed);
        Random random = new Random(seed);
        FailingAppends[] seam = new FailingAppends[1];
        DocStoreOptions options = DocStoreOptions.builder().files(dir -> seam[0] = new FailingAppends(LocalFiles.at(dir))).build();
        try (DocStore store = DocStore.open(root, "c", options)) {
            store.indexes().definePath(SKU, true, false).definePath(CODE, true, false).sync();
            store.putMany(batch("first", 10, 10));
            Map<Path, Long> before = deltaSizes();

            // The first index's delta is appended (and taken as read), the second's append fails: the write is undone.
            seam[0].armed = true;
            List<Map<String, Object>> undone = batch("undone", 10, 10);
            assertThatThrownBy(() -> store.putMany(undone)).isInstanceOf(StorageException.class);
            seam[0].armed = false;
            assertThat(seam[0].passed).as("one delta was appended before the failure").isNotNull();
            assertThat(deltaSizes()).as("the deltas were cut back").isEqualTo(before);

            // Another writer grows the deltas past where the undone lines ended.
            List<Map<String, Object>> others = batch("other" + random.nextInt(1000), 10, 200);
            try (DocStore other = DocStore.open(root, "c")) {
                other.putMany(others);
            }
            for (FieldPath path : List.of(SKU, CODE)) {
                String field = path.toString();
                for (Map<String, Object> o : others) {
                    String value = (String) o.get(field);
                    assertThat(idsByIndex(store, path, value)).as("seed %d: %s", seed, value).hasSize(1)
                            .isEqualTo(idsByScan(store, field, value));
                }
                for (Map<String, Object> u : undone) {
                    String value = (String) u.get(field);
                    assertThat(idsByIndex(store, path, value)).as("seed %d: an undone value %s", seed, value).isEmpty();
                }
            }
            Map<String, Object> again = undone.get(random.nextInt(undone.size()));
            String id = store.put(again).id();
            assertThat(idsByIndex(store, SKU, (String) again.get("sku"))).containsExactly(id);
            assertThat(idsByIndex(store, CODE, (String) again.get("code"))).containsExactly(id);
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    private Map<Path, Long> deltaSizes() throws IOException {
        Map<Path, Long> sizes = new java.util.TreeMap<>();
        try (Stream<Path> files = Files.walk(root.resolve("c").resolve(".storh").resolve("indexes"))) {
            for (Path p : files.filter(p -> p.toString().endsWith(".delta.jsonl")).toList()) {
                sizes.put(p, Files.size(p));
            }
        }
        return sizes;
    }
}
