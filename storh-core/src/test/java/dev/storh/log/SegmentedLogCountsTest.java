package dev.storh.log;

import static dev.storh.log.LogTestSupport.BASE_MS;
import static dev.storh.log.LogTestSupport.id;
import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.SharedFiles;
import dev.storh.StorageRecord;
import dev.storh.fs.FramedLine;
import dev.storh.query.RecordQuery;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counts with one equality condition come from memory and always equal a scan: through random
 * appends, batches, overwrites, deletes, compactions, retention, reopens, a second instance's appends
 * and lines the original wrote (fixed seeds, {@code -Dstorh.seed=} for one more; the seed is in every
 * message), from several threads at once, and after another JVM appended.
 */
class SegmentedLogCountsTest {

    private static final long[] SEEDS = {1L, 0x5EED_C0DEL, 20_261_201L, 77L};
    private static final Object[] KINDS = {"a", "b", "c", 1, 1L, 2L, true, false, null, 1.0, new BigDecimal("2"),
        new BigDecimal("2.50"), BigInteger.valueOf(3), new BigInteger("123456789012345678901234567890"),
        new AtomicLong(4), 'a', List.of("a"), Map.of("k", "a")};
    private static final List<RecordQuery> QUERIES = queries();

    @TempDir
    Path root;

    private static List<RecordQuery> queries() {
        List<RecordQuery> q = new ArrayList<>();
        for (Object v : new Object[] {"a", "b", "c", "zz", 1L, 2L, 3L, 4L, true, false, null}) {
            q.add(RecordQuery.all().whereEqual("kind", v));
        }
        q.add(RecordQuery.all().whereEqual("maybe", "x"));
        q.add(RecordQuery.all().whereEqual("maybe", null));
        q.add(RecordQuery.all().whereEqual("missing", "a"));
        q.add(RecordQuery.all().whereEqual("n", 5L)); // more than 64 distinct values: scanned
        q.add(RecordQuery.all().whereEqual("kind", 2.5)); // a fraction: scanned
        q.add(RecordQuery.all().whereEqual("kind", "a").limit(2));
        q.add(RecordQuery.all().whereEqual("kind", "a").whereEqual("maybe", "x")); // two conditions: scanned
        return q;
    }

    private static long[] seeds() {
        String one = System.getProperty("storh.seed");
        return one == null ? SEEDS : new long[] {Long.decode(one)};
    }

    private static long scan(SegmentedLog log, RecordQuery q) {
        try (Stream<StorageRecord> s = log.stream(q)) {
            return s.count();
        }
    }

    /** Asserts every query's count equals a scan, and that counts on counted fields read no segment. */
    private static void check(SegmentedLog log, String where) {
        for (RecordQuery q : QUERIES) {
            assertThat(log.count(q)).as("%s: %s", where, q).isEqualTo(scan(log, q));
        }
        long opened = log.segmentsOpened();
        for (RecordQuery q : QUERIES.subList(0, 14)) {
            log.count(q);
        }
        assertThat(log.segmentsOpened()).as("%s: counts on counted fields come from memory", where).isEqualTo(opened);
    }

    private static Map<String, Object> row(Random random, int step) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("kind", KINDS[random.nextInt(KINDS.length)]);
        if (random.nextBoolean()) {
            data.put("maybe", random.nextBoolean() ? "x" : null);
        }
        data.put("n", (long) step);
        return data;
    }

    @Test
    void countsFromMemoryEqualAScanThroughRandomWork() throws Exception {
        for (long seed : seeds()) {
            run(seed);
        }
    }

    private void run(long seed) throws Exception {
        String name = "counts-" + seed;
        // without fsync: the counts do not depend on it, and the run stays short
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(1024).sparseIndexInterval(3)
                .durability(Durability.NO_FSYNC).build();
        Random random = new Random(seed);
        SegmentedLog log = SegmentedLog.open(root, name, options);
        try {
            check(log, "seed " + seed + " empty");
            for (int step = 0; step < 300; step++) {
                int roll = random.nextInt(100);
                String id = id(random.nextInt(120));
                String what;
                if (roll < 45) {
                    log.put(row(random, step), id);
                    what = "put";
                } else if (roll < 55) {
                    List<Map<String, ?>> items = new ArrayList<>();
                    for (int i = random.nextInt(6); i >= 0; i--) {
                        items.add(Map.of("id", id(random.nextInt(120)), "data", row(random, step)));
                    }
                    log.appendMany(items);
                    what = "appendMany";
                } else if (roll < 75) {
                    log.delete(id);
                    what = "delete";
                } else if (roll < 80) {
                    log.compact();
                    what = "compact";
                } else if (roll < 83) {
                    log.retain().olderThanMs(BASE_MS + random.nextInt(30)).compact();
                    what = "retention";
                } else if (roll < 88) {
                    log.close();
                    log = SegmentedLog.open(root, name, options);
                    what = "reopen";
                } else if (roll < 94) {
                    try (SegmentedLog other = SegmentedLog.open(root, name, options)) {
                        other.put(row(random, step), id);
                        if (random.nextBoolean()) {
                            other.delete(id(random.nextInt(120)));
                        }
                    }
                    what = "another instance wrote";
                } else {
                    appendForeignLine(log, id, row(random, step));
                    what = "a line in the original's key order appended behind the instance";
                }
                if (step % 7 == 0 || roll >= 75) {
                    check(log, "seed " + seed + " step " + step + " after " + what);
                }
            }
            check(log, "seed " + seed + " end");
            assertThat(log.verify().ok()).as("seed %d", seed).isTrue();
        } finally {
            log.close();
        }
    }

    /** Appends a put whose envelope keys are in another order (not our canonical bytes), as another writer may. */
    private static void appendForeignLine(SegmentedLog log, String id, Map<String, Object> data) throws Exception {
        Map<String, Object> plain = new LinkedHashMap<>();
        data.forEach((k, v) -> plain.put(k, v instanceof AtomicLong a ? a.get() : v instanceof Character c ? c.toString()
                : v instanceof BigDecimal || v instanceof BigInteger ? v.toString() : v));
        String json = "{\"id\":\"" + id + "\",\"data\":" + dev.storh.json.CanonicalJson.compactText(plain) + ",\"op\":\"put\"}";
        Path active = log.collectionDir().resolve("segments").resolve(log.state().active.file);
        LogTestSupport.asAnotherWriter(log.collectionDir(),
                () -> Files.write(active, FramedLine.encode(json.getBytes(StandardCharsets.UTF_8)), StandardOpenOption.APPEND));
    }

    @Test
    void linesTheOriginalWroteAreCountedAsTheScanCountsThem(@TempDir Path copy) throws Exception {
        Path segments = SharedFiles.copyPhpFixture(copy).resolve("events/segments");
        List<Path> written;
        try (Stream<Path> files = Files.list(segments)) {
            written = files.filter(p -> p.getFileName().toString().matches("seg-\\d+\\.ndjson")).sorted().toList();
        }
        assertThat(written).hasSizeGreaterThan(3);
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.put(Map.of("type", "page.rendered", "n", -1L));
            assertThat(log.count(RecordQuery.all().whereEqual("type", "page.rendered"))).isEqualTo(1);
            Path active = log.collectionDir().resolve("segments").resolve(log.state().active.file);
            LogTestSupport.asAnotherWriter(log.collectionDir(), () -> {
                for (Path p : written) {
                    // the original's own lines (puts, overwrites, deletes), appended behind the instance's back
                    Files.write(active, Files.readAllBytes(p), StandardOpenOption.APPEND);
                }
            });
            for (String type : List.of("page.rendered", "page.saved", "user.login", "nothing")) {
                RecordQuery q = RecordQuery.all().whereEqual("type", type);
                assertThat(log.count(q)).as(type).isEqualTo(scan(log, q));
            }
            assertThat(log.count(RecordQuery.all().whereEqual("type", "page.rendered"))).isGreaterThan(1);
            check(log, "after the original's lines");
        }
    }

    @Test
    void threadsWritingAndCountingAtOnceEndEqualToAScan() throws Exception {
        long seed = seeds()[0];
        try (SegmentedLog log = SegmentedLog.open(root, "threads", LogTestSupport.opts(4096, 8))) {
            log.put(Map.of("kind", "a"), id(0));
            log.count(RecordQuery.all().whereEqual("kind", "a"));
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int thread = t;
                threads.add(new Thread(() -> {
                    Random random = new Random(seed + thread);
                    try {
                        for (int i = 0; i < 150; i++) {
                            if (thread >= 4) {
                                long n = log.count(RecordQuery.all().whereEqual("kind", random.nextBoolean() ? "a" : "b"));
                                assertThat(n).isBetween(0L, 200L);
                            } else if (random.nextInt(4) == 0) {
                                log.delete(id(random.nextInt(200)));
                            } else {
                                log.put(Map.of("kind", random.nextBoolean() ? "a" : "b"), id(random.nextInt(200)));
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join(TimeUnit.MINUTES.toMillis(2));
            }
            assertThat(failures).as("seed %d", seed).isEmpty();
            check(log, "seed " + seed + " after the threads");
        }
    }

    @Test
    void anotherJvmsAppendsAreCounted() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(2048, 8))) {
            log.put(Map.of("writer", "parent", "i", 0L));
            RecordQuery child = RecordQuery.all().whereEqual("writer", "child0");
            assertThat(log.count(child)).isZero();
            LogTestSupport.appendInChildJvm(root, "events", 2048, 30, "child0");
            long opened = log.segmentsOpened();
            assertThat(log.count(child)).isEqualTo(30);
            assertThat(log.segmentsOpened()).as("caught up by tailing, counted from memory").isEqualTo(opened);
            assertThat(log.count(RecordQuery.all().whereEqual("writer", "parent"))).isEqualTo(1);
            assertThat(log.count(child)).isEqualTo(scan(log, child));
        }
    }

    @Test
    void aCountWithALimitOnUnbuiltCountsStillScansOnlyWhatItNeeds() {
        try (SegmentedLog log = SegmentedLog.open(root, "limit", LogTestSupport.opts(512, 2))) {
            for (int i = 0; i < 40; i++) {
                log.put(Map.of("kind", i % 2 == 0 ? "a" : "b"), id(i));
            }
        }
        try (SegmentedLog log = SegmentedLog.open(root, "limit", LogTestSupport.opts(1 << 20, 2))) {
            // overwrites while the reopened log's counts are not built yet: they stay unbuilt
            List<Map<String, ?>> again = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                again.add(Map.of("id", id(i % 40), "data", Map.of("kind", i % 40 % 2 == 0 ? "a" : "b")));
            }
            log.appendMany(again);
        }
        try (SegmentedLog log = SegmentedLog.open(root, "limit", LogTestSupport.opts(512, 2))) {
            RecordQuery a = RecordQuery.all().whereEqual("kind", "a");
            assertThat(log.state().index.counts().usable()).as("the open does not build the counts").isFalse();
            assertThat(log.count(a.limit(3))).isEqualTo(3);
            long opened = log.segmentsOpened();
            assertThat(log.count(a)).as("builds the counts with its scan").isEqualTo(20);
            assertThat(log.segmentsOpened()).isGreaterThan(opened);
            opened = log.segmentsOpened();
            assertThat(log.count(a)).isEqualTo(20);
            assertThat(log.count(a.limit(3))).isEqualTo(3);
            assertThat(log.segmentsOpened()).isEqualTo(opened);
        }
    }

    @Test
    void aFieldWithManyValuesAndUnusualValueKindsAreCountedLikeAScan() {
        try (SegmentedLog log = SegmentedLog.open(root, "kinds")) {
            Map<String, Long> expected = new HashMap<>();
            for (int i = 0; i < 200; i++) {
                log.put(Map.of("slug", "s" + i, "kind", KINDS[i % KINDS.length] == null ? "none" : KINDS[i % KINDS.length]));
            }
            expected.put("s7", 1L);
            assertThat(log.count(RecordQuery.all().whereEqual("slug", "s7"))).isEqualTo(expected.get("s7"));
            for (Object v : Arrays.asList("a", 'a', 4L, 3L, 2L, 1L, true, "none")) {
                RecordQuery q = RecordQuery.all().whereEqual("kind", v instanceof Character c ? c.toString() : v);
                assertThat(log.count(q)).as("%s", v).isEqualTo(scan(log, q));
            }
        }
    }
}
