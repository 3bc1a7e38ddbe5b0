package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One DocStore shared by 16 real threads, as a Spring bean is. */
class DocStoreConcurrencyTest {

    @TempDir
    Path root;

    @Test
    void sixteenThreadsWritingAndReadingSeeEveryWrite() throws Exception {
        int threads = 16;
        int perThread = 60;
        Map<String, Map<String, Object>> written = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (DocStore store = DocStore.open(root, "shared")) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        Map<String, Object> data = Map.of("thread", (long) thread, "i", (long) i, "text", "t" + thread + "-" + i);
                        StorageRecord r = store.put(data);
                        written.put(r.id(), data);
                        Optional<StorageRecord> back = store.get(r.id());
                        if (back.isEmpty() || !back.get().data().equals(data)) {
                            problems.add("read-after-write failed for " + r.id());
                        }
                        if (i % 10 == 0) {
                            try (Stream<StorageRecord> all = store.stream()) {
                                all.forEach(rec -> {
                                    if (!rec.data().containsKey("thread")) {
                                        problems.add("torn record " + rec.id());
                                    }
                                });
                            }
                        }
                        if (i % 15 == 0) {
                            store.put(Map.of("thread", (long) thread, "i", (long) i, "text", "updated"), r.id());
                            written.put(r.id(), Map.of("thread", (long) thread, "i", (long) i, "text", "updated"));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            assertThat(problems).isEmpty();
            assertThat(written).hasSize(threads * perThread);
            assertThat(store.count()).isEqualTo(threads * perThread);
            written.forEach((id, data) -> assertThat(store.get(id).orElseThrow().data()).isEqualTo(data));
            List<String> streamed;
            try (Stream<StorageRecord> all = store.stream()) {
                streamed = all.map(StorageRecord::id).toList();
            }
            assertThat(streamed).isSorted().containsExactlyInAnyOrderElementsOf(written.keySet());
            try (Stream<Path> files = Files.walk(root.resolve("shared/data"))) {
                assertThat(files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList()).isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void twoInstancesOnOneCollectionInOneJvmShareTheLockWithoutDeadlock() throws Exception {
        try (DocStore a = DocStore.open(root, "c"); DocStore b = DocStore.open(root, "c")) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    DocStore store = t % 2 == 0 ? a : b;
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < 50; i++) {
                            store.put(Map.of("i", (long) i));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(a.count()).isEqualTo(200);
            assertThat(b.count()).isEqualTo(200);
        }
    }
}
