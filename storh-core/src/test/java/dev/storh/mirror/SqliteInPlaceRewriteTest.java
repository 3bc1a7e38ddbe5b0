package dev.storh.mirror;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.schema.Schema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On SQLite a changed row whose typed columns keep their values is rewritten in place (one UPDATE
 * of hash and data: same rowid, no index entry touched), every other changed row by DELETE then
 * INSERT. Either way each row must hold exactly what a fresh rebuild writes: every table here is
 * compared, value and SQLite storage class of each column, with a reference table that a second
 * mirror rebuilds from the same store.
 */
class SqliteInPlaceRewriteTest {

    private static final Schema SCHEMA = Schema.collection("pages").string("slug").unique().integer("views").range()
            .number("score").index().bool("live").done();

    @TempDir
    Path root;

    private Connection conn;
    private DocStore pages;
    private SqlMirror mirror;
    private SqlMirror reference;

    @BeforeEach
    void open() throws SQLException {
        conn = DriverManager.getConnection("jdbc:sqlite:" + root.resolve("m.db"));
        pages = DocStore.open(root, "pages");
        mirror = SqlMirror.builder().connection(conn).prefix("m_").build().collection(pages, "pages", SCHEMA);
        reference = SqlMirror.builder().connection(conn).prefix("ref_").build().collection(pages, "pages", SCHEMA);
        mirror.install();
        reference.install();
    }

    @AfterEach
    void close() throws SQLException {
        conn.close();
        pages.close();
    }

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private String put(Object... kv) {
        return pages.put(map(kv)).id();
    }

    private void change(String id, Object... kv) {
        Map<String, Object> d = new LinkedHashMap<>(pages.get(id).orElseThrow().data());
        for (int i = 0; i < kv.length; i += 2) {
            d.put((String) kv[i], kv[i + 1]);
        }
        pages.put(d, id);
    }

    /** @return every row of a table in id order: each column's value and storage class, rowid aside */
    private List<List<Object>> rows(String table) throws SQLException {
        String sql = "SELECT id, hash, slug, typeof(slug), views, typeof(views), score, typeof(score), live, typeof(live), data,"
                + " typeof(data) FROM \"" + table + "\" ORDER BY id";
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= 12; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private Map<String, Long> rowids() throws SQLException {
        Map<String, Long> ids = new LinkedHashMap<>();
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT id, rowid FROM \"m_pages\"")) {
            while (rs.next()) {
                ids.put(rs.getString(1), rs.getLong(2));
            }
        }
        return ids;
    }

    /** The mirror's table holds exactly what a rebuild from the store writes. */
    private void assertLikeARebuild() throws SQLException {
        reference.rebuild();
        assertThat(rows("m_pages")).isEqualTo(rows("ref_pages"));
        assertThat(rows("m_pages")).hasSize((int) pages.count());
    }

    private void execute(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }

    @Test
    void flushOfChangedDataKeepsTheRowInPlace() throws SQLException {
        String a = put("slug", "a", "views", 1L, "score", 0.1, "live", true, "text", "x");
        String b = put("text", "no typed member");
        String c = put("slug", "c", "views", "7", "score", 2L, "live", 1L);
        assertThat(mirror.push()).isEqualTo(new PushResult(3, 0, 0, 0));
        Map<String, Long> before = rowids();
        change(a, "text", "y ü \"quoted\"");
        change(b, "text", "still none", "more", List.of(1L, 2L));
        change(c, "score", 2L, "extra", Map.of("k", "v"));

        assertThat(mirror.flush("pages", List.of(a, b, c))).isEqualTo(new FlushResult(3, 0));

        assertThat(rowids()).isEqualTo(before);
        assertLikeARebuild();
        assertThat(rows("m_pages")).filteredOn(r -> r.get(0).equals(c)).singleElement()
                .satisfies(r -> assertThat(r.subList(2, 10)).containsExactly("c", "text", null, "null", 2.0, "real", null, "null"));
    }

    @Test
    void aChangedTypedValueIsDeletedAndInsertedAgainAndUniqueValuesMaySwap() throws SQLException {
        String a = put("slug", "a", "views", 1L);
        String b = put("slug", "b", "views", 2L, "score", 1.5);
        String c = put("slug", "c", "live", false);
        String d = put("slug", "d", "live", true);
        String e = put("slug", "e", "views", 5L);
        put("slug", "last"); // keeps the highest rowid: a row inserted again gets a new one
        mirror.push();
        Map<String, Long> before = rowids();
        change(a, "slug", "a2");
        change(b, "score", 0.30000000000000004);
        change(c, "slug", "d"); // c and d swap their unique values in one flush
        change(d, "slug", "c");
        change(e, "views", "5"); // an int column gets a string: NULL now
        assertThat(mirror.flush("pages", List.of(a, b, c, d, e))).isEqualTo(new FlushResult(5, 0));
        assertLikeARebuild();
        Map<String, Long> after = rowids();
        for (String id : List.of(a, b, c, d, e)) {
            assertThat(after.get(id)).as(id).isNotEqualTo(before.get(id));
        }
    }

    @Test
    void typedColumnsAreComparedExactlyBeforeARowIsKeptInPlace() throws SQLException {
        String a = put("slug", "a", "views", 0L, "score", 1.0, "live", false);
        String b = put("slug", "b", "views", 3L, "score", 2.5, "live", true);
        String c = put("slug", "c", "views", 4L);
        String d = put("slug", "d", "views", 9L, "score", 1e100);
        mirror.push();
        // rows whose typed values were changed by hand while the data stayed as it was
        execute("UPDATE m_pages SET slug = 'A', views = 'abc' WHERE id = ?", a); // case, text in an int column
        execute("UPDATE m_pages SET live = NULL, score = 2.5000000000000004 WHERE id = ?", b);
        execute("UPDATE m_pages SET views = 4.0 WHERE id = ?", c); // the same number as REAL
        execute("UPDATE m_pages SET score = NULL WHERE id = ?", d);
        Map<String, Long> before = rowids();
        for (String id : List.of(a, b, c, d)) {
            change(id, "touched", true);
        }
        assertThat(mirror.flush("pages", List.of(a, b, c, d))).isEqualTo(new FlushResult(4, 0));
        assertLikeARebuild();
        // 4.0 in an INTEGER column is stored as the integer 4: equal, so that row stays in place
        assertThat(rowids().get(c)).isEqualTo(before.get(c));
        assertThat(rowids().get(a)).isNotEqualTo(before.get(a));
    }

    @Test
    void aRowMissingFromTheTableIsInsertedByAFlushOrPush() throws SQLException {
        String a = put("slug", "a");
        String b = put("slug", "b");
        mirror.push();
        execute("DELETE FROM m_pages WHERE id = ?", a);
        change(a, "text", "new");
        assertThat(mirror.flush("pages", List.of(a, b))).isEqualTo(new FlushResult(2, 0));
        assertLikeARebuild();
        execute("DELETE FROM m_pages WHERE id = ?", b);
        assertThat(mirror.push()).isEqualTo(new PushResult(1, 0, 0, 1));
        assertLikeARebuild();
    }

    @Test
    void pushRewritesChangedRowsInPlaceAcrossBatches() throws SQLException {
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 0; i < 1_234; i++) {
            items.add(Map.of("data", map("slug", "s-" + i, "views", (long) i, "score", i / 4.0, "live", i % 2 == 0)));
        }
        pages.putStream(items);
        assertThat(mirror.push().inserted()).isEqualTo(1_234);
        Map<String, Long> before = rowids();
        List<String> ids;
        try (Stream<StorageRecord> s = pages.stream()) {
            ids = s.map(StorageRecord::id).toList();
        }
        List<String> typedChanged = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            if (i % 3 == 0) {
                change(ids.get(i), "text", "t" + i);
            } else if (i % 3 == 1) {
                change(ids.get(i), "views", (long) -i);
                typedChanged.add(ids.get(i));
            }
        }
        assertThat(mirror.push()).isEqualTo(new PushResult(0, 823, 0, 411));
        assertLikeARebuild();
        Map<String, Long> after = rowids();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            if (typedChanged.contains(id)) {
                assertThat(after.get(id)).as(id).isNotEqualTo(before.get(id));
            } else {
                assertThat(after.get(id)).as(id).isEqualTo(before.get(id));
            }
        }
        for (int i = 0; i < ids.size(); i++) {
            change(ids.get(i), "round", 2L, "views", i % 5 == 0 ? (Object) "text" : (Object) (long) i);
        }
        List<String> listed = new ArrayList<>(ids);
        listed.add(dev.storh.id.UuidV7.generate());
        assertThat(mirror.flush("pages", listed)).isEqualTo(new FlushResult(1_234, 1));
        assertLikeARebuild();
    }

    @Test
    void aRedundantFlushWritesNoPage() throws Exception {
        String a = put("slug", "a", "views", 1L);
        String b = put("slug", "b", "text", "ü");
        mirror.push();
        byte[] before = Files.readAllBytes(root.resolve("m.db"));
        assertThat(mirror.flush("pages", List.of(a, b))).isEqualTo(new FlushResult(2, 0));
        assertThat(Files.readAllBytes(root.resolve("m.db"))).isEqualTo(before);
        change(a, "text", "changed");
        mirror.flush("pages", List.of(a, b));
        assertThat(Files.readAllBytes(root.resolve("m.db"))).isNotEqualTo(before);
        assertLikeARebuild();
    }

    @Test
    void aFailingFlushRollsTheInPlaceRewritesBackToo() throws SQLException {
        String a = put("slug", "a");
        String b = put("slug", "b");
        String c = put("slug", "c");
        mirror.push();
        List<List<Object>> before = rows("m_pages");
        change(a, "text", "in place");
        change(b, "slug", "c"); // clashes with c's row, which this flush does not rewrite
        assertThatThrownBy(() -> mirror.flush("pages", List.of(a, b)))
                .isInstanceOf(StorageException.class).hasMessageContaining("UNIQUE constraint failed");
        assertThat(rows("m_pages")).isEqualTo(before);
        assertThat(conn.getAutoCommit()).isTrue();
        change(c, "slug", "c2");
        assertThat(mirror.flush("pages", List.of(a, b, c))).isEqualTo(new FlushResult(3, 0));
        assertLikeARebuild();
    }

    @Test
    void aMirrorConnectionOfItsOwnWritesDeleteThenInsert() throws SQLException {
        String a = put("slug", "a");
        put("slug", "last"); // keeps the highest rowid: a row inserted again gets a new one
        mirror.push();
        Map<String, Long> before = rowids();
        change(a, "text", "x");
        SqlMirror own = SqlMirror.builder().mirrorConnection(new Delegating(MirrorConnection.jdbc(conn))).prefix("m_").build()
                .collection(pages, "pages", SCHEMA);
        assertThat(own.flush("pages", List.of(a))).isEqualTo(new FlushResult(1, 0));
        assertThat(rowids().get(a)).isNotEqualTo(before.get(a));
        assertLikeARebuild();
    }

    @Test
    void onlyALongFlushWidensThePageCache() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.execute("PRAGMA cache_size=-2000");
        }
        List<Long> seen = new ArrayList<>();
        MirrorSource watching = new MirrorSource() {
            @Override
            public StorageRecord put(Map<String, ?> data, String id) {
                return pages.put(data, id);
            }

            @Override
            public Optional<StorageRecord> get(String id) {
                try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("PRAGMA cache_size")) {
                    rs.next();
                    seen.add(rs.getLong(1));
                } catch (SQLException e) {
                    throw new AssertionError(e);
                }
                return pages.get(id);
            }

            @Override
            public boolean delete(String id) {
                return pages.delete(id);
            }

            @Override
            public Stream<StorageRecord> stream() {
                return pages.stream();
            }
        };
        SqlMirror watched = SqlMirror.builder().connection(conn).prefix("w_").build().collection(watching, "pages", SCHEMA);
        watched.install();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < Reconciler.BATCH + 1; i++) {
            ids.add(put("slug", "s" + i));
        }
        assertThat(watched.flush("pages", ids.subList(0, Reconciler.BATCH))).isEqualTo(new FlushResult(Reconciler.BATCH, 0));
        assertThat(seen).containsOnly(-2000L);
        seen.clear();
        assertThat(watched.flush("pages", ids)).isEqualTo(new FlushResult(Reconciler.BATCH + 1, 0));
        assertThat(seen).containsOnly(-SqlitePageCache.KIB);
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("PRAGMA cache_size")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(-2000L);
        }
    }

    /** A mirror connection of the caller's own making, forwarding to a JDBC one. */
    private record Delegating(MirrorConnection inner) implements MirrorConnection {
        @Override
        public Dialect dialect() {
            return inner.dialect();
        }

        @Override
        public void execute(String sql) {
            inner.execute(sql);
        }

        @Override
        public void rows(String sql, java.util.function.Consumer<List<Object>> row) {
            inner.rows(sql, row);
        }

        @Override
        public MirrorStatement prepare(String sql) {
            MirrorStatement s = inner.prepare(sql);
            return new MirrorStatement() {
                @Override
                public void execute(List<Object> params) {
                    s.execute(params);
                }

                @Override
                public void close() {
                    s.close();
                }
            };
        }

        @Override
        public void begin() {
            inner.begin();
        }

        @Override
        public void commit() {
            inner.commit();
        }

        @Override
        public void rollback() {
            inner.rollback();
        }

        @Override
        public boolean inTransaction() {
            return inner.inTransaction();
        }
    }
}
