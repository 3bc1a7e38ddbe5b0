package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageRecord;
import dev.storh.doc.index.IndexDefinition;
import dev.storh.doc.index.IndexManager;
import dev.storh.query.QueryPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An open wires a store's parts (write gate, reads, writes, indexes) only at their first use: many
 * threads using a freshly opened store at once share one set of parts and see the right records and
 * indexes, and a store closed before any use behaves as a closed store.
 */
class LazyPartsTest {

    private static final int THREADS = 16;
    private static final int RECORDS = 60;

    @TempDir
    Path root;

    /** Writes RECORDS records, kind a/b/c, n = i, indexed on kind (equality) and n (range). */
    private List<StorageRecord> fill() {
        List<StorageRecord> written = new ArrayList<>();
        try (DocStore store = DocStore.open(root, "docs")) {
            for (int i = 0; i < RECORDS; i++) {
                written.add(store.put(Map.of("kind", "abc".substring(i % 3, i % 3 + 1), "n", (long) i)));
            }
            store.indexes().field("kind").index().field("n").range().sync();
        }
        return written;
    }

    @Test
    void manyThreadsUsingAFreshlyOpenedStoreAtOnceShareOnePartsAndSeeTheIndexesAndRecords() throws Exception {
        List<StorageRecord> written = fill();
        Set<String> kindB = new TreeSet<>();
        for (StorageRecord r : written) {
            if (r.data().get("kind").equals("b")) {
                kindB.add(r.id());
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            for (int round = 0; round < 8; round++) {
                try (DocStore store = DocStore.open(root, "docs")) {
                    CyclicBarrier start = new CyclicBarrier(THREADS);
                    Set<IndexManager> managers = ConcurrentHashMap.newKeySet();
                    List<Future<String>> results = new ArrayList<>();
                    for (int t = 0; t < THREADS; t++) {
                        int task = t;
                        results.add(pool.submit(() -> {
                            start.await(10, TimeUnit.SECONDS);
                            managers.add(store.indexes());
                            switch (task % 4) {
                                case 0:
                                    return "eq " + store.query().where("kind").eq("b").get().stream().map(StorageRecord::id).toList();
                                case 1:
                                    return "range " + store.query().where("n").between(10L, 19L).count();
                                case 2:
                                    return "count " + store.count();
                                default:
                                    return "defs " + store.indexes().definitions();
                            }
                        }));
                    }
                    for (int t = 0; t < THREADS; t++) {
                        String got = results.get(t).get(30, TimeUnit.SECONDS);
                        switch (t % 4) {
                            case 0 -> assertThat(got).isEqualTo("eq " + List.copyOf(kindB));
                            case 1 -> assertThat(got).isEqualTo("range 10");
                            case 2 -> assertThat(got).isEqualTo("count " + RECORDS);
                            default -> assertThat(got).isEqualTo("defs " + List.of(new IndexDefinition("kind", false, false),
                                    new IndexDefinition("n", false, true)));
                        }
                    }
                    assertThat(managers).as("one index manager for every thread").hasSize(1);
                    assertThat(store.query().where("kind").eq("b").explain().plan()).isEqualTo(QueryPlan.INDEX_SCAN);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void manyThreadsWritingFirstToAFreshlyOpenedStoreKeepItsIndexesInStep() throws Exception {
        fill();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        Set<String> added = ConcurrentHashMap.newKeySet();
        try {
            for (int round = 0; round < 4; round++) {
                try (DocStore store = DocStore.open(root, "docs")) {
                    CyclicBarrier start = new CyclicBarrier(THREADS);
                    List<Future<?>> results = new ArrayList<>();
                    for (int t = 0; t < THREADS; t++) {
                        long n = 1000L + round * THREADS + t;
                        results.add(pool.submit(() -> {
                            start.await(10, TimeUnit.SECONDS);
                            added.add(store.put(Map.of("kind", "new", "n", n)).id());
                            return null;
                        }));
                    }
                    for (Future<?> f : results) {
                        f.get(30, TimeUnit.SECONDS);
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        try (DocStore store = DocStore.open(root, "docs")) {
            assertThat(store.recovery().crashedWriter()).isFalse();
            assertThat(store.query().where("kind").eq("new").get()).extracting(StorageRecord::id)
                    .containsExactlyInAnyOrderElementsOf(added);
            assertThat(store.query().where("n").gte(1000L).count()).isEqualTo(4 * THREADS);
            assertThat(store.count()).isEqualTo(RECORDS + 4 * THREADS);
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void aStoreClosedBeforeAnyUseRefusesWritesLeavesNoMarkerAndStillReads() throws Exception {
        List<StorageRecord> written = fill();
        DocStore store = DocStore.open(root, "docs");
        store.close();
        assertThatThrownBy(() -> store.put(Map.of("kind", "late"))).hasMessageContaining("closed");
        assertThat(store.get(written.get(0).id())).contains(written.get(0));
        assertThat(store.count()).isEqualTo(RECORDS);
        assertThat(store.query().where("kind").eq("a").count()).isEqualTo(RECORDS / 3);
        try (Stream<Path> markers = Files.list(root.resolve("docs/.storh/writers"))) {
            assertThat(markers.toList()).isEmpty();
        }
        store.close(); // twice is fine
        try (DocStore again = DocStore.open(root, "docs")) {
            assertThat(again.recovery().crashedWriter()).isFalse();
            assertThat(again.count()).isEqualTo(RECORDS);
        }
    }
}
