package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.store.VerifyReport;
import dev.storh.StorageRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Indexed reads while indexes are rebuilt, and verify while 16 threads write, with real threads
 * on real files: readers never see a half-swapped index, verify reports only real drift.
 */
class IndexConsistencyUnderLoadTest {

    private static final String EXCHANGE = "storh.fs.renameExchange";

    @TempDir
    Path root;

    /**
     * Three reader threads query an equality, a compound and a range index while the main thread
     * rebuilds the indexes 20 times; every answer must equal the one before any rebuild. Run with
     * the atomic folder exchange and with the two-rename fallback.
     */
    @ParameterizedTest(name = "renameExchange={0}")
    @ValueSource(booleans = {true, false})
    void indexedQueriesNeverAnswerFromAHalfSwappedIndex(boolean exchange) throws Exception {
        String before = System.getProperty(EXCHANGE);
        System.setProperty(EXCHANGE, Boolean.toString(exchange));
        try (DocStore store = DocStore.open(root, "swap")) {
            store.indexes().field("kind").field("tag").field("rank").range().sync();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                rows.add(Map.of("kind", "k" + (i % 4), "tag", "t" + (i % 3), "rank", (long) i));
            }
            store.putMany(rows);
            List<String> kind1 = ids(store.query().where("kind").eq("k1").get());
            List<String> kind1tag2 = ids(store.query().where("kind").eq("k1").where("tag").eq("t2").get());
            List<String> rankFrom200 = ids(store.query().where("rank").gte(200L).get());
            assertThat(kind1).hasSize(75);
            assertThat(kind1tag2).hasSize(25);
            assertThat(rankFrom200).hasSize(100);

            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
            List<Thread> readers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                Thread reader = new Thread(() -> {
                    for (long round = 0; !stop.get(); round++) {
                        // Mostly counts, which read index files only, so reads overlap the swaps often.
                        long n = store.query().where("kind").eq("k1").count();
                        if (n != 75) {
                            wrong.add("count kind=k1 gave " + n);
                        }
                        long m = store.query().where("kind").eq("k1").where("tag").eq("t2").count();
                        if (m != 25) {
                            wrong.add("count kind=k1 and tag=t2 gave " + m);
                        }
                        if (round % 20 != 0) {
                            continue;
                        }
                        List<String> a = ids(store.query().where("kind").eq("k1").get());
                        if (!a.equals(kind1)) {
                            wrong.add("kind=k1 gave " + a.size() + " ids");
                        }
                        List<String> b = ids(store.query().where("kind").eq("k1").where("tag").eq("t2").get());
                        if (!b.equals(kind1tag2)) {
                            wrong.add("kind=k1 and tag=t2 gave " + b.size() + " ids");
                        }
                        List<String> c = ids(store.query().where("rank").gte(200L).get());
                        if (!c.equals(rankFrom200)) {
                            wrong.add("rank>=200 gave " + c.size() + " ids");
                        }
                    }
                });
                readers.add(reader);
                reader.start();
            }
            for (int i = 0; i < 20; i++) {
                store.reindex();
            }
            stop.set(true);
            for (Thread reader : readers) {
                reader.join();
            }
            assertThat(wrong).as("answers read while reindexing (renameExchange=%s)", exchange).isEmpty();
            assertThat(store.verify().errors()).isEmpty();
        } finally {
            if (before == null) {
                System.clearProperty(EXCHANGE);
            } else {
                System.setProperty(EXCHANGE, before);
            }
        }
    }

    /**
     * Sixteen threads put, update and delete indexed records while the main thread verifies 30
     * times: no verify may report drift, and a drift made on purpose afterwards is reported.
     */
    @Test
    void verifyWhileSixteenThreadsWriteReportsOnlyRealDrift() throws Exception {
        try (DocStore store = DocStore.open(root, "load")) {
            store.indexes().field("kind").field("tag").field("rank").range().sync();
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch started = new CountDownLatch(16);
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                SplittableRandom random = new SplittableRandom(97 + t);
                Thread writer = new Thread(() -> {
                    List<String> mine = new ArrayList<>();
                    started.countDown();
                    try {
                        while (!stop.get()) {
                            int op = random.nextInt(10);
                            Map<String, Object> data = Map.of("kind", "k" + random.nextInt(5),
                                    "tag", "t" + random.nextInt(3), "rank", (long) random.nextInt(1000));
                            if (op < 6 || mine.isEmpty()) {
                                mine.add(store.put(data).id());
                            } else if (op < 8) {
                                store.put(data, mine.get(random.nextInt(mine.size())));
                            } else {
                                store.delete(mine.remove(random.nextInt(mine.size())));
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                writers.add(writer);
                writer.start();
            }
            started.await();
            List<String> reports = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                VerifyReport<StoreStats> report = store.verify();
                if (!report.ok()) {
                    reports.add("run " + i + ": " + report.errors());
                }
            }
            stop.set(true);
            for (Thread writer : writers) {
                writer.join();
            }
            assertThat(failures).isEmpty();
            assertThat(reports).as("verify runs that reported drift under load").isEmpty();
            assertThat(store.count()).isPositive();

            // Real drift (a record written behind the store's back) is still reported.
            String id = dev.storh.id.UuidV7.generate();
            Path file = store.pathForId(id);
            java.nio.file.Files.createDirectories(file.getParent());
            java.nio.file.Files.write(file, dev.storh.json.CanonicalJson.recordBytes(id, Map.of("kind", "k9")));
            assertThat(store.verify().errors()).anySatisfy(e -> assertThat(e).startsWith("Index mismatch"));
            // Also from inside the write lock (the re-check takes it re-entrantly).
            assertThat(store.withWriteLock(store::verify).errors()).anySatisfy(e -> assertThat(e).startsWith("Index mismatch"));
            store.repair();
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    private static List<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).toList();
    }
}
