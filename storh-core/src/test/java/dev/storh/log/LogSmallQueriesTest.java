package dev.storh.log;

import static dev.storh.log.LogTestSupport.BASE_MS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.query.QueryBuilder;
import dev.storh.query.RecordQuery;
import dev.storh.query.ScanQueryExecutor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log's small reads answer exactly as a full read does: {@code stats().bytes()} (which sums the
 * sealed segment sizes it saw while no other writer is registered) equals the sizes of the segment
 * files on disk through rolls, another instance's and another JVM's appends, compaction, retention
 * and a segment deleted by hand; and the queries on one id that {@link SegmentedLog#query()} answers
 * from the state index give what the scan executor gives for the same query (seeded, the seed in every
 * message; {@code -Dstorh.seed=} for one more).
 */
class LogSmallQueriesTest {

    private static final long[] SEEDS = {1L, 0xB17E5L, 20_261_207L};

    @TempDir
    Path root;

    private static long seedFromProperty() {
        return Long.getLong("storh.seed", System.nanoTime());
    }

    /** @return the sizes of the segment files the log's picture names, from the disk (a missing one counts 0) */
    private long segmentBytes(SegmentedLog log) throws IOException {
        long total = 0;
        List<Segment> all = new ArrayList<>(log.state().sealed);
        all.add(log.state().active);
        for (Segment s : all) {
            Path file = log.collectionDir().resolve(LogFiles.SEGMENTS).resolve(s.file);
            total += Files.exists(file) ? Files.size(file) : 0;
        }
        return total;
    }

    /** Checks stats twice (the second from what the first saw) against the disk. */
    private void checkStats(SegmentedLog log, String where) throws IOException {
        LogStats first = log.stats();
        long onDisk = segmentBytes(log);
        assertThat(first.bytes()).as(where).isEqualTo(onDisk);
        LogStats again = log.stats();
        assertThat(again.bytes()).as(where + " (again)").isEqualTo(onDisk);
        assertThat(again.records()).as(where).isEqualTo(log.count()).isEqualTo(LogTestSupport.ids(log.stream()).size());
        assertThat(again.segments()).as(where).isEqualTo(log.state().sealed.size() + 1L);
    }

    private static Map<String, Object> row(Random random, int i) {
        return Map.of("kind", random.nextBoolean() ? "even" : "odd", "n", (long) i, "pad", "x".repeat(random.nextInt(80)));
    }

    @Test
    void statsBytesEqualTheSegmentFilesThroughRandomWork() throws Exception {
        for (long seed : SEEDS) {
            statsThroughRandomWork(seed, "s" + seed);
        }
        long seed = seedFromProperty();
        System.out.println("LogSmallQueriesTest.statsBytesEqualTheSegmentFilesThroughRandomWork seed " + seed);
        statsThroughRandomWork(seed, "p" + seed);
    }

    private void statsThroughRandomWork(long seed, String collection) throws Exception {
        Random random = new Random(seed);
        SegmentedLogOptions options = LogTestSupport.opts(600, 2);
        List<String> ids = new ArrayList<>();
        long ms = BASE_MS;
        try (SegmentedLog log = SegmentedLog.open(root, collection, options)) {
            for (int step = 0; step < 60; step++) {
                String where = "seed " + seed + " step " + step;
                int op = random.nextInt(10);
                if (op < 4) {
                    for (int i = random.nextInt(8); i >= 0; i--) {
                        ids.add(log.put(row(random, step), UuidV7.generate(ms++)).id());
                    }
                } else if (op == 4 && !ids.isEmpty()) {
                    log.delete(ids.get(random.nextInt(ids.size())));
                } else if (op == 5) {
                    try (SegmentedLog other = SegmentedLog.open(root, collection, options)) {
                        for (int i = random.nextInt(12); i >= 0; i--) {
                            ids.add(other.put(row(random, step), UuidV7.generate(ms++)).id());
                        }
                        checkStats(log, where + " (another instance open)");
                    }
                    Thread.sleep(15); // past the tick of its marker's removal, so this instance is alone again
                } else if (op == 6) {
                    log.compact();
                } else if (op == 7 && !ids.isEmpty()) {
                    long cutoff = UuidV7.timestampMs(ids.get(random.nextInt(ids.size())));
                    log.retain().olderThanMs(cutoff).compact();
                } else if (op == 8) {
                    log.appendMany(List.of(row(random, step), row(random, step), row(random, step)));
                } else {
                    log.stats(); // sizes seen now, trusted next time
                }
                checkStats(log, where);
            }
            if (!log.state().sealed.isEmpty()) {
                Segment gone = log.state().sealed.get(random.nextInt(log.state().sealed.size()));
                Files.delete(log.collectionDir().resolve(LogFiles.SEGMENTS).resolve(gone.file));
                long onDisk = segmentBytes(log);
                assertThat(log.stats().bytes()).as("seed %d: %s deleted by hand", seed, gone.file).isEqualTo(onDisk);
                assertThat(log.stats().bytes()).as("seed %d: %s deleted by hand, again", seed, gone.file).isEqualTo(onDisk);
            }
        }
    }

    @Test
    void statsSeeAnotherJvmsAppendsAndRolls() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(600, 1))) {
            for (int i = 0; i < 30; i++) {
                log.put(Map.of("writer", "parent", "i", (long) i));
            }
            checkStats(log, "before");
            LogTestSupport.appendInChildJvm(root, "events", 600, 25, "child");
            checkStats(log, "after the child's appends");
            assertThat(log.stats().records()).isEqualTo(55);
            for (int i = 0; i < 30; i++) {
                log.put(Map.of("writer", "parent", "i", (long) i));
            }
            checkStats(log, "after more of its own");
        }
    }

    @Test
    void lastStatsAreTheStatsAsOfThisInstancesLastOperation() throws Exception {
        SegmentedLogOptions options = LogTestSupport.opts(600, 1);
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            for (int i = 0; i < 40; i++) {
                log.put(Map.of("i", (long) i));
            }
            assertThat(log.state().sealed).hasSizeGreaterThan(4);
            assertThat(log.lastStats()).isEqualTo(log.stats());
            assertThat(log.lastStats().bytes()).isEqualTo(segmentBytes(log));
            try (SegmentedLog other = SegmentedLog.open(root, "events", options)) {
                for (int i = 0; i < 20; i++) {
                    other.put(Map.of("i", (long) i));
                }
            }
            assertThat(log.lastStats().records()).as("not caught up yet").isEqualTo(40);
            assertThat(log.stats().records()).isEqualTo(60);
            assertThat(log.lastStats()).isEqualTo(log.stats());
            assertThat(log.lastStats().bytes()).isEqualTo(segmentBytes(log));
        }
    }

    /** The scan executor over the log's public reads: the reference answers. */
    private static QueryBuilder scanQuery(SegmentedLog log) {
        return QueryBuilder.on(new ScanQueryExecutor("reference", new ScanQueryExecutor.RecordSource() {
            @Override
            public Stream<StorageRecord> scan(String afterId) {
                return afterId == null ? log.stream() : log.stream(RecordQuery.all().after(afterId));
            }

            @Override
            public Optional<StorageRecord> byId(String id) {
                return log.get(id);
            }

            @Override
            public long count() {
                return log.count();
            }
        }));
    }

    @Test
    void queriesOnOneIdAnswerAsTheScanExecutor() {
        for (long seed : SEEDS) {
            queriesOnOneId(seed, "q" + seed);
        }
        long seed = seedFromProperty();
        System.out.println("LogSmallQueriesTest.queriesOnOneIdAnswerAsTheScanExecutor seed " + seed);
        queriesOnOneId(seed, "p" + seed);
    }

    private void queriesOnOneId(long seed, String collection) {
        Random random = new Random(seed);
        try (SegmentedLog log = SegmentedLog.open(root, collection, LogTestSupport.opts(600, 2))) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                ids.add(log.put(row(random, i), UuidV7.generate(BASE_MS + i)).id());
            }
            for (int i = 0; i < 8; i++) {
                log.delete(ids.get(random.nextInt(ids.size())));
                String again = ids.get(random.nextInt(ids.size()));
                log.put(row(random, 100 + i), again); // an overwrite
            }
            ids.add(UuidV7.generate(BASE_MS + 500)); // never written
            int direct = 0;
            for (int q = 0; q < 400; q++) {
                UnaryOperator<QueryBuilder> shape = randomShape(random, ids);
                String where = "seed " + seed + " query " + q + ": " + shape.apply(scanQuery(log));
                QueryBuilder mine = shape.apply(log.query());
                QueryBuilder reference = shape.apply(scanQuery(log));
                List<String> expected = LogTestSupport.ids(reference.get().stream());
                assertThat(LogTestSupport.ids(mine.get().stream())).as(where).isEqualTo(expected);
                assertThat(mine.first().map(StorageRecord::id)).as(where).isEqualTo(reference.first().map(StorageRecord::id));
                assertThat(mine.count()).as(where).isEqualTo(reference.count());
                assertThat(mine.first().map(StorageRecord::data)).as(where).isEqualTo(reference.first().map(StorageRecord::data));
                direct += expected.size();
            }
            assertThat(direct).as("seed %d: some queries found their record", seed).isGreaterThan(20);
        }
    }

    /** A random query shape around an id condition: valid, unknown, upper case, invalid, two ids, with extras. */
    private static UnaryOperator<QueryBuilder> randomShape(Random random, List<String> ids) {
        String id = ids.get(random.nextInt(ids.size()));
        Object value = switch (random.nextInt(8)) {
            case 0 -> id.toUpperCase(Locale.ROOT);
            case 1 -> "not-an-id";
            case 2 -> 42L;
            default -> id;
        };
        boolean ignoreCase = random.nextInt(8) == 0;
        int second = random.nextInt(6); // 0: the same id again in other case, 1: another id
        String other = ids.get(random.nextInt(ids.size()));
        int extra = random.nextInt(5); // 0: kind eq, 1: kind neq, 2: or-group
        String kind = random.nextBoolean() ? "even" : "odd";
        String cursor = random.nextInt(4) == 0 ? ids.get(random.nextInt(ids.size())) : null;
        long limit = random.nextInt(3) == 0 ? 1 + random.nextInt(2) : 0;
        return q -> {
            QueryBuilder b = ignoreCase ? q.where("id").ignoringCase().eq(value) : q.where("id").eq(value);
            if (second == 0) {
                b = b.where("id").eq(id.toUpperCase(Locale.ROOT));
            } else if (second == 1) {
                b = b.where("id").eq(other);
            }
            if (extra == 0) {
                b = b.where("kind").eq(kind);
            } else if (extra == 1) {
                b = b.where("kind").neq(kind);
            } else if (extra == 2) {
                b = b.orWhere(o -> o.where("kind").eq(kind));
            }
            if (cursor != null) {
                b = b.cursor(cursor);
            }
            return limit > 0 ? b.limit(limit) : b;
        };
    }
}
