package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import dev.storh.query.Direction;
import dev.storh.query.FieldPath;
import dev.storh.query.QueryBuilder;
import dev.storh.query.Values;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded differential test of the path indexes: every value kind of the JSON model at nested paths,
 * in top-level lists and in lists of objects, × every operator a path index serves ({@code eq},
 * {@code in}, {@code has}, {@code gt/gte/lt/lte/between}, {@code prefix}; case-insensitive ones on
 * the case-folded index) and the ones it leaves to the records, × each path index kind (plain
 * nested, multikey, case-folded, unique with nulls and missing unchecked), with writes, deletes,
 * reopens and reindexes; every indexed answer equals a scan of the same records, every refused put
 * has an identical non-null value elsewhere and every accepted one has none, and {@code verify()} is
 * clean. Seeds: a fixed list, or {@code -Dstorh.seed=<n>} for one seed.
 */
class PathIndexVsScanRandomTest {

    private static final long[] SEEDS = {3L, 17L, 99L, 2026L};

    private static final FieldPath NESTED = FieldPath.of("p", "a");
    private static final FieldPath TAGS = FieldPath.of("t");
    private static final FieldPath LIST_OF_OBJECTS = FieldPath.of("l", "r");
    private static final FieldPath UNIQUE = FieldPath.of("u");
    private static final FieldPath UNIQUE_NESTED_FOLDED = FieldPath.of("n", "k");
    private static final int INDEXED_PATHS = 5;
    private static final FieldPath[] PATHS = {NESTED, TAGS, LIST_OF_OBJECTS, UNIQUE, UNIQUE_NESTED_FOLDED,
        FieldPath.of("p.a"), FieldPath.of("l")};

    @TempDir
    Path root;

    @Test
    void pathIndexAnswersEqualAScanForEveryValueKindAndOperator() {
        String override = System.getProperty("storh.seed");
        long[] seeds = override == null || override.isBlank() ? SEEDS : new long[] {Long.parseLong(override.trim())};
        for (int i = 0; i < seeds.length; i++) {
            runSeed(seeds[i], i == 0);
        }
    }

    private static DocStore open(Path dir) {
        DocStore store = DocStore.open(dir, "p");
        store.indexes().definePath(NESTED, false, false).definePath(NESTED, false, true).definePath(TAGS, false, false)
                .definePath(TAGS, false, true).definePath(LIST_OF_OBJECTS, false, false).definePath(UNIQUE, true, false)
                .definePath(UNIQUE_NESTED_FOLDED, true, true).sync();
        return store;
    }

    private void runSeed(long seed, boolean everySingleCondition) {
        Random random = new Random(seed);
        System.out.println("PathIndexVsScanRandomTest seed " + seed + " (rerun with -Dstorh.seed=" + seed + ")");
        Path dir = root.resolve("seed-" + seed);
        List<String> written = new ArrayList<>();
        DocStore store = open(dir);
        try {
            for (int step = 0; step < 90; step++) {
                int action = random.nextInt(20);
                if (action < 15 || written.isEmpty()) {
                    Map<String, Object> data = randomRecord(random);
                    String id = random.nextInt(4) == 0 && !written.isEmpty() ? written.get(random.nextInt(written.size())) : null;
                    String holder = uniqueHolder(store, data, id);
                    try {
                        written.add(store.put(data, id).id());
                        assertThat(holder).as("seed %d: put %s accepted although %s holds a unique value", seed, data, holder)
                                .isNull();
                    } catch (UniqueConstraintException refused) {
                        assertThat(holder).as("seed %d: put %s refused (%s) with no holder", seed, data, refused.getMessage())
                                .isNotNull();
                    }
                } else if (action < 17) {
                    store.delete(written.get(random.nextInt(written.size())));
                } else if (action < 19) {
                    store.close();
                    store = open(dir);
                } else {
                    store.reindex();
                }
            }
            assertThat(store.verify().errors()).as("seed %d verify", seed).isEmpty();
            assertThat(store.verify().ok()).as("seed %d verify", seed).isTrue();
            QueryBuilder scan = QueryBuilder.on(IndexVsScanRandomTest.scanReference(store));
            // Every value at every indexed path, each with 6 of the 16 operators in turn (every operator
            // meets every value on about two paths): the single-condition sweep of the first seed.
            for (int p = 0; p < (everySingleCondition ? INDEXED_PATHS : 0); p++) {
                for (int i = 0; i < IndexVsScanRandomTest.VALUES.size(); i++) {
                    List<QueryBuilder> all = singleConditions(store.query(), PATHS[p], IndexVsScanRandomTest.VALUES.get(i));
                    for (int k = 0; k < 6; k++) {
                        QueryBuilder q = all.get((i * 6 + p * 3 + k) % all.size());
                        QueryBuilder s = IndexVsScanRandomTest.replay(q, scan);
                        assertThat(ids(q.get())).as("seed %d %s", seed, printable(q)).isEqualTo(ids(s.get()));
                        assertThat(q.count()).as("seed %d count %s", seed, printable(q)).isEqualTo(s.count());
                    }
                }
            }
            for (int i = 0; i < 150; i++) {
                QueryBuilder q = randomQuery(random, store.query());
                assertSame(seed, q, IndexVsScanRandomTest.replay(q, scan));
            }
            assertThat(store.query().where(NESTED).eq("x").explain().usesIndexes()).isTrue();
            assertThat(store.query().where(TAGS).ignoringCase().prefix("x").explain().usesIndexes()).isTrue();
        } finally {
            store.close();
        }
    }

    private static void assertSame(long seed, QueryBuilder indexed, QueryBuilder scanned) {
        String label = "seed " + seed + " query " + printable(indexed);
        List<String> expected = ids(scanned.get());
        assertThat(ids(indexed.get())).as(label).isEqualTo(expected);
        assertThat(indexed.count()).as("count " + label).isEqualTo(scanned.count());
        assertThat(indexed.first().map(StorageRecord::id)).as("first " + label).isEqualTo(scanned.first().map(StorageRecord::id));
        try (Stream<StorageRecord> streamed = indexed.stream()) {
            assertThat(streamed.map(StorageRecord::id).toList()).as("stream " + label).isEqualTo(expected);
        }
    }

    private static List<QueryBuilder> singleConditions(QueryBuilder base, FieldPath path, Object v) {
        String text = v instanceof String s ? s : "a";
        return List.of(base.where(path).eq(v), base.where(path).in(Arrays.asList(v, "a", 7L)), base.where(path).has(v),
                base.where(path).gt(v), base.where(path).gte(v), base.where(path).lt(v), base.where(path).lte(v),
                base.where(path).between(v, "zz"), base.where(path).between(-3L, v), base.where(path).prefix(text),
                base.where(path).ignoringCase().eq(v), base.where(path).ignoringCase().in(Arrays.asList(v, "ABC")),
                base.where(path).ignoringCase().has(v), base.where(path).ignoringCase().prefix(text),
                base.where(path).ignoringCase().prefix(text.isEmpty() ? text : text.substring(0, 1)),
                base.where(path).eq(v).orderBy(path, Direction.DESC).limit(2));
    }

    /** The id of another record that reaches an identical non-null value at a unique path, or null. */
    private static String uniqueHolder(DocStore store, Map<String, Object> data, String ownId) {
        PathIndexDefinition[] unique = {new PathIndexDefinition(UNIQUE, true, false),
            new PathIndexDefinition(UNIQUE_NESTED_FOLDED, true, true)};
        try (Stream<StorageRecord> all = store.stream()) {
            for (StorageRecord r : (Iterable<StorageRecord>) all::iterator) {
                if (r.id().equals(ownId)) {
                    continue;
                }
                for (PathIndexDefinition d : unique) {
                    for (Object mine : d.entries(data).values()) {
                        for (Object theirs : d.entries(r.data()).values()) {
                            if (mine != null && Values.identical(mine, theirs)) {
                                return r.id();
                            }
                        }
                    }
                }
            }
        }
        return null;
    }

    private static Object pick(Random random) {
        return IndexVsScanRandomTest.VALUES.get(random.nextInt(IndexVsScanRandomTest.VALUES.size()));
    }

    private static Map<String, Object> randomRecord(Random r) {
        Map<String, Object> data = new LinkedHashMap<>();
        if (r.nextInt(5) > 0) {
            data.put("p", r.nextInt(4) == 0 ? pick(r) : r.nextInt(3) == 0 ? List.of(object("a", pick(r)), object("a", pick(r)))
                    : object("a", pick(r)));
        }
        if (r.nextInt(6) == 0) {
            data.put("p.a", pick(r));
        }
        if (r.nextInt(5) > 0) {
            data.put("t", r.nextInt(3) == 0 ? pick(r) : Arrays.asList(pick(r), pick(r), r.nextBoolean() ? "RARE" : "rare"));
        }
        if (r.nextInt(5) > 0) {
            List<Object> reviews = new ArrayList<>();
            for (int i = r.nextInt(3); i > 0; i--) {
                reviews.add(r.nextInt(5) == 0 ? pick(r) : object("r", pick(r)));
            }
            data.put("l", reviews);
        }
        if (r.nextInt(3) > 0) {
            data.put("u", r.nextInt(3) == 0 ? null : r.nextInt(3) == 0 ? pick(r) : (long) r.nextInt(40));
        }
        if (r.nextInt(3) > 0) {
            data.put("n", object("k", r.nextInt(4) == 0 ? null : r.nextBoolean() ? "Key" + r.nextInt(30) : pick(r)));
        }
        return data;
    }

    private static Map<String, Object> object(String key, Object value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(key, value);
        return m;
    }

    private static QueryBuilder randomQuery(Random r, QueryBuilder base) {
        QueryBuilder q = base;
        for (int i = 1 + r.nextInt(2); i > 0; i--) {
            FieldPath path = PATHS[r.nextInt(PATHS.length)];
            List<QueryBuilder> options = singleConditions(q, path, pick(r));
            q = options.get(r.nextInt(options.size() - 1));
        }
        if (r.nextInt(3) == 0) {
            FieldPath path = PATHS[r.nextInt(PATHS.length)];
            Object v = pick(r);
            q = r.nextBoolean() ? q.orWhere(x -> x.where(path).has(v)) : q.orWhere(x -> x.where(path).neq(v));
        }
        switch (r.nextInt(4)) {
            case 0 -> q = q.orderBy(PATHS[r.nextInt(PATHS.length)], r.nextBoolean() ? Direction.ASC : Direction.DESC);
            case 1 -> q = q.orderBy("id", Direction.DESC);
            default -> { }
        }
        if (r.nextBoolean()) {
            q = q.limit(1 + r.nextInt(5));
        }
        return q;
    }

    /** The query's text with characters outside printable ASCII escaped (reports stay readable). */
    static String printable(QueryBuilder q) {
        StringBuilder out = new StringBuilder();
        q.toString().codePoints().forEach(c -> out.append(c >= 0x20 && c < 0x7f ? Character.toString(c) : String.format("\\u{%x}", c)));
        return out.toString();
    }

    private static List<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).toList();
    }
}
