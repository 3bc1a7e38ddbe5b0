package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.id.UuidV7;
import dev.storh.query.Direction;
import dev.storh.query.QueryBuilder;
import dev.storh.query.ScanQueryExecutor;
import dev.storh.schema.Schema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Index maintenance and the planner against the spec's numbered statements and a scan reference. */
class IndexedQueryTest {

    @TempDir
    Path root;

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static List<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).toList();
    }

    @Test
    void equalityFilesPerDistinctValueAndIndexingAfterTheFact() throws Exception {
        try (DocStore store = DocStore.open(root, "posts")) {
            String r0 = store.put(map("kind", "page", "status", "published")).id();
            store.indexes().field("status").index().sync();
            store.put(map("status", "draft"));
            store.put(map("status", "published"));
            store.put(map("status", "archived"));
            try (Stream<Path> files = Files.list(root.resolve("posts/.storh/indexes/entries/eq/" + IndexKeys.hex("status")))) {
                assertThat(files.toList()).hasSize(3);
            }
            store.indexes().field("kind").sync();
            String r1 = store.put(map("kind", "page")).id();
            assertThat(ids(store.query().where("kind").eq("page").get())).containsExactly(r0, r1);
            assertThat(store.query().where("kind").eq("page").explain().toMap())
                    .containsEntry("plan", "index_scan").containsEntry("groups", 1L);
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void aChangedIndexSetRebuildsOnlyWhatChanged() throws Exception {
        try (DocStore store = DocStore.open(root, "posts")) {
            store.indexes().field("kind").field("status").sync();
            for (int i = 0; i < 30; i++) {
                store.put(map("kind", i % 2 == 0 ? "page" : "post", "status", i % 3 == 0 ? "draft" : "live", "rank", (long) i));
            }
            Path kindFile = root.resolve("posts/.storh/indexes/entries/eq/" + IndexKeys.hex("kind") + "/s-70616765.jsonc");
            Object inodeBefore = Files.readAttributes(kindFile, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            store.indexes().field("rank").range().sync();
            Object inodeAfter = Files.readAttributes(kindFile, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
            assertThat(inodeAfter).isEqualTo(inodeBefore);
            assertThat(root.resolve("posts/.storh/indexes/entries/range/" + IndexKeys.hex("rank") + ".jsonl")).exists();
            assertThat(store.query().where("rank").gte(25).count()).isEqualTo(5);
            assertThat(store.verify().errors()).isEmpty();
            // status becomes a range index: its pair with kind disappears, its own files are rebuilt.
            store.indexes().field("status").range().sync();
            assertThat(root.resolve("posts/.storh/indexes/entries/compound/" + IndexKeys.hex("kind") + "-"
                    + IndexKeys.hex("status"))).doesNotExist();
            assertThat(root.resolve("posts/.storh/indexes/entries/eq/" + IndexKeys.hex("status"))).doesNotExist();
            assertThat(store.query().where("status").eq("draft").count()).isEqualTo(10);
            assertThat(Files.readAttributes(kindFile, java.nio.file.attribute.BasicFileAttributes.class).fileKey())
                    .isEqualTo(inodeBefore);
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void rangeUpdatesAppendToTheDeltaAndStayCorrect() throws Exception {
        try (DocStore store = DocStore.open(root, "posts")) {
            store.indexes().field("title").range().sync();
            store.put(map("title", "Alpha"));
            String r1 = store.put(map("title", "Beta")).id();
            store.put(map("title", "Beta Prime"), r1);
            assertThat(store.query().where("title").eq("Beta Prime").count()).isEqualTo(1);
            assertThat(store.query().where("title").eq("Beta").count()).isZero();
            assertThat(root.resolve("posts/.storh/indexes/entries/range/" + IndexKeys.hex("title") + ".delta.jsonl")).exists();
            assertThat(store.query().where("missingRange").gt(1).get()).isEmpty();
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void manifestReadingIsTolerant() throws Exception {
        Path manifest = root.resolve("c/.storh/indexes/manifest.jsonc");
        Files.createDirectories(manifest.getParent());
        Files.writeString(manifest, "{\"fields\":[{\"field\":\"rangeField\",\"range\":true},{\"field\":123},\"ignored\",]}");
        try (DocStore store = DocStore.open(root, "c")) {
            assertThat(store.indexes().definitions()).containsExactly(new IndexDefinition("rangeField", false, true));
            assertThatThrownBy(() -> store.indexes().field("")).isInstanceOf(StorageException.class).hasMessageContaining("field");
            store.indexes().field("b").unique().field("a").range().sync();
            assertThat(Files.readString(manifest)).isEqualTo("{\n    \"fields\": [\n        {\n            \"field\": \"a\",\n"
                    + "            \"unique\": false,\n            \"range\": true\n        },\n        {\n"
                    + "            \"field\": \"b\",\n            \"unique\": true,\n            \"range\": false\n        },\n"
                    + "        {\n            \"field\": \"rangeField\",\n            \"unique\": false,\n"
                    + "            \"range\": true\n        }\n    ]\n}\n");
        }
    }

    @Test
    void limitedReadsAcrossManyIdsAndLongValues() {
        try (DocStore store = DocStore.open(root, "c")) {
            List<String> ids = new ArrayList<>();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (int i = 0; i < 280; i++) {
                rows.add(map("kind", "page"));
            }
            store.putMany(rows).forEach(r -> ids.add(r.id()));
            store.indexes().field("kind").sync();
            List<StorageRecord> got = store.query().where("kind").eq("page").limit(260).get();
            assertThat(got).hasSize(260);
            assertThat(got.get(0).id()).isEqualTo(ids.get(0));
            assertThat(got.get(259).id()).isEqualTo(ids.get(259));
            store.indexes().field("value").sync();
            store.put(map("value", "x".repeat(12_000)));
            store.put(map("value", "x".repeat(12_000)));
            assertThat(store.query().where("value").eq("x".repeat(12_000)).count()).isEqualTo(2);
            assertThat(store.query().where("value").eq("x".repeat(12_000)).limit(1).count()).isEqualTo(1);
            assertThat(store.query().where("value").eq("y".repeat(12_000)).count()).isZero();
        }
    }

    @Test
    void uniqueIndexesRefuseDuplicatesAcrossInstancesAndAllowNullsOnce() {
        Schema schema = Schema.collection("posts").string("slug").unique().string("title").required("title");
        DocStoreOptions options = DocStoreOptions.builder().schema(schema).build();
        try (DocStore a = DocStore.open(root, "posts", options); DocStore b = DocStore.open(root, "posts", options)) {
            StorageRecord home = a.put(map("slug", "home", "title", "Home"));
            assertThatThrownBy(() -> a.put(map("slug", "home", "title", "Again"))).isInstanceOf(UniqueConstraintException.class)
                    .hasMessageContaining("Unique index");
            assertThatThrownBy(() -> b.put(map("slug", "home", "title", "Other instance")))
                    .isInstanceOfSatisfying(UniqueConstraintException.class, e -> {
                        assertThat(e.field()).isEqualTo("slug");
                        assertThat(e.existingId()).isEqualTo(home.id());
                    }).hasMessageContaining("Unique index violation on field: slug");
            b.put(map("slug", "home", "title", "Home, renamed"), home.id()); // its own value passes
            a.put(map("slug", null, "title", "null one"));
            assertThatThrownBy(() -> a.put(map("slug", null, "title", "null two"))).isInstanceOf(UniqueConstraintException.class);
            a.put(map("title", "no slug"));
            a.put(map("title", "no slug either"));
            assertThatThrownBy(() -> a.put(map("slug", "x"))).hasMessageContaining("required");
            assertThatThrownBy(() -> a.putMany(List.of(map("slug", "p", "title", "1"), map("slug", "p", "title", "2"))))
                    .isInstanceOf(UniqueConstraintException.class);
            // putMany is all or nothing: the batch's first "p" is not written either
            assertThat(a.query().where("slug").eq("p").count()).isZero();
            assertThat(a.count()).isEqualTo(4);
            assertThat(a.verify().errors()).isEmpty();
        }
        assertThatThrownBy(() -> DocStore.open(root, "other", options)).hasMessageContaining("Schema collection");
    }

    @Test
    void sixteenThreadsRacingForOneUniqueValueLetExactlyOneWin() throws Exception {
        try (DocStore store = DocStore.open(root, "users")) {
            store.indexes().field("email").unique().sync();
            int threads = 16;
            CyclicBarrier start = new CyclicBarrier(threads);
            AtomicInteger wins = new AtomicInteger();
            AtomicInteger refusals = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int n = t;
                    futures.add(pool.submit(() -> {
                        start.await();
                        try {
                            store.put(map("email", "same@example.test", "thread", (long) n));
                            wins.incrementAndGet();
                        } catch (UniqueConstraintException e) {
                            refusals.incrementAndGet();
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
            assertThat(wins.get()).isEqualTo(1);
            assertThat(refusals.get()).isEqualTo(15);
            assertThat(store.count()).isEqualTo(1);
            assertThat(store.query().where("email").eq("same@example.test").count()).isEqualTo(1);
            assertThat(store.verify().ok()).isTrue();
        }
    }

    @Test
    void compoundBucketsFollowUpdatesAndDeletes() {
        try (DocStore store = DocStore.open(root, "c")) {
            store.indexes().field("kind").field("bucket").sync();
            String r0 = store.put(map("kind", "page", "bucket", 1L)).id();
            store.put(map("kind", "page", "bucket", 2L));
            store.put(map("kind", "post", "bucket", 1L));
            assertThat(ids(store.query().where("kind").eq("page").where("bucket").eq(1L).get())).containsExactly(r0);
            assertThat(store.query().where("bucket").eq(2L).where("kind").eq("post").count()).isZero();
            store.put(map("kind", "page", "bucket", 2L), r0);
            assertThat(store.query().where("kind").eq("page").where("bucket").eq(1L).count()).isZero();
            assertThat(store.query().where("kind").eq("page").where("bucket").eq(2L).count()).isEqualTo(2);
            store.delete(r0);
            assertThat(store.query().where("kind").eq("page").where("bucket").eq(2L).count()).isEqualTo(1);
            assertThat(root.resolve("c/.storh/indexes/entries/compound/" + IndexKeys.hex("bucket") + "-" + IndexKeys.hex("kind")))
                    .isDirectory();
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void integersAndFloatsAreDifferentValues() {
        try (DocStore store = DocStore.open(root, "c")) {
            store.indexes().field("metric").field("score").sync();
            String r0 = store.put(map("metric", 1L, "score", 1L)).id();
            store.put(map("metric", 1.0, "score", 2L));
            store.put(map("metric", 2L, "score", 3L));
            assertThat(store.query().where("metric").eq(1).count()).isEqualTo(1);
            assertThat(store.query().where("metric").eq(1.0).count()).isEqualTo(1);
            assertThat(ids(store.query().where("metric").eq(1).where("score").eq(1).get())).containsExactly(r0);
            assertThat(store.query().where("score").eq(2).where("metric").eq(1).get()).isEmpty();
            store.reindex();
            assertThat(store.query().where("metric").eq(1.0).count()).isEqualTo(1);
        }
    }

    @Test
    void rangeOrderedReadsBothWays() {
        try (DocStore store = DocStore.open(root, "c")) {
            store.indexes().field("position").range().field("score").range().sync();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (long i = 0; i < 600; i++) {
                rows.add(map("position", i));
            }
            for (long s : new long[] {-2, -1, 0, 1}) {
                rows.add(map("score", s));
            }
            store.putMany(rows);
            Map<String, Long> positionOf = new java.util.HashMap<>();
            try (Stream<StorageRecord> all = store.stream()) {
                all.forEach(r -> positionOf.put(r.id(), (Long) r.data().getOrDefault("position", r.data().get("score"))));
            }
            Map<String, Long> pos = positionOf;
            assertThat(store.query().where("position").lt(256).orderBy("position", Direction.DESC).limit(3).get())
                    .extracting(r -> pos.get(r.id())).containsExactly(255L, 254L, 253L);
            assertThat(store.query().where("position").lte(256).orderBy("position", "DESC").limit(3).get())
                    .extracting(r -> pos.get(r.id())).containsExactly(256L, 255L, 254L);
            assertThat(store.query().where("position").between(100, 140).orderBy("position", Direction.DESC).limit(5).get())
                    .extracting(r -> pos.get(r.id())).containsExactly(140L, 139L, 138L, 137L, 136L);
            assertThat(store.query().where("score").gte(-2).orderBy("score").limit(3).get())
                    .extracting(r -> pos.get(r.id())).containsExactly(-2L, -1L, 0L);
            assertThat(store.query().where("score").gte(-2).orderBy("score", Direction.DESC).limit(3).get())
                    .extracting(r -> pos.get(r.id())).containsExactly(1L, 0L, -1L);
            assertThat(store.query().where("position").gte(10).limit(2).count()).isEqualTo(2);
            assertThatThrownBy(() -> store.query().orderBy("position", "sideways")).hasMessageContaining("direction");
            assertThatThrownBy(() -> store.query().limit(0)).hasMessageContaining("limit");
            assertThatThrownBy(() -> store.query().andWhere(q -> null)).hasMessageContaining("andWhere");
            assertThatThrownBy(() -> store.query().orWhere(q -> null)).hasMessageContaining("orWhere");
            assertThatThrownBy(() -> store.query().where("")).hasMessageContaining("field");
        }
    }

    @Test
    void idPathCursorAndFirst() {
        try (DocStore store = DocStore.open(root, "c")) {
            String r0 = store.put(map("status", "published")).id();
            String r1 = store.put(map("status", "draft")).id();
            assertThat(store.query().where("id").eq(r0).first().map(StorageRecord::id)).contains(r0);
            assertThat(store.query().where("id").eq(r0).count()).isEqualTo(1);
            assertThat(store.query().where("id").eq(r0).where("status").eq("published").get()).hasSize(1);
            assertThat(store.query().where("id").eq("not-a-uuid").first()).isEmpty();
            assertThat(store.query().where("id").eq(r0).where("id").eq(r1).count()).isZero();
            assertThat(store.query().where("id").eq(r0).cursor(r1).count()).isZero();
            assertThat(store.query().cursor(r0).count()).isEqualTo(1);
            assertThat(ids(store.query().orderBy("id", Direction.DESC).get())).containsExactly(r1, r0);
            assertThat(store.query().where("id").eq(r0).explain().plan()).isEqualTo("full_scan");
        }
    }

    @Test
    void orAndGroupsFollowTheSpecsWorkedExamples() {
        try (DocStore store = DocStore.open(root, "c")) {
            String a = store.put(map("kind", "page", "n", 1L)).id();
            String b = store.put(map("kind", "post", "n", 1L)).id();
            String c = store.put(map("kind", "page", "n", 2L)).id();
            String d = store.put(map("kind", "note", "n", 1L)).id();
            assertThat(ids(store.query().where("kind").eq("page").orWhere(q -> q.where("kind").eq("post")).where("n").eq(1).get()))
                    .containsExactly(a, b);
            assertThat(ids(store.query().orWhere(q -> q.where("kind").eq("page")).get())).containsExactly(a, c);
            assertThat(store.query().andWhere(q -> q.where("kind").eq("page").orWhere(r -> r.where("kind").eq("post"))).get())
                    .isEmpty();
            assertThat(store.query().where("kind").eq("page").where("kind").eq("page").count()).isEqualTo(2);
            assertThat(ids(store.query().where("kind").in(List.of("note", "post")).get())).containsExactly(b, d);
            store.indexes().field("kind").sync();
            assertThat(store.query().where("kind").eq("page").orWhere(q -> q.where("n").eq(2)).explain().plan())
                    .isEqualTo("full_scan");
            assertThat(ids(store.query().where("kind").eq("page").orWhere(q -> q.where("n").eq(2)).get())).containsExactly(a, c);
        }
    }

    /** Random writes, reopens and reindexes; random queries must equal a plain scan of the same data. */
    @Test
    void randomQueriesEqualTheScanReference() {
        long seed = IndexVsScanRandomTest.seeds()[0]; // -Dstorh.seed=<n> overrides
        System.out.println("IndexedQueryTest seed " + seed);
        Random random = new Random(seed);
        String[] kinds = {"page", "post", "note"};
        Object[] ranks = {10L, -3L, 2.25, "abc", true, null, 7L, 1L, 1.0, 0L};
        List<String> written = new ArrayList<>();
        DocStore store = DocStore.open(root, "r");
        try {
            store.indexes().field("kind").field("slug").unique().field("rank").range().field("bucket").sync();
            for (int step = 0; step < 140; step++) {
                int action = random.nextInt(10);
                if (action < 6 || written.isEmpty()) {
                    Map<String, Object> data = map("kind", kinds[random.nextInt(3)], "bucket", (long) random.nextInt(3));
                    if (random.nextInt(5) > 0) {
                        data.put("rank", ranks[random.nextInt(ranks.length)]);
                    }
                    if (random.nextBoolean()) {
                        data.put("slug", "s" + step);
                    }
                    String id = random.nextInt(4) == 0 && !written.isEmpty() ? written.get(random.nextInt(written.size())) : null;
                    written.add(store.put(data, id).id());
                } else if (action < 8) {
                    store.delete(written.get(random.nextInt(written.size())));
                } else if (action == 8) {
                    store.close();
                    store = DocStore.open(root, "r");
                } else {
                    store.reindex();
                }
            }
            assertThat(store.verify().errors()).as("seed %d", seed).isEmpty();
            ScanQueryExecutor reference = IndexVsScanRandomTest.scanReference(store);
            for (int i = 0; i < 140; i++) {
                QueryBuilder indexed = randomQuery(random, store.query(), kinds, ranks, written);
                QueryBuilder scanned = IndexVsScanRandomTest.replay(indexed, QueryBuilder.on(reference));
                assertThat(ids(indexed.get())).as("seed %d query %s", seed, indexed).isEqualTo(ids(scanned.get()));
                assertThat(indexed.count()).as("seed %d count %s", seed, indexed).isEqualTo(scanned.count());
                assertThat(indexed.first().map(StorageRecord::id)).as("seed %d first %s", seed, indexed)
                        .isEqualTo(scanned.first().map(StorageRecord::id));
                try (Stream<StorageRecord> streamed = indexed.stream()) {
                    assertThat(streamed.map(StorageRecord::id).toList()).as("seed %d stream %s", seed, indexed)
                            .isEqualTo(ids(scanned.get()));
                }
            }
        } finally {
            store.close();
        }
    }

    private static QueryBuilder randomQuery(Random r, QueryBuilder q, String[] kinds, Object[] ranks, List<String> ids) {
        int groups = 1 + r.nextInt(2);
        QueryBuilder result = q;
        for (int g = 0; g < groups; g++) {
            QueryBuilder branch = randomGroup(r, q, kinds, ranks);
            result = g == 0 ? branch : result.orWhere(x -> randomGroupOn(branch, x));
        }
        switch (r.nextInt(4)) {
            case 0:
                result = result.orderBy("rank", r.nextBoolean() ? Direction.ASC : Direction.DESC);
                break;
            case 1:
                result = result.orderBy(r.nextBoolean() ? "id" : "slug", r.nextBoolean() ? Direction.ASC : Direction.DESC);
                break;
            default:
                break;
        }
        if (r.nextBoolean()) {
            result = result.limit(1 + r.nextInt(5));
        }
        if (r.nextInt(4) == 0 && !ids.isEmpty()) {
            result = result.cursor(ids.get(r.nextInt(ids.size())));
        }
        return result;
    }

    private static QueryBuilder randomGroupOn(QueryBuilder template, QueryBuilder fresh) {
        QueryBuilder out = fresh;
        for (dev.storh.query.Condition c : template.groups().get(0)) {
            out = apply(out, c);
        }
        return out;
    }

    private static QueryBuilder randomGroup(Random r, QueryBuilder q, String[] kinds, Object[] ranks) {
        QueryBuilder out = q;
        int n = 1 + r.nextInt(2);
        for (int i = 0; i < n; i++) {
            switch (r.nextInt(8)) {
                case 0 -> out = out.where("kind").eq(kinds[r.nextInt(3)]);
                case 1 -> out = out.where("bucket").eq((long) r.nextInt(3));
                case 2 -> out = out.where("rank").gt(ranks[r.nextInt(ranks.length)]);
                case 3 -> out = out.where("rank").lte(ranks[r.nextInt(ranks.length)]);
                case 4 -> out = out.where("rank").between(0L, 8L);
                case 5 -> out = out.where("kind").in(List.of(kinds[r.nextInt(3)], kinds[r.nextInt(3)]));
                case 6 -> out = out.where("rank").eq(ranks[r.nextInt(ranks.length)]);
                default -> out = out.where("slug").exists();
            }
        }
        return out;
    }

    private static QueryBuilder apply(QueryBuilder q, dev.storh.query.Condition c) {
        return q.andWhere(x -> QueryBuilderReplay.with(x, c));
    }

    /** Re-applies a condition through the public builder API. */
    static final class QueryBuilderReplay {
        static QueryBuilder with(QueryBuilder q, dev.storh.query.Condition c) {
            return q.and(c);
        }
    }

    @Test
    void uuidCursorValidation() {
        try (DocStore store = DocStore.open(root, "c")) {
            assertThatThrownBy(() -> store.query().cursor("nope")).hasMessageContaining("Invalid UUIDv7 value.");
            assertThat(store.query().cursor(UuidV7.generate()).get()).isEmpty();
        }
    }
}
