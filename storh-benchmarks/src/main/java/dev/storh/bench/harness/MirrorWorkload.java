package dev.storh.bench.harness;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.mirror.PullResult;
import dev.storh.mirror.SqlMirror;
import dev.storh.schema.Schema;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

/**
 * Section {@code mirror}: the SQL mirror of a document store, with the original's metric names.
 * SQLite file database with {@code journal_mode=DELETE}, {@code synchronous=FULL}; then the same
 * against PostgreSQL when a JDBC URL is given ({@code -Dstorh.bench.postgres.url=} or
 * {@code STORH_BENCH_POSTGRES_URL}), as {@code mirror.postgresql.*}.
 *
 * <p>Set-up (untimed): collection {@code mirror-docs} filled with the N rows; mirror prefix
 * {@code bench_}, collection {@code docs}, schema kind (index), slug (unique), publishedAt (int
 * range); {@code install()}. {@code -Dstorh.bench.mirror.pull=false} leaves out {@code pull} (N durable
 * file writes dominate it; useful for large figures of the SQL side alone).
 *
 * <pre>
 * mirror.push       first push(): N inserts in one transaction                      N / s
 * mirror.reconcile  second push(), nothing changed: read N (id, hash), hash N records  N / s
 * mirror.flush      flush("docs", first 100 streamed ids) in one transaction        s per call
 * mirror.query      1 × COUNT(*) WHERE kind = 'page' AND publishedAt &gt;= 1700000000000  s
 * mirror.rebuild    rebuild(): DELETE all rows + N inserts (one transaction here)     N / s
 * mirror.pull       pull() into a fresh collection: N rows read, N durable writes     N / s
 * </pre>
 */
final class MirrorWorkload {

    static final String POSTGRES_PROPERTY = "storh.bench.postgres.url";
    static final String POSTGRES_ENV = "STORH_BENCH_POSTGRES_URL";
    static final String PULL_PROPERTY = "storh.bench.mirror.pull";

    private static final Schema SCHEMA = Schema.collection("docs").string("kind").index().string("slug").unique()
            .integer("publishedAt").range();

    private MirrorWorkload() {
    }

    static void run(SectionRun b) throws Exception {
        int n = b.n();
        try (DocStore docs = DocStore.open(b.dir(), "mirror-docs")) {
            docs.putStream(b.rows().rows(n));
            try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + b.dir().resolve("mirror.sqlite"))) {
                try (Statement st = db.createStatement()) {
                    st.execute("PRAGMA journal_mode=DELETE");
                    st.execute("PRAGMA synchronous=FULL");
                }
                measure(b, "", db, docs, "restored-sqlite");
            }
            String pg = System.getProperty(POSTGRES_PROPERTY, System.getenv(POSTGRES_ENV));
            if (pg != null && !pg.isBlank()) {
                try (Connection db = DriverManager.getConnection(pg)) {
                    measure(b, "postgresql.", db, docs, "restored-postgresql");
                }
            }
        }
    }

    private static void measure(SectionRun b, String prefix, Connection db, DocStore docs, String restored)
            throws Exception {
        int n = b.n();
        SqlMirror mirror = SqlMirror.builder().connection(db).prefix("bench_").build().collection(docs, "docs", SCHEMA);
        mirror.uninstall();
        mirror.install();
        try {
            b.time(prefix + "push", n, mirror::push);
            b.time(prefix + "reconcile", n, mirror::push);
            List<String> first;
            try (Stream<StorageRecord> s = docs.stream()) {
                first = s.limit(100).map(StorageRecord::id).toList();
            }
            b.time(prefix + "flush", 1, () -> mirror.flush("docs", first));
            String table = mirror.table("docs");
            String q = mirror.dialect() == dev.storh.mirror.Dialect.MYSQL ? "`" : "\"";
            try (PreparedStatement count = db.prepareStatement("SELECT COUNT(*) FROM " + q + table + q + " WHERE " + q + "kind"
                    + q + " = ? AND " + q + "publishedAt" + q + " >= ?")) {
                b.time(prefix + "query", 1, () -> {
                    count.setString(1, "page");
                    count.setLong(2, 1_700_000_000_000L);
                    try (ResultSet rs = count.executeQuery()) {
                        return rs.next() ? rs.getLong(1) : -1;
                    }
                });
            }
            b.time(prefix + "rebuild", n, mirror::rebuild);
            if (!Boolean.parseBoolean(System.getProperty(PULL_PROPERTY, "true"))) {
                return;
            }
            try (DocStore fresh = DocStore.open(b.dir(), "mirror-" + restored)) {
                SqlMirror back = SqlMirror.builder().connection(db).prefix("bench_").build().collection(fresh, "docs", SCHEMA);
                PullResult pulled = b.time(prefix + "pull", n, back::pull);
                if (pulled.written() != n) {
                    throw new IllegalStateException("mirror pull wrote " + pulled.written() + " of " + n);
                }
            }
        } finally {
            try {
                mirror.uninstall();
            } catch (RuntimeException ignored) {
                // the table goes with the temp folder (SQLite); a server keeps it until the next run
            }
        }
    }
}
