package dev.storh.bench.harness;

import dev.storh.id.UuidV7;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Section {@code sqlite}: what a user would pick instead, on the same machine, disk and rows.
 * SQLite through JDBC ({@code org.xerial:sqlite-jdbc}), one file, {@code journal_mode=WAL},
 * {@code synchronous=FULL} (every commit fsyncs the WAL). Table {@code bench_docs(id TEXT PRIMARY
 * KEY, kind, status, bucket, slug, published_at, data)} with indexes on kind, bucket and
 * published_at; {@code data} is the row's JSON. Reads parse {@code data} back into a {@code Map},
 * as a store's get does.
 *
 * <pre>
 * sqlite.insert          N single-row INSERTs, each its own durable transaction (autocommit)  N / s
 * sqlite.point_select    min(1000, N) × SELECT data WHERE id = ? (primary key)               s / op
 * sqlite.indexed_select  1 × WHERE kind = 'page' ORDER BY id LIMIT 100 (kind index)          s
 * sqlite.indexed_count   1 × COUNT(*) WHERE kind = 'page'                                    s
 * sqlite.bulk_insert     N INSERTs in one transaction into a second table                    N / s
 * </pre>
 */
final class SqliteWorkload {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private SqliteWorkload() {
    }

    static void run(SectionRun b) throws Exception {
        int n = b.n();
        Rows rows = b.rows();
        String url = "jdbc:sqlite:" + b.dir().resolve("bench.sqlite");
        try (Connection db = DriverManager.getConnection(url)) {
            try (Statement st = db.createStatement()) {
                st.execute("PRAGMA journal_mode=WAL");
                st.execute("PRAGMA synchronous=FULL");
                for (String table : List.of("bench_docs", "bench_bulk")) {
                    st.execute("CREATE TABLE " + table + " (id TEXT PRIMARY KEY, kind TEXT, status TEXT, "
                            + "bucket INTEGER, slug TEXT, published_at INTEGER, data TEXT NOT NULL)");
                    st.execute("CREATE INDEX " + table + "_kind ON " + table + " (kind)");
                    st.execute("CREATE INDEX " + table + "_bucket ON " + table + " (bucket)");
                    st.execute("CREATE INDEX " + table + "_published_at ON " + table + " (published_at)");
                }
            }
            List<String> ids = new ArrayList<>(n);
            try (PreparedStatement insert = insert(db, "bench_docs")) {
                b.timeEach("insert", n, (i) -> {
                    ids.add(bind(insert, rows.row(i)));
                    insert.executeUpdate();
                });
            }
            int gets = Math.min(1000, n);
            try (PreparedStatement select = db.prepareStatement("SELECT data FROM bench_docs WHERE id = ?")) {
                b.time("point_select", gets, () -> {
                    int found = 0;
                    for (int i = 0; i < gets; i++) {
                        select.setString(1, ids.get(i));
                        try (ResultSet rs = select.executeQuery()) {
                            found += rs.next() && JSON.readValue(rs.getString(1), Map.class) != null ? 1 : 0;
                        }
                    }
                    return found;
                });
            }
            try (PreparedStatement select = db.prepareStatement(
                    "SELECT id, data FROM bench_docs WHERE kind = ? ORDER BY id LIMIT 100")) {
                b.time("indexed_select", 1, () -> {
                    select.setString(1, "page");
                    List<Object> out = new ArrayList<>();
                    try (ResultSet rs = select.executeQuery()) {
                        while (rs.next()) {
                            out.add(rs.getString(1));
                            out.add(JSON.readValue(rs.getString(2), Map.class));
                        }
                    }
                    return out.size();
                });
            }
            try (PreparedStatement count = db.prepareStatement("SELECT COUNT(*) FROM bench_docs WHERE kind = ?")) {
                b.time("indexed_count", 1, () -> {
                    count.setString(1, "page");
                    try (ResultSet rs = count.executeQuery()) {
                        return rs.next() ? rs.getLong(1) : -1;
                    }
                });
            }
            try (PreparedStatement insert = insert(db, "bench_bulk")) {
                b.time("bulk_insert", n, () -> {
                    db.setAutoCommit(false);
                    try {
                        for (int i = 0; i < n; i++) {
                            bind(insert, rows.row(i));
                            insert.executeUpdate();
                        }
                        db.commit();
                    } finally {
                        db.setAutoCommit(true);
                    }
                    return null;
                });
            }
        }
    }

    private static PreparedStatement insert(Connection db, String table) throws SQLException {
        return db.prepareStatement("INSERT INTO " + table
                + " (id, kind, status, bucket, slug, published_at, data) VALUES (?, ?, ?, ?, ?, ?, ?)");
    }

    private static String bind(PreparedStatement insert, Map<String, Object> row) throws SQLException {
        String id = UuidV7.generate();
        insert.setString(1, id);
        insert.setString(2, (String) row.get("kind"));
        insert.setString(3, (String) row.get("status"));
        insert.setLong(4, (Long) row.get("bucket"));
        insert.setString(5, (String) row.get("slug"));
        insert.setLong(6, (Long) row.get("publishedAt"));
        insert.setString(7, JSON.writeValueAsString(row));
        return id;
    }
}
