package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.id.UuidV7;
import dev.storh.query.Values;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index build and compare of verify and rebuilds go through an external sort: with a budget
 * small enough to write many sorted runs, the tree written must be byte for byte the one a
 * whole-collection-in-memory build writes (the value files through {@link EqualityFiles#encode},
 * the range file through {@link RangeFiles#writeMain}), verify must find nothing in it, and a
 * damaged tree must give the same errors whether the compare sorts in memory or through runs.
 * Records hold every value kind of the JSON model, missing fields, lists and objects. Seeds: a
 * fixed list, or {@code -Dstorh.seed=<n>}.
 */
class ExternalIndexSortTest {

    private static final long[] SEEDS = {3L, 11L, 20261201L};
    private static final List<IndexDefinition> DEFS = List.of(new IndexDefinition("e", false, false),
            new IndexDefinition("c", false, false), new IndexDefinition("r", false, true));
    private static final long TINY = 12_000;

    @TempDir
    Path dir;

    private static long[] seeds() {
        return seeds(SEEDS);
    }

    /** @return the fixed seeds, or the one of {@code -Dstorh.seed=<n>} */
    static long[] seeds(long[] fixed) {
        String one = System.getProperty("storh.seed");
        return one == null ? fixed : new long[] {Long.parseLong(one)};
    }

    @Test
    void aTreeBuiltThroughSortedRunsIsTheInMemoryBuildByteForByteAndVerifiesClean() throws IOException {
        for (long seed : seeds()) {
            Path root = dir.resolve("s" + seed);
            StoreFiles files = LocalFiles.at(root);
            List<StorageRecord> records = records(new Random(seed), 800);
            Path runs = build(files, records, "runs", TINY, seed);
            Path memory = build(files, records, "memory", Long.MAX_VALUE, seed);
            Path reference = root.resolve("reference");
            writeReference(files, reference, records);
            assertSameTree(tree(runs), tree(reference), "seed " + seed + ": built through sorted runs");
            assertSameTree(tree(memory), tree(reference), "seed " + seed + ": built in memory");
            assertThat(verify(files, runs, records, TINY)).as("seed %d", seed).isEmpty();
            assertThat(listOrEmpty(root.resolve("sort"))).as("seed %d: run files are removed", seed).isEmpty();
        }
    }

    @Test
    void aDamagedTreeGivesTheSameErrorsThroughSortedRunsAsInMemory() throws IOException {
        for (long seed : seeds()) {
            Random random = new Random(seed);
            Path root = dir.resolve("d" + seed);
            StoreFiles files = LocalFiles.at(root);
            List<StorageRecord> records = records(random, 800);
            Path entries = build(files, records, "entries", Long.MAX_VALUE, seed);
            List<Path> valueFiles;
            try (Stream<Path> all = Files.walk(IndexLayout.equalityDir(entries, "e"))) {
                valueFiles = all.filter(p -> p.toString().endsWith(".jsonc")).sorted().toList();
            }
            // One value file loses its first id and gains an id no record has.
            Path damaged = valueFiles.get(random.nextInt(valueFiles.size()));
            EqualityFiles.Entry e = EqualityFiles.read(files, damaged);
            TreeSet<String> ids = new TreeSet<>(e.ids());
            ids.remove(ids.first());
            ids.add(UuidV7.generate(1_600_000_000_000L));
            Files.write(damaged, EqualityFiles.encode("e", e.key(), e.value(), ids));
            // A range line moves one record to another value, through the delta.
            StorageRecord moved = records.stream().filter(r -> r.data().get("r") instanceof Long).findFirst().orElseThrow();
            RangeFiles rf = new RangeFiles(files, entries, "r");
            rf.appendDelta(List.of(RangeFiles.encodeLine(IndexKeys.rangeKey(-77L), -77L, 1, List.of(moved.id()), List.of())));
            List<String> inRuns = verify(files, entries, records, TINY);
            List<String> inMemory = verify(files, entries, records, Long.MAX_VALUE);
            assertThat(inRuns).as("seed %d", seed).isEqualTo(inMemory)
                    .containsExactlyInAnyOrder("Index mismatch (equality): e " + e.key(),
                            "Index mismatch (range): r " + ExpectedIndexes.rangeGroup(-77L),
                            "Index mismatch (range): r " + ExpectedIndexes.rangeGroup(moved.data().get("r")));
        }
    }

    @Test
    void aFoldThroughSortedRunsWritesWhatTheInMemoryFoldWrites() throws IOException {
        for (long seed : seeds()) {
            Random random = new Random(seed);
            List<StorageRecord> records = records(random, 800);
            Map<String, Object> state = new LinkedHashMap<>();
            for (StorageRecord r : records) {
                if (IndexKeys.isIndexable(r.data().get("r"))) {
                    state.put(r.id(), Values.normalise(r.data().get("r")));
                }
            }
            List<byte[]> delta = new ArrayList<>();
            List<String> ids = new ArrayList<>(state.keySet());
            for (int i = 0; i < 300; i++) {
                String id = random.nextInt(4) == 0 ? UuidV7.generate(1_800_000_000_000L + i) : ids.get(random.nextInt(ids.size()));
                Object value = (long) random.nextInt(50) - 10;
                delta.add(random.nextInt(3) == 0
                        ? RangeFiles.encodeLine(IndexKeys.rangeKey(value), value, -1, List.of(), List.of(id))
                        : RangeFiles.encodeLine(IndexKeys.rangeKey(value), value, 1, List.of(id), List.of()));
            }
            Map<String, String> folded = new TreeMap<>();
            for (String way : List.of("runs", "memory")) {
                StoreFiles files = LocalFiles.at(dir.resolve("f" + seed + way));
                RangeFiles rf = new RangeFiles(files, files.path("entries"), "r");
                AtomicFiles.ensureDirectory(files, files.nameOf(rf.main().getParent()));
                rf.writeMain(state);
                rf.appendDelta(delta);
                if (way.equals("runs")) {
                    rf.fold(TINY);
                } else {
                    rf.writeMain(rf.load(null));
                }
                assertThat(Files.exists(rf.delta())).as("seed %d: the delta is folded", seed).isFalse();
                Map<String, String> t = tree(files.path("entries"));
                if (folded.isEmpty()) {
                    folded.putAll(t);
                } else {
                    assertSameTree(t, folded, "seed " + seed + ": folded through sorted runs");
                }
            }
            assertThat(folded.keySet()).as("seed %d: main and checkpoints only, no run left", seed)
                    .containsExactly("range/72.idx.jsonc", "range/72.jsonl");
        }
    }

    private static List<StorageRecord> records(Random random, int n) {
        List<Object> values = IndexVsScanRandomTest.VALUES;
        List<StorageRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Object> data = new LinkedHashMap<>();
            for (String field : List.of("e", "c", "r")) {
                int pick = random.nextInt(values.size() + 3);
                if (pick < values.size()) {
                    data.put(field, values.get(pick));
                } else if (pick == values.size()) {
                    data.put(field, (long) random.nextInt(40)); // ties
                }
            }
            out.add(new StorageRecord(UuidV7.generate(1_700_000_000_000L + i), data));
        }
        return out;
    }

    private static Path build(StoreFiles files, List<StorageRecord> records, String name, long budget, long seed) {
        Path entries = files.path(name);
        AtomicFiles.ensureDirectory(files, name);
        try (ExpectedIndexes expected = new ExpectedIndexes(files, "sort", budget, true, DEFS, IndexUpdates.compoundPairs(DEFS),
                List.of())) {
            records.forEach(expected::add);
            if (budget == TINY) {
                assertThat(expected.runs()).as("seed %d: sorted runs written", seed).isGreaterThan(3);
            }
            expected.writeTo(files, entries);
        }
        return entries;
    }

    private static List<String> verify(StoreFiles files, Path entries, List<StorageRecord> records, long budget) {
        try (ExpectedIndexes expected = new ExpectedIndexes(files, "sort", budget, false, DEFS, IndexUpdates.compoundPairs(DEFS),
                List.of())) {
            records.forEach(expected::add);
            return expected.compareWith(files, entries);
        }
    }

    /** The tree as the in-memory build wrote it: every bucket gathered first, then each file encoded whole. */
    private static void writeReference(StoreFiles files, Path entries, List<StorageRecord> records) {
        Map<String, TreeMap<String, Object>> values = new TreeMap<>();
        Map<String, TreeMap<String, TreeSet<String>>> buckets = new TreeMap<>();
        Map<String, Object> range = new LinkedHashMap<>();
        List<String> unindexed = new ArrayList<>();
        TreeMap<String, TreeSet<String>> compound = new TreeMap<>();
        for (StorageRecord r : records) {
            for (String field : List.of("e", "c")) {
                Object v = r.data().get(field);
                if (r.data().containsKey(field) && IndexKeys.isIndexable(v)) {
                    Object n = Values.normalise(v);
                    values.computeIfAbsent(field, k -> new TreeMap<>()).putIfAbsent(IndexKeys.valueKey(n), n); // the first in id order
                    buckets.computeIfAbsent(field, k -> new TreeMap<>()).computeIfAbsent(IndexKeys.valueKey(n), k -> new TreeSet<>())
                            .add(r.id());
                }
            }
            Object e = r.data().get("e");
            Object c = r.data().get("c");
            if (r.data().containsKey("e") && r.data().containsKey("c") && IndexKeys.isIndexable(e) && IndexKeys.isIndexable(c)) {
                compound.computeIfAbsent(IndexKeys.compoundKey(Values.normalise(e), Values.normalise(c)), k -> new TreeSet<>())
                        .add(r.id());
            }
            if (r.data().containsKey("r")) {
                if (IndexKeys.isIndexable(r.data().get("r"))) {
                    range.put(r.id(), Values.normalise(r.data().get("r")));
                } else {
                    unindexed.add(r.id());
                }
            }
        }
        buckets.forEach((field, byKey) -> {
            Path d = IndexLayout.equalityDir(entries, field);
            byKey.forEach((key, ids) -> AtomicFiles.writeAtomic(files, files.nameOf(IndexLayout.valueFile(d, key)),
                    EqualityFiles.encode(field, key, values.get(field).get(key), ids)));
        });
        Path cd = IndexLayout.compoundDir(entries, "e", "c");
        compound.forEach((key, ids) -> AtomicFiles.writeAtomic(files, files.nameOf(IndexLayout.valueFile(cd, key)),
                EqualityFiles.encode("e\tc", key, null, ids)));
        RangeFiles rf = new RangeFiles(files, entries, "r");
        AtomicFiles.ensureDirectory(files, files.nameOf(rf.main().getParent()));
        rf.writeMain(range);
        rf.writeUnindexed(unindexed);
    }

    private static void assertSameTree(Map<String, String> actual, Map<String, String> expected, String what) {
        assertThat(actual.keySet()).as(what + ": the files").containsExactlyElementsOf(expected.keySet());
        expected.forEach((file, content) -> assertThat(actual.get(file)).as(what + ": " + file).isEqualTo(content));
    }

    /** @return relative path → content of every file below {@code root} */
    private static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                out.put(root.relativize(p).toString(), Files.readString(p));
            }
        }
        return out;
    }

    private static List<Path> listOrEmpty(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> all = Files.list(folder)) {
            return all.toList();
        }
    }
}
