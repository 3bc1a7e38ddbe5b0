package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.query.Direction;
import dev.storh.query.QueryBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block seek of {@link RangeSeek}: the blocks a binary search over the main file's bytes finds
 * for a window of keys hold exactly the entries of a whole-file replay in that window, also with
 * lines longer than a block (blocks in which no line starts); a window's read touches a few blocks,
 * not the file; the entry count from the checkpoint file equals the replay's. Seeds: a fixed list,
 * or {@code -Dstorh.seed=<n>}, printed.
 */
class RangeSeekBlocksTest {

    @TempDir
    Path root;

    /** Counts the bytes read through {@link StoreFiles#openInput}. */
    private static final class CountingFiles extends ForwardingFiles {
        final AtomicLong bytes = new AtomicLong();

        CountingFiles(StoreFiles files) {
            super(files);
        }

        @Override
        public Input openInput(String name) throws IOException {
            Input in = super.openInput(name);
            return new Input() {
                @Override
                public int read(byte[] into, int offset, int length, long position) throws IOException {
                    int n = in.read(into, offset, length, position);
                    bytes.addAndGet(Math.max(0, n));
                    return n;
                }

                @Override
                public long size() throws IOException {
                    return in.size();
                }

                @Override
                public void close() throws IOException {
                    in.close();
                }
            };
        }
    }

    @Test
    void blocksFoundByASearchHoldTheWindowsOfAReplay() throws Exception {
        for (long seed : IndexVsScanRandomTest.seeds()) {
            System.out.println("RangeSeekBlocksTest seed " + seed);
            runSeed(seed);
        }
    }

    private void runSeed(long seed) throws Exception {
        Random random = new Random(seed);
        Path dir = root.resolve("seed-" + seed);
        int n = 3_000 + random.nextInt(500);
        try (DocStore store = DocStore.open(dir, "q")) {
            store.indexes().field("n").range().field("s").range().sync();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Map<String, Object> data = new LinkedHashMap<>();
                data.put("n", random.nextInt(5) == 0 ? (long) random.nextInt(40) : (long) random.nextInt(1_000_000));
                // now and then a string longer than a block: blocks in which no line starts
                data.put("s", random.nextInt(200) == 0 ? "k" + "x".repeat(RangeSeek.BLOCK + random.nextInt(3 * RangeSeek.BLOCK))
                        : "k" + random.nextInt(5_000));
                rows.add(data);
            }
            store.putStream(rows);
            store.reindex(); // everything in the main files
        }
        Path entries = dir.resolve("q/.storh/indexes/entries");
        CountingFiles files = new CountingFiles(LocalFiles.at(dir.resolve("q")));
        for (String field : List.of("n", "s")) {
            RangeFiles rf = new RangeFiles(files, entries, field);
            Map<String, Object> state = rf.load(null);
            TreeMap<String, List<String>> byKey = new TreeMap<>();
            state.forEach((id, value) -> byKey.computeIfAbsent(IndexKeys.rangeKey(value), k -> new ArrayList<>()).add(id));
            List<String> keys = new ArrayList<>(byKey.keySet());
            long size = Files.size(rf.main());
            assertThat(size).as("seed %d %s: several blocks", seed, field).isGreaterThan(8L * RangeSeek.BLOCK);
            files.bytes.set(0);
            RangeSeek seek = RangeSeek.open(files, rf);
            assertThat(seek).as("seed %d %s: seekable", seed, field).isNotNull();
            if (field.equals("n")) { // lines of about 130 bytes: the first and the last line
                assertThat(files.bytes.get()).as("seed %d %s: open reads the ends only", seed, field).isLessThan(8_192);
            }
            for (int round = 0; round < 60; round++) {
                String from = keys.get(random.nextInt(keys.size()));
                String to = keys.get(random.nextInt(keys.size()));
                if (from.compareTo(to) > 0) {
                    String t = from;
                    from = to;
                    to = t;
                }
                if (round % 10 == 0) {
                    from = round % 20 == 0 ? "" : from; // from the start
                    to = round % 20 == 0 ? to : null; // to the end
                }
                files.bytes.set(0);
                List<String> found = new ArrayList<>();
                for (int j = seek.chunkFrom(from), last = seek.chunkTo(to); j <= last; j++) {
                    RangeSeek.Chunk chunk = seek.chunk(j);
                    for (int i = 0; i < chunk.size(); i++) {
                        String k = chunk.keys()[i];
                        if (k.compareTo(from) >= 0 && (to == null || k.compareTo(to) <= 0)) {
                            found.add(chunk.ids()[i]);
                        }
                    }
                }
                List<String> expected = new ArrayList<>();
                (to == null ? byKey.tailMap(from, true) : byKey.subMap(from, true, to, true)).values().forEach(expected::addAll);
                String label = "seed " + seed + " " + field + " [" + from + ", " + to + "]";
                assertThat(found).as(label).containsExactlyInAnyOrderElementsOf(expected);
                if (expected.size() < 20 && to != null && field.equals("n")) {
                    assertThat(files.bytes.get()).as("bytes read for " + label).isLessThan(size / 4).isLessThan(64L * 1024);
                }
            }
            assertThat(seek.plainEntries()).as("seed %d %s: entries", seed, field).isEqualTo(state.size());
        }
        try (DocStore store = DocStore.open(dir, "q")) {
            QueryBuilder scan = QueryBuilder.on(IndexVsScanRandomTest.scanReference(store));
            for (int round = 0; round < 30; round++) {
                long a = random.nextInt(1_000_000);
                String p = "k" + random.nextInt(60);
                Direction d = random.nextBoolean() ? Direction.ASC : Direction.DESC;
                int limit = 1 + random.nextInt(40);
                assertThat(ids(store.query().where("n").between(a, a + 2_000).get()))
                        .as("seed %d between %d", seed, a).isEqualTo(ids(scan.where("n").between(a, a + 2_000).get()));
                assertThat(ids(store.query().where("s").prefix(p).orderBy("s", d).limit(limit).get()))
                        .as("seed %d prefix %s", seed, p).isEqualTo(ids(scan.where("s").prefix(p).orderBy("s", d).limit(limit).get()));
                assertThat(ids(store.query().orderBy("n", d).limit(limit).get()))
                        .as("seed %d orderBy n %s", seed, d).isEqualTo(ids(scan.orderBy("n", d).limit(limit).get()));
                assertThat(store.query().where("s").gte(p).count()).as("seed %d count s >= %s", seed, p)
                        .isEqualTo(scan.where("s").gte(p).count());
            }
        }
    }

    private static List<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).toList();
    }
}
