package dev.storh.bench.harness;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.query.Direction;
import dev.storh.query.RecordQuery;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Section {@code doc}: the document store {@code docs} with default options (no schema, the
 * default record cache, STAT validation), then {@code docs-bulk} and {@code docs-import}, as the
 * original's benchmark "doc" lists them. As in the original, {@code doc.get} is served from the
 * record cache its own {@code put}s filled, after a check of the file's version.
 *
 * <p>With {@code --threads=T}, {@code doc.put_tT} times N puts from T threads into a fresh store
 * {@code docs-tT}.
 */
final class DocWorkload {

    private DocWorkload() {
    }

    static void run(SectionRun b) throws Exception {
        int n = b.n();
        Rows rows = b.rows();
        Path dir = b.dir();
        long s = Rows.PUBLISHED_START;
        DocStore store = DocStore.open(dir, "docs");
        try {
            List<String> ids = b.timePuts("put", store::put);
            int gets = Math.min(1000, n);
            b.time("get", gets, () -> {
                int found = 0;
                for (int i = 0; i < gets; i++) {
                    found += store.get(ids.get(i)).isPresent() ? 1 : 0;
                }
                return found;
            });
            String mid = ids.get(n / 2);
            String midStatus = Rows.status(n / 2);
            b.time("id_first", 1, () -> store.query().where("id").eq(mid).first());
            b.time("id_count", 1, () -> store.query().where("id").eq(mid).count());
            b.time("id_filtered_first", 1,
                    () -> store.query().where("id").eq(mid).where("status").eq(midStatus).first());
            b.time("unindexed_first", 1, () -> store.query().where("status").eq("published").first());
            b.time("stream", n, () -> {
                try (Stream<StorageRecord> all = store.stream()) {
                    return all.toList().size();
                }
            });
            int deletes = Math.min(100, n);
            b.timeEach("delete", deletes, (i) -> store.delete(ids.get(i)));
            int left = n - deletes;
            b.time("index_build", left, () -> store.indexes()
                    .field("kind").index().field("bucket").index().field("publishedAt").range().sync());
            queries(b, store, s, left);
        } finally {
            store.close();
        }
        DocStore again = b.time("reopen", 1, () -> DocStore.open(dir, "docs"));
        again.close();
        Path export = dir.resolve("docs-export.jsonl");
        try (DocStore bulk = DocStore.open(dir, "docs-bulk")) {
            b.time("bulk_put", n, () -> bulk.putStream(rows.rows(n)));
            b.time("jsonl_export", n, () -> bulk.exportJsonl(export));
        }
        try (DocStore imported = DocStore.open(dir, "docs-import")) {
            b.time("jsonl_import", n, () -> imported.importJsonl(export));
        }
        for (int threads : b.threads()) {
            try (DocStore concurrent = DocStore.open(dir, "docs-t" + threads);
                    SectionRun.ConcurrentWork work =
                            SectionRun.concurrently(threads, n, i -> concurrent.put(rows.row(i)))) {
                b.time("put_t" + threads, n, work);
            }
        }
    }

    private static void queries(SectionRun b, DocStore store, long s, int left) throws Exception {
        b.time("indexed", 1, () -> store.query().where("kind").eq("page").limit(100).get());
        b.time("indexed_first", 1, () -> store.query().where("kind").eq("page").first());
        b.time("indexed_range", 1, () -> store.query().where("publishedAt").between(s + 10, s + 200).get());
        b.time("indexed_range_ordered", 1, () -> store.query().where("publishedAt").gte(s)
                .orderBy("publishedAt", Direction.ASC).limit(100).get());
        b.time("indexed_range_ordered_first", 1, () -> store.query().where("publishedAt").gte(s)
                .orderBy("publishedAt", Direction.ASC).first());
        b.time("indexed_range_ordered_desc", 1, () -> store.query().where("publishedAt").gte(s)
                .orderBy("publishedAt", Direction.DESC).limit(100).get());
        b.time("indexed_range_ordered_desc_first", 1, () -> store.query().where("publishedAt").gte(s)
                .orderBy("publishedAt", Direction.DESC).first());
        b.time("indexed_compound_miss", 1, () -> store.query().where("kind").eq("post").where("bucket").eq(4L).get());
        b.time("indexed_compound_miss_count", 1,
                () -> store.query().where("kind").eq("post").where("bucket").eq(4L).count());
        b.time("indexed_compound_count", 1,
                () -> store.query().where("kind").eq("page").where("bucket").eq(4L).count());
        b.time("indexed_count", 1, () -> store.query().where("kind").eq("page").count());
        b.time("indexed_numeric_count", 1, () -> store.query().where("bucket").eq(5L).count());
        b.time("indexed_range_count", 1, () -> store.query().where("publishedAt").between(s + 10, s + 200).count());
        b.time("indexed_range_limit_count", 1, () -> store.query().where("publishedAt").gte(s).limit(100).count());
        b.time("unindexed_count", left, () -> store.query().where("status").eq("published").count());
        b.time("unindexed_limit_count", 1, () -> store.query().where("status").eq("published").limit(100).count());
        b.time("full", 1, () -> {
            try (Stream<StorageRecord> page = store.stream(RecordQuery.all().whereEqual("kind", "page").limit(100))) {
                return page.toList().size();
            }
        });
    }
}
