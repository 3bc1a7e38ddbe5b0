package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * storh's opt-in value deltas: with {@code valueDeltas(true)} a write appends its change of a
 * value to {@code <valueKey>.delta.jsonl} and leaves the value file alone (so its cost does not
 * grow with the value's ids), every indexed answer still equals a scan, verify is clean, a delta
 * is folded once it is large, the manifest records the layout, and turning it off and reindexing
 * gives the original's files back. Seeds: a fixed list, or {@code -Dstorh.seed=<n>}.
 */
class ValueDeltasTest {

    private static final long[] SEEDS = {3L, 11L, 2026L};

    @TempDir
    Path root;

    private static long[] seeds() {
        String override = System.getProperty("storh.seed");
        return override == null || override.isBlank() ? SEEDS : new long[] {Long.parseLong(override.trim())};
    }

    private DocStore open(String name) {
        DocStore store = DocStore.open(root, name);
        store.indexes().valueDeltas(true).field("kind").field("status").field("tag").field("slug").unique()
                .field("rank").range().sync();
        return store;
    }

    @Test
    void indexedAnswersEqualAScanWithValueDeltas() {
        for (long seed : seeds()) {
            runSeed(seed);
        }
    }

    private void runSeed(long seed) {
        String name = "c" + seed;
        Random rnd = new Random(seed);
        Map<String, Map<String, Object>> model = new LinkedHashMap<>();
        DocStore store = open(name);
        try {
            for (int step = 0; step < 600; step++) {
                int op = rnd.nextInt(10);
                if (op < 5 || model.isEmpty()) {
                    Map<String, Object> data = row(rnd, step);
                    try {
                        model.put(store.put(data).id(), data);
                    } catch (UniqueConstraintException taken) {
                        // the model keeps what the store keeps
                    }
                } else if (op < 7) {
                    String id = pick(rnd, model);
                    Map<String, Object> data = row(rnd, step);
                    try {
                        store.put(data, id);
                        model.put(id, data);
                    } catch (UniqueConstraintException taken) {
                        // unchanged
                    }
                } else if (op < 9) {
                    String id = pick(rnd, model);
                    assertThat(store.delete(id)).as("seed " + seed).isTrue();
                    model.remove(id);
                } else {
                    List<Map<String, Object>> batch = new ArrayList<>();
                    for (int i = 0; i < 1 + rnd.nextInt(20); i++) {
                        batch.add(Map.of("kind", "k" + rnd.nextInt(3), "status", "s" + rnd.nextInt(2), "rank", (long) i));
                    }
                    store.putMany(batch).forEach(r -> model.put(r.id(), r.data()));
                }
                if (step % 97 == 0) {
                    store.close();
                    store = open(name);
                }
                if (step % 50 == 0) {
                    check(store, model, seed);
                }
            }
            check(store, model, seed);
            assertThat(store.verify().errors()).as("seed " + seed).isEmpty();
            assertThat(deltas(name)).as("seed %d: the writes left deltas", seed).isNotEmpty();

            store.indexes().valueDeltas(false).sync();
            store.reindex();
            assertThat(deltas(name)).as("seed %d: reindex without deltas writes the original's files only", seed).isEmpty();
            check(store, model, seed);
        } finally {
            store.close();
        }
    }

    private static Map<String, Object> row(Random rnd, int step) {
        Map<String, Object> data = new HashMap<>();
        data.put("kind", "k" + rnd.nextInt(3));
        data.put("status", "s" + rnd.nextInt(2));
        if (rnd.nextBoolean()) {
            data.put("tag", rnd.nextInt(4) == 0 ? null : "t" + rnd.nextInt(5));
        }
        if (rnd.nextInt(3) == 0) {
            data.put("slug", "slug" + rnd.nextInt(40));
        }
        data.put("rank", (long) rnd.nextInt(50));
        data.put("step", (long) step);
        return data;
    }

    private static String pick(Random rnd, Map<String, ?> model) {
        List<String> ids = new ArrayList<>(model.keySet());
        return ids.get(rnd.nextInt(ids.size()));
    }

    private static void check(DocStore store, Map<String, Map<String, Object>> model, long seed) {
        for (String field : List.of("kind", "status", "tag", "slug")) {
            Map<Object, TreeSet<String>> expected = new HashMap<>();
            model.forEach((id, data) -> {
                if (data.containsKey(field)) {
                    expected.computeIfAbsent(data.get(field) == null ? "\0null" : data.get(field), v -> new TreeSet<>()).add(id);
                }
            });
            expected.forEach((value, ids) -> {
                Object v = "\0null".equals(value) ? null : value;
                String as = "seed " + seed + ": " + field + " = " + v;
                assertThat(store.query().where(field).eq(v).get()).as(as).extracting(StorageRecord::id)
                        .containsExactlyElementsOf(ids);
                assertThat(store.query().where(field).eq(v).count()).as(as).isEqualTo(ids.size());
                assertThat(store.query().where(field).eq(v).limit(3).get()).as(as).extracting(StorageRecord::id)
                        .containsExactlyElementsOf(ids.stream().limit(3).toList());
            });
        }
        for (int k = 0; k < 3; k++) {
            for (int s = 0; s < 2; s++) {
                String kind = "k" + k;
                String status = "s" + s;
                long expected = model.values().stream().filter(d -> kind.equals(d.get("kind")) && status.equals(d.get("status")))
                        .count();
                assertThat(store.query().where("kind").eq(kind).where("status").eq(status).count())
                        .as("seed %d: compound %s %s", seed, kind, status).isEqualTo(expected);
            }
        }
    }

    private List<Path> deltas(String collection) {
        Path entries = root.resolve(collection).resolve(".storh/indexes/entries");
        if (!Files.isDirectory(entries)) {
            return List.of();
        }
        try (Stream<Path> all = Files.walk(entries)) {
            return all.filter(p -> p.getFileName().toString().endsWith(ValueDeltas.SUFFIX)).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The seeded write mix and random query shapes of {@link IndexVsScanRandomTest}, with value deltas on. */
    @Test
    void everyValueKindAndQueryShapeEqualsAScanWithValueDeltas() {
        for (long seed : IndexVsScanRandomTest.seeds()) {
            Random random = new Random(seed);
            Path dir = root.resolve("shapes-" + seed);
            List<String> written = new ArrayList<>();
            java.util.concurrent.atomic.AtomicReference<DocStore> open = new java.util.concurrent.atomic.AtomicReference<>(
                    DocStore.open(dir, "r"));
            try {
                DocStore store = open.get();
                store.indexes().valueDeltas(true).field("e").field("c").field("u").unique().field("r").range().sync();
                store = IndexVsScanRandomTest.randomWrites(store, random, written, 90, () -> DocStore.open(dir, "r"), open::set);
                assertThat(store.verify().errors()).as("seed %d verify", seed).isEmpty();
                dev.storh.query.QueryBuilder scan = dev.storh.query.QueryBuilder.on(IndexVsScanRandomTest.scanReference(store));
                for (int i = 0; i < 120; i++) {
                    dev.storh.query.QueryBuilder shape = IndexVsScanRandomTest.randomQuery(random, store.query(), written);
                    dev.storh.query.QueryBuilder indexed = IndexVsScanRandomTest.replay(shape, store.query());
                    dev.storh.query.QueryBuilder scanned = IndexVsScanRandomTest.replay(shape, scan);
                    String label = "seed " + seed + " query " + indexed;
                    assertThat(IndexVsScanRandomTest.ids(indexed.get())).as(label)
                            .isEqualTo(IndexVsScanRandomTest.ids(scanned.get()));
                    assertThat(indexed.count()).as("count " + label).isEqualTo(scanned.count());
                }
            } finally {
                open.get().close();
            }
        }
    }

    @Test
    void aWriteAppendsToTheDeltaAndLeavesTheValueFileAloneUntilTheDeltaIsFolded() throws IOException {
        try (DocStore store = open("fold")) {
            store.put(Map.of("kind", "shared", "rank", 0L));
            Path valueFile = root.resolve("fold/.storh/indexes/entries/eq/6b696e64/s-736861726564.jsonc");
            byte[] first = Files.readAllBytes(valueFile);
            Path delta = ValueDeltas.deltaOf(valueFile);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                ids.add(store.put(Map.of("kind", "shared", "rank", (long) i)).id());
            }
            assertThat(Files.readAllBytes(valueFile)).as("the value file is not rewritten").isEqualTo(first);
            assertThat(Files.readAllLines(delta)).hasSize(20).last().asString().startsWith("{\"add\":[\"")
                    .endsWith("\"],\"remove\":[],\"count\":21}");
            store.delete(ids.get(3));
            assertThat(Files.readAllLines(delta)).last().asString().startsWith("{\"add\":[],\"remove\":[\"")
                    .endsWith("\"],\"count\":20}");
            assertThat(store.query().where("kind").eq("shared").count()).isEqualTo(20);

            int n = 0;
            while (Files.exists(delta) && n < 10_000) {
                store.put(Map.of("kind", "shared", "rank", (long) n++));
                assertThat(Files.exists(delta) ? Files.size(delta) : 0)
                        .isLessThanOrEqualTo(ValueDeltas.foldAt(Files.size(valueFile)) + 200);
            }
            assertThat(delta).as("folded after %d more puts", n).doesNotExist();
            assertThat(store.query().where("kind").eq("shared").count()).isEqualTo(20 + n);
            assertThat(store.verify().errors()).isEmpty();
        }
        assertThat(Files.readString(root.resolve("fold/.storh/indexes/manifest.jsonc")))
                .contains("\"layout\": \"value-deltas\"");
    }

    @Test
    void aValueWhoseLastIdGoesLosesBothFilesAndAUniqueValueIsFreedThroughTheDelta() {
        try (DocStore store = open("empty")) {
            String a = store.put(Map.of("kind", "solo", "slug", "home")).id();
            String b = store.put(Map.of("kind", "solo", "slug", "about")).id();
            Path valueFile = root.resolve("empty/.storh/indexes/entries/eq/6b696e64/s-736f6c6f.jsonc");
            assertThat(ValueDeltas.deltaOf(valueFile)).exists();
            assertThatThrownBy(() -> store.put(Map.of("slug", "home"))).isInstanceOf(UniqueConstraintException.class);
            store.delete(a);
            store.delete(b);
            assertThat(valueFile).doesNotExist();
            assertThat(ValueDeltas.deltaOf(valueFile)).doesNotExist();
            assertThat(store.put(Map.of("slug", "home")).data()).containsEntry("slug", "home");
            assertThat(store.query().where("kind").eq("solo").count()).isZero();
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void verifyReportsADeltaWhoseCountDisagreesWithItsIds() throws IOException {
        try (DocStore store = open("drift")) {
            store.put(Map.of("kind", "shared"));
            store.put(Map.of("kind", "shared"));
            Path valueFile = root.resolve("drift/.storh/indexes/entries/eq/6b696e64/s-736861726564.jsonc");
            Files.writeString(ValueDeltas.deltaOf(valueFile), "{\"count\":7,\"add\":[],\"remove\":[]}\n",
                    java.nio.file.StandardOpenOption.APPEND);
            assertThat(store.verify().errors()).containsExactly("Index count mismatch: " + valueFile);
            store.reindex();
            assertThat(store.verify().errors()).isEmpty();
            assertThat(store.query().where("kind").eq("shared").count()).isEqualTo(2);
        }
    }

    @Test
    void aTornLastLineIsSkippedAndTheNextWriteFoldsTheDeltaInsteadOfAppendingAfterIt() throws IOException {
        try (DocStore store = open("torn")) {
            String a = store.put(Map.of("kind", "shared")).id();
            String b = store.put(Map.of("kind", "shared")).id();
            Path valueFile = root.resolve("torn/.storh/indexes/entries/eq/6b696e64/s-736861726564.jsonc");
            Path delta = ValueDeltas.deltaOf(valueFile);
            Files.writeString(delta, "{\"count\":3,\"add\":[\"0190", java.nio.file.StandardOpenOption.APPEND);
            assertThat(store.query().where("kind").eq("shared").get()).extracting(StorageRecord::id).containsExactly(a, b);
            String c = store.put(Map.of("kind", "shared")).id();
            assertThat(delta).as("folded, not appended after the torn line").doesNotExist();
            assertThat(store.query().where("kind").eq("shared").get()).extracting(StorageRecord::id).containsExactly(a, b, c);
            assertThat(store.query().where("kind").eq("shared").count()).isEqualTo(3);
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void turningValueDeltasOffRebuildsTheOriginalsFilesAndTheManifestLosesItsLayout() throws IOException {
        List<String> ids = new ArrayList<>();
        try (DocStore store = open("off")) {
            for (int i = 0; i < 30; i++) {
                ids.add(store.put(Map.of("kind", "k" + (i % 2), "status", "s", "rank", (long) i)).id());
            }
            assertThat(deltas("off")).isNotEmpty();
            assertThat(store.indexes().valueDeltas()).isTrue();
            store.indexes().valueDeltas(false).sync();
            assertThat(store.indexes().valueDeltas()).isFalse();
            assertThat(deltas("off")).as("no delta left for the original to miss").isEmpty();
            assertThat(Files.readString(root.resolve("off/.storh/indexes/manifest.jsonc"))).doesNotContain("layout");
            assertThat(store.query().where("kind").eq("k0").get()).extracting(StorageRecord::id)
                    .containsExactlyElementsOf(new TreeSet<>(ids.subList(0, 30).stream().filter(id -> ids.indexOf(id) % 2 == 0)
                            .toList()));
            assertThat(store.query().where("kind").eq("k1").where("status").eq("s").count()).isEqualTo(15);
            store.put(Map.of("kind", "k0"));
            assertThat(deltas("off")).as("writes rewrite value files again").isEmpty();
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void anotherInstanceSeesTheLayoutAndTheDeltasOfTheFirst() {
        try (DocStore first = open("two"); DocStore second = DocStore.open(root, "two")) {
            String a = first.put(Map.of("kind", "shared")).id();
            assertThat(second.query().where("kind").eq("shared").count()).isEqualTo(1);
            String b = second.put(Map.of("kind", "shared")).id();
            assertThat(second.indexes().valueDeltas()).isTrue();
            assertThat(deltas("two")).as("the second instance appends too").isNotEmpty();
            assertThat(first.query().where("kind").eq("shared").count()).isEqualTo(2);
            assertThat(first.query().where("kind").eq("shared").get()).extracting(StorageRecord::id).containsExactly(a, b);
        }
    }
}
