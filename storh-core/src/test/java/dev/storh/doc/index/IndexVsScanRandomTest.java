package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import dev.storh.query.Condition;
import dev.storh.query.Direction;
import dev.storh.query.FieldPath;
import dev.storh.query.QueryBuilder;
import dev.storh.query.RecordQuery;
import dev.storh.query.ScanQueryExecutor;
import dev.storh.query.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded differential test: every value kind of the JSON model × every operator (string, element
 * and case-insensitive ones included, on top-level keys, dotted keys and nested paths) × every index kind
 * (equality, unique, range, compound) × orderBy / limit / page / cursor, on a real store with
 * writes, deletes, reopens and reindexes; every indexed answer must equal a scan of the same
 * records. Seeds: a fixed list, or {@code -Dstorh.seed=<n>} for one seed.
 */
class IndexVsScanRandomTest {

    private static final long[] SEEDS = {1L, 7L, 42L, 1337L, 20261201L};

    /** One or more values of every kind the JSON model holds. */
    static final List<Object> VALUES = java.util.Collections.unmodifiableList(Arrays.asList(
            0L, 1L, 7L, -3L, 10L, Long.MAX_VALUE, Long.MIN_VALUE, 9007199254740993L, 123456789012345678L,
            new BigInteger("9223372036854775808"), new BigInteger("18446744073709551616"),
            new BigInteger("-9223372036854775809"),
            0.0, -0.0, 1.0, 2.25, -2.5, 0.1, 1e20, 1e300, -1e300, 5e-324, -5e-324, 1e-7, -1e-7, 9007199254740992.0,
            0x1p63, 1e17,
            new BigDecimal("19.990"), new BigDecimal("0.10"), new BigDecimal("12345678901234567890.123456789"),
            new BigDecimal("5.00"), new BigDecimal("0.00"),
            "", "a", "abc", "ab", "Ä", "🙂", "\uFFFF", "10", "-1", "x".repeat(120), "ABC", "aBc*", "ä", "straße", "STRASSE",
            "a.b", "(", "I", "ı",
            true, false,
            null,
            List.of(), List.of(1L), List.of(1.0), List.of("a"), List.of(List.of(2L)), Arrays.asList(null, true),
            List.of("A", "abc"), List.of(Map.of("a", 7L), Map.of("a", "abc")),
            Map.of(), Map.of("a", 1L), Map.of("a", 1.0), Map.of("b", List.of()), Map.of("a", "ABC")));

    /** Top-level keys written to records; {@code r.a} is one key with a dot, not the path r → a. */
    static final String[] KEYS = {"e", "c", "u", "r", "r.a"};

    /** Paths below the top level: through objects and lists of objects. */
    private static final FieldPath[] NESTED = {FieldPath.of("r", "a"), FieldPath.of("e", "a"), FieldPath.of("u", "b")};

    private static final String[] FIELDS = {"e", "c", "u", "r"};

    @TempDir
    Path root;

    static long[] seeds() {
        String override = System.getProperty("storh.seed");
        return override == null || override.isBlank() ? SEEDS : new long[] {Long.parseLong(override.trim())};
    }

    @Test
    void indexedAnswersEqualAScanForEveryValueKindOperatorAndIndexKind() {
        long[] seeds = seeds();
        for (int i = 0; i < seeds.length; i++) {
            runSeed(seeds[i], i == 0);
        }
    }

    @Test
    void compareIsAConsistentTotalOrderOverEveryValueKind() {
        for (Object a : VALUES) {
            assertThat(Values.compare(a, a)).as("%s", a).isZero();
            for (Object b : VALUES) {
                int ab = Integer.signum(Values.compare(a, b));
                assertThat(ab).as("%s vs %s", a, b).isEqualTo(-Integer.signum(Values.compare(b, a)));
                if (Values.identical(a, b)) {
                    assertThat(ab).as("identical %s and %s compare equal", a, b).isZero();
                }
                for (Object c : VALUES) {
                    int bc = Integer.signum(Values.compare(b, c));
                    if (ab <= 0 && bc <= 0) {
                        assertThat(Values.compare(a, c)).as("%s <= %s <= %s", a, b, c).isLessThanOrEqualTo(0);
                    }
                    if (ab == 0 && bc == 0) {
                        assertThat(Values.compare(a, c)).as("%s == %s == %s", a, b, c).isZero();
                    }
                }
            }
        }
    }

    private void runSeed(long seed, boolean everySingleCondition) {
        Random random = new Random(seed);
        System.out.println("IndexVsScanRandomTest seed " + seed + " (rerun with -Dstorh.seed=" + seed + ")");
        Path dir = root.resolve("seed-" + seed);
        List<String> written = new ArrayList<>();
        DocStore store = DocStore.open(dir, "r");
        java.util.concurrent.atomic.AtomicReference<DocStore> open = new java.util.concurrent.atomic.AtomicReference<>(store);
        try {
            // e, c: equality (and their compound pair); u: unique; r: range.
            store.indexes().field("e").field("c").field("u").unique().field("r").range().sync();
            store = randomWrites(store, random, written, 70, () -> DocStore.open(dir, "r"), open::set);
            assertThat(store.verify().errors()).as("seed %d verify", seed).isEmpty();
            QueryBuilder scan = QueryBuilder.on(scanReference(store));
            for (int i = 0; i < 120; i++) {
                QueryBuilder shape = randomQuery(random, store.query(), written);
                QueryBuilder indexed = replay(shape, store.query());
                QueryBuilder scanned = replay(shape, scan);
                String label = "seed " + seed + " query " + indexed;
                List<String> expected = ids(scanned.get());
                assertThat(ids(indexed.get())).as(label).isEqualTo(expected);
                assertThat(indexed.count()).as("count " + label).isEqualTo(scanned.count());
                assertThat(indexed.first().map(StorageRecord::id)).as("first " + label)
                        .isEqualTo(scanned.first().map(StorageRecord::id));
                try (Stream<StorageRecord> streamed = indexed.stream()) {
                    assertThat(streamed.map(StorageRecord::id).toList()).as("stream " + label).isEqualTo(expected);
                }
            }
            // Every single condition on every field and value, without the random shapes (first seed).
            for (String field : everySingleCondition ? FIELDS : new String[0]) {
                for (Object v : VALUES) {
                    for (QueryBuilder q : List.of(store.query().where(field).eq(v), store.query().where(field).gte(v),
                            store.query().where(field).gt(v), store.query().where(field).lte(v),
                            store.query().where(field).lt(v), store.query().where(field).in(Arrays.asList(v, 7L)),
                            store.query().where(field).gte(v).orderBy(field, Direction.DESC).limit(3),
                            store.query().where(field).ignoringCase().eq(v), store.query().where(field).has(v),
                            store.query().where(field).ignoringCase().prefix(v instanceof String s ? s : "a"),
                            store.query().where(FieldPath.of(field, "a")).eq(v),
                            store.query().where(field).gte(v).limit(2), store.query().where(field).lt(v).limit(5),
                            Values.compare(v, 7L) <= 0 ? store.query().where(field).between(v, 7L)
                                    : store.query().where(field).between(7L, v),
                            store.query().where("e").eq(v).where("c").eq(v),
                            store.query().where("c").eq(v).where("e").eq(7L).limit(1))) {
                        QueryBuilder s = replay(q, scan);
                        assertThat(ids(q.get())).as("seed %d %s", seed, q).isEqualTo(ids(s.get()));
                        assertThat(q.count()).as("seed %d count %s", seed, q).isEqualTo(s.count());
                    }
                }
            }
        } finally {
            open.get().close();
        }
    }

    /**
     * Seeded writes on an indexed store: puts of random records (new ones, and rewrites of written
     * ones; a put the unique index refuses writes nothing), deletes, reopens and reindexes.
     *
     * @param store the open store
     * @param written the ids written so far; new ones are added
     * @param steps how many operations
     * @param reopen opens the store again
     * @param opened told every store opened on the way (the caller closes the last)
     * @return the store open at the end
     */
    static DocStore randomWrites(DocStore store, Random random, List<String> written, int steps,
            java.util.function.Supplier<DocStore> reopen, java.util.function.Consumer<DocStore> opened) {
        DocStore current = store;
        for (int step = 0; step < steps; step++) {
            int action = random.nextInt(20);
            if (action < 14 || written.isEmpty()) {
                Map<String, Object> data = new LinkedHashMap<>();
                for (String f : KEYS) {
                    if (random.nextInt(6) > 0) {
                        data.put(f, pick(random));
                    }
                }
                String id = random.nextInt(4) == 0 && !written.isEmpty() ? written.get(random.nextInt(written.size())) : null;
                try {
                    written.add(current.put(data, id).id());
                } catch (UniqueConstraintException duplicate) {
                    // the unique index refused an identical value: nothing was written
                }
            } else if (action < 17) {
                current.delete(written.get(random.nextInt(written.size())));
            } else if (action < 19) {
                current.close();
                current = reopen.get();
                opened.accept(current);
            } else {
                current.reindex();
            }
        }
        return current;
    }

    /** The reference: the same store's records, queried by scanning only. */
    static ScanQueryExecutor scanReference(DocStore store) {
        return new ScanQueryExecutor("scan", new ScanQueryExecutor.RecordSource() {
            @Override
            public Stream<StorageRecord> scan(String afterId) {
                return afterId == null ? store.stream() : store.stream(RecordQuery.all().after(afterId));
            }

            @Override
            public Optional<StorageRecord> byId(String id) {
                return store.get(id);
            }

            @Override
            public long count() {
                return store.count();
            }
        });
    }

    static Object pick(Random random) {
        return VALUES.get(random.nextInt(VALUES.size()));
    }

    static QueryBuilder randomQuery(Random r, QueryBuilder base, List<String> ids) {
        QueryBuilder q = randomGroup(r, base);
        if (r.nextInt(3) == 0) {
            QueryBuilder other = randomGroup(r, base);
            q = q.orWhere(x -> copyGroup(other.groups().get(0), x));
        }
        switch (r.nextInt(5)) {
            case 0 -> q = q.orderBy(FIELDS[r.nextInt(FIELDS.length)], r.nextBoolean() ? Direction.ASC : Direction.DESC);
            case 1 -> q = r.nextBoolean() ? q.orderBy(KEYS[r.nextInt(KEYS.length)], Direction.DESC)
                    : q.orderBy(NESTED[r.nextInt(NESTED.length)], r.nextBoolean() ? Direction.ASC : Direction.DESC);
            case 2 -> q = q.orderBy("id", r.nextBoolean() ? Direction.ASC : Direction.DESC);
            default -> { }
        }
        switch (r.nextInt(4)) {
            case 0 -> q = q.limit(1 + r.nextInt(4));
            case 1 -> q = q.page(1 + r.nextInt(8));
            default -> { }
        }
        if (r.nextInt(4) == 0 && !ids.isEmpty()) {
            q = q.cursor(ids.get(r.nextInt(ids.size())));
        }
        return q;
    }

    private static QueryBuilder randomGroup(Random r, QueryBuilder base) {
        QueryBuilder q = base;
        int n = 1 + r.nextInt(2);
        for (int i = 0; i < n; i++) {
            int where = r.nextInt(16);
            QueryBuilder.FieldCondition f = where == 0 ? q.where("id") : where < 11 ? q.where(FIELDS[r.nextInt(FIELDS.length)])
                    : where < 13 ? q.where(NESTED[r.nextInt(NESTED.length)]) : q.where("r.a");
            Object v = pick(r);
            String text = v instanceof String s ? s : "a";
            int operator = r.nextInt(24);
            if (operator >= 12 && r.nextInt(3) == 0) {
                f = f.ignoringCase();
            }
            q = switch (operator) {
                case 0 -> f.eq(v);
                case 1 -> f.neq(v);
                case 2 -> f.in(Arrays.asList(v, pick(r)));
                case 3 -> f.notIn(Arrays.asList(v, pick(r)));
                case 4 -> f.gt(v);
                case 5 -> f.gte(v);
                case 6 -> f.lt(v);
                case 7 -> f.lte(v);
                case 8 -> {
                    Object w = pick(r);
                    yield Values.compare(v, w) <= 0 ? f.between(v, w) : f.between(w, v);
                }
                case 9 -> f.exists();
                case 10 -> f.missing();
                case 11 -> f.prefix(text);
                case 12 -> f.eq(v);
                case 13 -> f.in(Arrays.asList(v, pick(r)));
                case 14 -> f.prefix(text.isEmpty() ? text : text.substring(0, 1));
                case 15 -> f.suffix(text);
                case 16 -> f.contains(text.length() > 1 ? text.substring(1) : text);
                case 17 -> f.notContains(text);
                case 18 -> f.like(r.nextBoolean() ? "*" + text.substring(Math.min(1, text.length())) : text + "*");
                case 19 -> f.notLike("a*");
                case 20 -> f.regex(r.nextBoolean() ? "^a" : "[sS]{2}|ß");
                case 21 -> f.has(v);
                case 22 -> f.notHas(v);
                default -> f.neq(v);
            };
        }
        return q;
    }

    /** The same groups, order, limit and cursor on another executor. */
    static QueryBuilder replay(QueryBuilder source, QueryBuilder target) {
        List<List<Condition>> groups = source.groups();
        QueryBuilder out = copyGroup(groups.get(0), target);
        for (List<Condition> group : groups.subList(1, groups.size())) {
            out = out.orWhere(x -> copyGroup(group, x));
        }
        if (source.orderPath() != null) {
            out = out.orderBy(source.orderPath(), source.direction());
        }
        if (source.limit() > 0) {
            out = out.limit(source.limit());
        }
        if (source.cursor() != null) {
            out = out.cursor(source.cursor());
        }
        return out;
    }

    private static QueryBuilder copyGroup(List<Condition> group, QueryBuilder target) {
        QueryBuilder out = target;
        for (Condition c : group) {
            out = IndexedQueryTest.QueryBuilderReplay.with(out, c);
        }
        return out;
    }

    static List<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).toList();
    }
}
