package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ids of a value file kept by an instance never answer for a changed file: while reader
 * threads keep asking for the same values (so their lists are kept), each writer thread moves
 * records between values and at once sees its own writes, through the instance and through a
 * second instance on the same folder; at the end every answer equals a scan.
 */
class KeptIdListsTest {

    @TempDir
    Path dir;

    @Test
    void keptIdListsFollowEveryWriteOfTheInstanceAndOfAnotherInstance() throws Exception {
        try (DocStore store = DocStore.open(dir, "c"); DocStore other = DocStore.open(dir, "c")) {
            store.indexes().field("kind").index().sync();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                ids.add(store.put(Map.of("kind", "k" + (i % 3))).id());
            }
            AtomicBoolean done = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> readers = new ArrayList<>();
                for (int r = 0; r < 2; r++) {
                    readers.add(pool.submit(() -> {
                        while (!done.get()) {
                            for (String kind : List.of("k0", "k1", "k2", "moved")) {
                                store.query().where("kind").eq(kind).get();
                                other.query().where("kind").eq(kind).get();
                            }
                        }
                        return null;
                    }));
                }
                List<Future<?>> writers = new ArrayList<>();
                for (int w = 0; w < 2; w++) {
                    DocStore writing = w == 0 ? store : other;
                    DocStore reading = w == 0 ? other : store;
                    int from = w * 30;
                    writers.add(pool.submit(() -> {
                        for (int i = from; i < from + 30; i++) {
                            String id = ids.get(i);
                            writing.put(Map.of("kind", "moved"), id);
                            assertThat(idsOf(writing.query().where("kind").eq("moved").get())).as("own write of %s", id).contains(id);
                            assertThat(idsOf(reading.query().where("kind").eq("moved").get())).as("write of %s elsewhere", id)
                                    .contains(id);
                            assertThat(idsOf(writing.query().where("kind").eq("k" + (i % 3)).get())).as("moved %s", id)
                                    .doesNotContain(id);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : writers) {
                    f.get(120, TimeUnit.SECONDS);
                }
                done.set(true);
                for (Future<?> f : readers) {
                    f.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            for (DocStore s : List.of(store, other)) {
                for (String kind : List.of("k0", "k1", "k2", "moved")) {
                    assertThat(idsOf(s.query().where("kind").eq(kind).get()))
                            .isEqualTo(idsOf(IndexVsScanRandomTest.scanReference(s).get(s.query().where("kind").eq(kind))));
                }
            }
            assertThat(store.query().where("kind").eq("moved").count()).isEqualTo(60);
        }
    }

    private static List<String> idsOf(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).toList();
    }
}
