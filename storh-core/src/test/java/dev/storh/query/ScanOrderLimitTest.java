package dev.storh.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code orderBy} with a limit keeps only the best {@code limit} matches while it reads (a bounded
 * heap), from a scan and from unordered index candidates: the answer equals sorting every match by
 * value (missing as null, descending when asked, ties by ascending id) and cutting it, for seeded
 * records of mixed value kinds, conditions, directions, limits, pages and cursors. Seeds: a fixed
 * list, or {@code -Dstorh.seed=<n>} for one seed.
 */
class ScanOrderLimitTest {

    private static final long[] SEEDS = {11L, 12L, 13L, 14L};
    private static final List<Object> VALUES = Arrays.asList(0L, 1L, 2L, -5L, 2.5, 1e20, "a", "b", "", true, false, null,
            List.of(1L), Map.of("a", 1L));

    @Test
    void orderedAnswersWithALimitEqualSortingEveryMatch() {
        String override = System.getProperty("storh.seed");
        for (long seed : override == null || override.isBlank() ? SEEDS : new long[] {Long.parseLong(override.trim())}) {
            Random random = new Random(seed);
            List<StorageRecord> records = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                Map<String, Object> data = new LinkedHashMap<>();
                if (random.nextInt(5) > 0) {
                    data.put("n", VALUES.get(random.nextInt(VALUES.size())));
                }
                data.put("k", (long) random.nextInt(4));
                records.add(new StorageRecord(UuidV7.generate(), data));
            }
            records.sort(Comparator.comparing(StorageRecord::id));
            ScanQueryExecutor scan = new ScanQueryExecutor("scan", source(records));
            ScanQueryExecutor candidates = new ScanQueryExecutor("candidates", source(records)) {
                @Override
                protected Candidates candidates(QueryBuilder query) {
                    List<String> ids = records.stream().map(StorageRecord::id)
                            .filter(id -> query.cursor() == null || id.compareTo(query.cursor()) > 0).toList();
                    return new Candidates(ids, false);
                }
            };
            for (int i = 0; i < 200; i++) {
                Direction direction = random.nextBoolean() ? Direction.ASC : Direction.DESC;
                String field = random.nextInt(4) == 0 ? "k" : "n";
                long limit = 1 + random.nextInt(random.nextBoolean() ? 5 : 400);
                String cursor = random.nextInt(4) == 0 ? records.get(random.nextInt(records.size())).id() : null;
                long k = random.nextInt(5);
                for (ScanQueryExecutor executor : List.of(scan, candidates)) {
                    QueryBuilder q = QueryBuilder.on(executor);
                    if (k < 4) {
                        q = q.where("k").neq(k);
                    }
                    q = q.orderBy(field, direction).limit(limit);
                    if (cursor != null) {
                        q = q.cursor(cursor);
                    }
                    List<String> expected = expected(records, q);
                    String label = "seed " + seed + " " + executor.explain(q).store() + " " + q;
                    assertThat(q.get().stream().map(StorageRecord::id).toList()).as(label).isEqualTo(expected);
                    try (Stream<StorageRecord> s = q.stream()) {
                        assertThat(s.map(StorageRecord::id).toList()).as("stream " + label).isEqualTo(expected);
                    }
                }
            }
        }
    }

    /** Every match sorted by value (missing as null), descending when asked, ties by id, then cut. */
    private static List<String> expected(List<StorageRecord> records, QueryBuilder q) {
        Comparator<StorageRecord> byValue = (a, b) -> Values.compare(a.data().get(q.orderField()), b.data().get(q.orderField()));
        if (q.direction() == Direction.DESC) {
            byValue = byValue.reversed();
        }
        return records.stream().filter(r -> q.cursor() == null || r.id().compareTo(q.cursor()) > 0)
                .filter(r -> q.matches(r.id(), r.data())).sorted(byValue.thenComparing(StorageRecord::id))
                .limit(q.limit()).map(StorageRecord::id).toList();
    }

    private static ScanQueryExecutor.RecordSource source(List<StorageRecord> records) {
        return new ScanQueryExecutor.RecordSource() {
            @Override
            public Stream<StorageRecord> scan(String afterId) {
                return records.stream().filter(r -> afterId == null || r.id().compareTo(afterId) > 0);
            }

            @Override
            public Optional<StorageRecord> byId(String id) {
                return records.stream().filter(r -> r.id().equals(id)).findFirst();
            }

            @Override
            public long count() {
                return records.size();
            }
        };
    }
}
