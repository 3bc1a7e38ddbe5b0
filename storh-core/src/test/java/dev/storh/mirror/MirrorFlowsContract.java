package dev.storh.mirror;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.id.UuidV7;
import dev.storh.json.Jsonc;
import dev.storh.log.SegmentedLog;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.schema.Schema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mirror's behaviour against one real database: each subclass supplies JDBC connections to
 * SQLite, MariaDB or PostgreSQL. Test names carry the numbers of the statements in the mirror's
 * behaviour list (docs/mirror.md, "Tested behaviour"). Tables get a prefix unique to the test run
 * and are dropped afterwards.
 */
abstract class MirrorFlowsContract {

    @TempDir
    Path root;

    Connection conn;
    private final List<SqlMirror> mirrors = new ArrayList<>();
    private final List<AutoCloseable> stores = new ArrayList<>();
    private final String run = "t" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 24, 36) + "_";

    /** @return a new connection to the database under test */
    abstract Connection connect() throws SQLException;

    @BeforeEach
    void openConnection() throws SQLException {
        conn = connect();
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (!conn.getAutoCommit()) {
            conn.rollback();
            conn.setAutoCommit(true);
        }
        for (SqlMirror m : mirrors) {
            m.uninstall();
        }
        conn.close();
        for (AutoCloseable s : stores) {
            s.close();
        }
    }

    Dialect dialect() {
        return MirrorConnection.jdbc(conn).dialect();
    }

    /** @return a mirror over the test connection whose prefix is unique to this run */
    SqlMirror mirror(String prefix) {
        SqlMirror m = SqlMirror.builder().connection(conn).prefix(run + prefix).build();
        mirrors.add(m);
        return m;
    }

    SqlMirror mirror(MirrorConnection c, String prefix) {
        SqlMirror m = SqlMirror.builder().mirrorConnection(c).prefix(run + prefix).build();
        mirrors.add(m);
        return m;
    }

    DocStore store(String name) {
        return store(name, null);
    }

    DocStore store(String name, Schema schema) {
        DocStoreOptions.Builder b = DocStoreOptions.builder();
        if (schema != null) {
            b.schema(schema);
        }
        DocStore s = DocStore.open(root, name, b.build());
        stores.add(s);
        return s;
    }

    SegmentedLog log(String name) {
        SegmentedLog l = SegmentedLog.open(root, name, SegmentedLogOptions.builder().maxSegmentBytes(2048).build());
        stores.add(l);
        return l;
    }

    String q(String identifier) {
        return dialect().quote(identifier);
    }

    List<List<Object>> query(String sql, Object... params) throws SQLException {
        return query(conn, sql, params);
    }

    /** @return every row of the query, each as its column values in order */
    static List<List<Object>> query(Connection conn, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<List<Object>> rows = new ArrayList<>();
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        row.add(rs.getObject(i));
                    }
                    rows.add(row);
                }
                return rows;
            }
        }
    }

    void update(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }

    /** Inserts a row by hand; the data text goes through a JSONB cast on PostgreSQL. */
    void insertRow(String table, Object id, String hash, String data) throws SQLException {
        String mark = dialect() == Dialect.POSTGRESQL ? "CAST(? AS JSONB)" : "?";
        update("INSERT INTO " + q(table) + " (" + q("id") + ", " + q("hash") + ", " + q("data") + ") VALUES (?, ?, " + mark + ")",
                id, hash, data);
    }

    long count(String table) throws SQLException {
        return ((Number) query("SELECT COUNT(*) FROM " + q(table)).get(0).get(0)).longValue();
    }

    Map<String, String> pairs(String table) throws SQLException {
        Map<String, String> m = new HashMap<>();
        for (List<Object> row : query("SELECT " + q("id") + ", " + q("hash") + " FROM " + q(table))) {
            m.put((String) row.get(0), (String) row.get(1));
        }
        return m;
    }

    boolean tableExists(String table) throws SQLException {
        DatabaseMetaData meta = conn.getMetaData();
        try (ResultSet rs = meta.getTables(null, null, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                if (rs.getString("TABLE_NAME").equalsIgnoreCase(table)) {
                    return true;
                }
            }
        }
        return false;
    }

    static long n(Object value) {
        return ((Number) value).longValue();
    }

    // --- install, push, typed columns -------------------------------------------------------

    @Test
    void s01to06_installPushAndSqlJoins() throws SQLException {
        Schema productSchema = Schema.collection("products").string("slug").unique().string("name").index()
                .number("price").range().bool("active").required("slug", "name");
        Schema purchaseSchema = Schema.collection("purchases").string("product_id").index()
                .integer("amount").range().string("reference").unique();
        DocStore products = store("products");
        DocStore purchases = store("purchases");
        SqlMirror mirror = mirror("app_").collection(products, "products", productSchema)
                .collection(purchases, "purchases", purchaseSchema);
        mirror.install();
        mirror.install(); // 1
        String plugin = products.put(map("slug", "my-plugin", "name", "My Plugin ünïcøde", "price", 49.5,
                "active", true, "tags", List.of("wp", "storh"))).id();
        String theme = products.put(map("slug", "my-theme", "name", "My Theme", "price", 19.0, "active", false)).id();
        long[] pluginAmounts = {1000, 1001, 1005, 1006};
        for (int i = 0; i < pluginAmounts.length; i++) {
            purchases.put(map("product_id", plugin, "amount", pluginAmounts[i], "reference", "p" + i));
        }
        purchases.put(map("product_id", theme, "amount", 1000L, "reference", "t0"));
        purchases.put(map("product_id", theme, "amount", 1003L, "reference", "t1"));

        assertThat(mirror.push()).isEqualTo(new PushResult(8, 0, 0, 0)); // 2
        assertThat(mirror.table("products")).isEqualTo(run + "app_products"); // 3

        String p = q(mirror.table("products"));
        String s = q(mirror.table("purchases"));
        List<List<Object>> report = query("SELECT p." + q("slug") + ", COUNT(*), SUM(s." + q("amount") + ") FROM " + s
                + " s JOIN " + p + " p ON p." + q("id") + " = s." + q("product_id") + " GROUP BY p." + q("slug")
                + " ORDER BY p." + q("slug"));
        assertThat(report).hasSize(2); // 4
        assertThat(report.get(0).get(0)).isEqualTo("my-plugin");
        assertThat(n(report.get(0).get(1))).isEqualTo(4);
        assertThat(n(report.get(0).get(2))).isEqualTo(4012);
        assertThat(report.get(1).get(0)).isEqualTo("my-theme");
        assertThat(n(report.get(1).get(1))).isEqualTo(2);
        assertThat(n(report.get(1).get(2))).isEqualTo(2003);

        List<Object> row = query("SELECT " + q("name") + ", " + q("price") + ", " + q("active") + ", " + q("data")
                + " FROM " + p + " WHERE " + q("id") + " = ?", plugin).get(0); // 5
        assertThat(row.get(0)).isEqualTo("My Plugin ünïcøde");
        assertThat(((Number) row.get(1)).doubleValue()).isEqualTo(49.5);
        assertThat(row.get(2)).isIn(1, 1L, true); // MariaDB's driver reads TINYINT(1) as a boolean
        assertThat(Jsonc.decodeStrict(row.get(3).toString())).isEqualTo(products.get(plugin).orElseThrow().data());
        assertThat(((Map<?, ?>) Jsonc.decodeStrict(row.get(3).toString())).get("tags")).isEqualTo(List.of("wp", "storh"));

        MirrorVerifyReport verify = mirror.verify(); // 6
        assertThat(verify.ok()).isTrue();
        assertThat(verify.stats().get("products").records()).isEqualTo(2);
        assertThat(verify.stats().get("purchases").rows()).isEqualTo(6);
    }

    @Test
    void s06_typedColumnsHoldOnlyValuesOfTheirType() throws SQLException {
        Schema schema = Schema.collection("pages").string("slug").unique().integer("views").range()
                .number("score").index().bool("live").index();
        DocStore pages = store("pages");
        SqlMirror mirror = mirror("").collection(pages, "pages", schema);
        mirror.install();
        String a = pages.put(map("slug", "a", "views", 1L, "score", 2L, "live", true, "tags", List.of("x", "y"))).id();
        String b = pages.put(map("slug", "b", "views", "7", "score", 0.30000000000000004, "live", 1L)).id();
        String c = pages.put(map("slug", 7L, "views", 2.0, "score", 1.0e100)).id();
        String d = pages.put(map("slug", "d", "views", 1234567890123L, "score", 1234567.123456789, "live", false)).id();
        mirror.push();
        String sql = "SELECT " + q("slug") + ", " + q("views") + ", " + q("score") + ", " + q("live") + ", " + q("hash")
                + " FROM " + q(mirror.table("pages")) + " WHERE " + q("id") + " = ?";
        List<Object> ra = query(sql, a).get(0);
        assertThat(ra.get(0)).isEqualTo("a");
        assertThat(n(ra.get(1))).isEqualTo(1);
        assertThat(ra.get(2)).isEqualTo(2.0);
        assertThat(ra.get(3)).isIn(1, 1L, true);
        assertThat(ra.get(4)).isEqualTo("85efd699e7bd373ccba74c9fb4e193a3");
        List<Object> rb = query(sql, b).get(0);
        assertThat(rb.get(1)).isNull();
        assertThat(rb.get(2)).isEqualTo(0.30000000000000004); // bound as a double, not rounded text
        assertThat(rb.get(3)).isNull();
        assertThat(rb.get(4)).isEqualTo("2c6673f1acd62ae25dde2487af04979d");
        List<Object> rc = query(sql, c).get(0);
        assertThat(rc.get(0)).isNull();
        assertThat(rc.get(1)).isNull();
        assertThat(rc.get(2)).isEqualTo(1.0e100);
        assertThat(rc.get(4)).isEqualTo("70ea9e8f8afba15714cfb9672fcd84e4");
        List<Object> rd = query(sql, d).get(0);
        assertThat(n(rd.get(1))).isEqualTo(1234567890123L);
        assertThat(rd.get(2)).isEqualTo(1234567.123456789);
        assertThat(rd.get(3)).isIn(0, 0L, false);
    }

    /**
     * Enough rows that inserts go out in multi-row statements, full JDBC batches and a remainder:
     * every row must hold its own record's values, as a row-at-a-time push would write them.
     */
    @Test
    void manyRowsPushRebuildAndFlushWriteEachRowsOwnValues() throws SQLException {
        Schema schema = Schema.collection("pages").string("slug").unique().integer("views").range()
                .number("score").index().bool("live").index();
        DocStore pages = store("pages");
        SqlMirror mirror = mirror("").collection(pages, "pages", schema);
        mirror.install();
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 0; i < 731; i++) {
            items.add(map("data", map("slug", "s-" + i, "views", (long) i * 3, "score", i + 0.25, "live", i % 3 == 0,
                    "text", "ü\"" + i)));
        }
        pages.putStream(items);
        String sql = "SELECT " + q("id") + ", " + q("hash") + ", " + q("slug") + ", " + q("views") + ", " + q("score") + ", "
                + q("live") + ", " + q("data") + " FROM " + q(mirror.table("pages"));
        Consumer<String> check = step -> {
            Map<String, StorageRecord> records = new HashMap<>();
            try (Stream<StorageRecord> st = pages.stream()) {
                st.forEach(r -> records.put(r.id(), r));
            }
            List<List<Object>> rows;
            try {
                rows = query(sql);
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
            assertThat(rows).as(step).hasSize(records.size());
            for (List<Object> row : rows) {
                StorageRecord r = records.get((String) row.get(0));
                assertThat(r).as("%s: row %s", step, row.get(0)).isNotNull();
                Map<String, Object> d = r.data();
                assertThat(row.get(1)).as(step).isEqualTo(RowCodec.hash(RowCodec.dataText(d)));
                assertThat(row.get(2)).as(step).isEqualTo(d.get("slug"));
                assertThat(n(row.get(3))).as(step).isEqualTo((Long) d.get("views"));
                assertThat(((Number) row.get(4)).doubleValue()).as(step).isEqualTo((Double) d.get("score"));
                Object live = row.get(5) instanceof Boolean b ? b : n(row.get(5)) != 0;
                assertThat(live).as(step).isEqualTo(d.get("live"));
                assertThat(Jsonc.decodeStrict(row.get(6).toString())).as(step).isEqualTo(d);
            }
        };
        assertThat(mirror.push()).isEqualTo(new PushResult(731, 0, 0, 0));
        check.accept("push");
        assertThat(mirror.rebuild()).isEqualTo(new PushResult(731, 0, 0, 0));
        check.accept("rebuild");
        List<String> ids = new ArrayList<>();
        try (Stream<StorageRecord> st = pages.stream()) {
            st.limit(250).forEach(r -> ids.add(r.id()));
        }
        for (String id : ids) {
            Map<String, Object> d = new LinkedHashMap<>(pages.get(id).orElseThrow().data());
            d.put("views", (Long) d.get("views") + 1);
            pages.put(d, id);
        }
        assertThat(mirror.flush("pages", ids)).isEqualTo(new FlushResult(250, 0));
        check.accept("flush");
        assertThat(mirror.push()).isEqualTo(new PushResult(0, 0, 0, 731));
    }

    // --- incremental push ------------------------------------------------------------------

    @Test
    void s07to09_incrementalPush() throws SQLException {
        DocStore pages = store("pages");
        SqlMirror mirror = mirror("storh_").collection(pages, "pages");
        mirror.install();
        String first = pages.put(map("slug", "first")).id();
        String second = pages.put(map("slug", "second")).id();
        assertThat(mirror.push()).isEqualTo(new PushResult(2, 0, 0, 0));
        pages.put(map("slug", "first", "edited", true), first);
        pages.delete(second);
        String third = pages.put(map("slug", "third")).id();
        assertThat(mirror.push()).isEqualTo(new PushResult(1, 1, 1, 0)); // 7
        assertThat(mirror.push()).isEqualTo(new PushResult(0, 0, 0, 2)); // 8
        List<List<Object>> rows = query("SELECT " + q("id") + ", " + q("data") + " FROM " + q(mirror.table("pages"))
                + " ORDER BY " + q("id")); // 9
        assertThat(rows).extracting(r -> r.get(0)).containsExactly(first, third);
        assertThat(Jsonc.decodeStrict(rows.get(0).get(1).toString())).isEqualTo(map("slug", "first", "edited", true));
    }

    // --- flush ----------------------------------------------------------------------------------

    @Test
    void s10to12_flushPushesOnlyListedIds() throws SQLException {
        DocStore pages = store("pages");
        SqlMirror mirror = mirror("").collection(pages, "pages");
        mirror.install();
        String kept = pages.put(map("slug", "kept")).id();
        String removed = pages.put(map("slug", "removed")).id();
        String never = pages.put(map("slug", "never")).id();
        assertThat(mirror.flush("pages", List.of(removed))).isEqualTo(new FlushResult(1, 0)); // 10
        assertThat(pairs(mirror.table("pages")).keySet()).containsExactly(removed);
        pages.delete(removed);
        assertThat(mirror.flush("pages", List.of(kept, kept, removed))).isEqualTo(new FlushResult(1, 1)); // 11
        assertThat(pairs(mirror.table("pages")).keySet()).containsExactly(kept); // 12
        assertThat(pages.get(never)).isPresent();
        assertThat(mirror.flush("pages", List.of())).isEqualTo(new FlushResult(0, 0));
        assertThatThrownBy(() -> mirror.flush("pages", List.of("nope")))
                .isInstanceOf(StorageException.class).hasMessageContaining("Invalid UUIDv7 value.");
        assertThat(pairs(mirror.table("pages")).keySet()).containsExactly(kept);
        assertThat(mirror.flush("pages", List.of(UuidV7.generate()))).isEqualTo(new FlushResult(0, 1));
        // one record listed in both letter cases is one row (two INSERTs of it would clash on the key)
        assertThat(mirror.flush("pages", List.of(kept, kept.toUpperCase(java.util.Locale.ROOT)))).isEqualTo(new FlushResult(1, 0));
        assertThat(pairs(mirror.table("pages")).keySet()).containsExactly(kept);
    }

    // --- verify and rebuild ----------------------------------------------------------------

    @Test
    void s13to15_verifyReportsDriftAndRebuildHealsIt() throws SQLException {
        DocStore pages = store("pages");
        SqlMirror mirror = mirror("").collection(pages, "pages");
        mirror.install();
        String a = pages.put(map("slug", "a")).id();
        String b = pages.put(map("slug", "b")).id();
        mirror.push();
        String table = mirror.table("pages");
        update("UPDATE " + q(table) + " SET " + q("hash") + " = ? WHERE " + q("id") + " = ?", "0".repeat(32), a);
        insertRow(table, UuidV7.generate(), "f".repeat(32), "{\"slug\":\"ghost\"}");
        update("DELETE FROM " + q(table) + " WHERE " + q("id") + " = ?", b);
        MirrorVerifyReport drift = mirror.verify(); // 13
        assertThat(drift.ok()).isFalse();
        assertThat(drift.stats().get("pages")).isEqualTo(new MirrorVerifyReport.CollectionStats(2, 2, 1, 1, 1));
        assertThat(drift.errors()).containsExactly("pages: 1 record(s) missing from the mirror.",
                "pages: 1 stale mirror row(s).", "pages: 1 orphaned mirror row(s).");
        assertThat(mirror.rebuild()).isEqualTo(new PushResult(2, 0, 0, 0)); // 14
        assertThat(mirror.verify().ok()).isTrue();
        assertThat(tableExists(table)).isTrue();
        mirror.uninstall(); // 15
        assertThat(tableExists(table)).isFalse();
        mirror.uninstall();
    }

    @Test
    void rebuildThatFailsLeavesTheTableAsItWas() throws SQLException {
        DocStore pages = store("pages");
        SqlMirror mirror = mirror("").collection(pages, "pages", Schema.collection("pages").string("slug").unique());
        mirror.install();
        pages.put(map("slug", "one"));
        pages.put(map("slug", "two"));
        mirror.push();
        Map<String, String> before = pairs(mirror.table("pages"));
        pages.put(map("slug", "two"));
        assertThatThrownBy(mirror::rebuild).hasMessageContaining("SQL mirror statement failed");
        assertThat(pairs(mirror.table("pages"))).isEqualTo(before);
    }

    // --- segmented log ---------------------------------------------------------------------

    @Test
    void s16to18_segmentedLogCollectionsMirrorLiveRecords() throws SQLException {
        SegmentedLog events = log("events");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ids.add(events.put(map("sequence", (long) i, "pad", "x".repeat(200))).id());
        }
        events.delete(ids.get(1));
        events.delete(ids.get(3));
        events.compact();
        SqlMirror mirror = mirror("").collection(events, "events", Schema.collection("events").integer("sequence").index());
        mirror.install();
        assertThat(mirror.push().inserted()).isEqualTo(8); // 16
        String table = q(mirror.table("events"));
        assertThat(n(query("SELECT COUNT(*) FROM " + table + " WHERE " + q("sequence") + " >= 5").get(0).get(0))).isEqualTo(5); // 17
        events.put(map("sequence", 100L), ids.get(9));
        assertThat(mirror.flush("events", List.of(ids.get(9)))).isEqualTo(new FlushResult(1, 0)); // 18
        assertThat(mirror.verify().ok()).isTrue();
    }

    // --- unique backstop -------------------------------------------------------------------

    @Test
    void s19to20_mirrorUniqueIndexIsABackstop() throws SQLException {
        DocStore dup = store("dup");
        dup.put(map("slug", "dup"));
        dup.put(map("slug", "dup"));
        SqlMirror mirror = mirror("").collection(dup, "dup", Schema.collection("dup").string("slug").unique());
        mirror.install();
        assertThatThrownBy(mirror::push).isInstanceOf(StorageException.class).hasMessageContaining("SQL mirror statement failed"); // 19
        assertThat(count(mirror.table("dup"))).isZero(); // 20
        assertThat(conn.getAutoCommit()).isTrue();
    }

    // --- pull ------------------------------------------------------------------------------

    @Test
    void s30to32_pullRestoresFiles() throws SQLException {
        DocStore pages = store("pages");
        SqlMirror mirror = mirror("").collection(pages, "pages");
        mirror.install();
        List<StorageRecord> originals = List.of(
                pages.put(map("slug", "plain", "n", 1L, "f", 1.5)),
                pages.put(map("slug", "nested", "body", map("blocks", List.of(map("t", "p"), map("t", "img"))), "nothing", null)),
                pages.put(map("0", "a", "1", "b")));
        mirror.push();
        DocStore restored = DocStore.open(root.resolve("restored"), "pages");
        stores.add(restored);
        SqlMirror back = mirror("").collection(restored, "pages");
        assertThat(back.pull()).isEqualTo(new PullResult(3, 0)); // 30
        assertThat(back.pull("pages")).isEqualTo(new PullResult(0, 3)); // 31
        for (StorageRecord r : originals) { // 32
            assertThat(restored.get(r.id()).orElseThrow().data()).isEqualTo(r.data());
        }
        if (dialect() == Dialect.POSTGRESQL) {
            // JSONB keeps members sorted by key length, so restored records may differ in member order
            // only; their rows get the new hash on the next push.
            back.push();
        }
        assertThat(back.verify().ok()).isTrue();
        String listRow = (String) query("SELECT " + q("data") + " FROM " + q(mirror.table("pages")) + " WHERE "
                + q("id") + " = ?", originals.get(2).id()).get(0).get(0).toString();
        assertThat(listRow.replace(" ", "")).isEqualTo("[\"a\",\"b\"]");
    }

    @Test
    void s33to34_pullSeedsHandInsertedRows() throws SQLException {
        DocStore pages = store("pages");
        SqlMirror mirror = mirror("").collection(pages, "pages");
        mirror.install();
        String id = UuidV7.generate();
        insertRow(mirror.table("pages"), id, "hand", "{ \"slug\" : \"seeded\", \"n\": 1.0 }");
        assertThat(mirror.pull()).isEqualTo(new PullResult(1, 0)); // 33
        Map<String, Object> data = pages.get(id).orElseThrow().data();
        assertThat(data.get("slug")).isEqualTo("seeded");
        assertThat(data.get("n")).isEqualTo(1.0);
        assertThat(mirror.push().updated()).isEqualTo(1); // 34
        assertThat(mirror.verify().ok()).isTrue();
        assertThat(mirror.pull()).isEqualTo(new PullResult(0, 1));
    }

    @Test
    void s35to38_s40_pullRejectsBadRows() throws SQLException {
        DocStore pages = store("pages", Schema.collection("pages").string("slug").unique());
        SqlMirror mirror = mirror("").collection(pages, "pages");
        mirror.install();
        String table = mirror.table("pages");
        String clear = "DELETE FROM " + q(table);

        insertRow(table, "not-a-uuid", "h", "{}");
        assertThatThrownBy(mirror::pull).hasMessageContaining("requires UUIDv7 row ids"); // 35
        update(clear);

        if (dialect() != Dialect.POSTGRESQL) { // JSONB refuses invalid JSON on insert
            insertRow(table, UuidV7.generate(), "h", "nope");
            assertThatThrownBy(mirror::pull).hasMessageContaining("invalid JSON").hasMessageContaining(table); // 36
            update(clear);
        }

        String id = UuidV7.generate();
        insertRow(table, id, "h", "\"text\"");
        assertThatThrownBy(mirror::pull).hasMessageContaining("non-array data row for id " + id); // 37
        update(clear);

        insertRow(table, dialect() == Dialect.SQLITE ? (Object) 42 : "42", "h", "{}");
        assertThatThrownBy(mirror::pull).hasMessageContaining("requires UUIDv7 row ids, got: 42"); // 38
        update(clear);

        pages.put(map("slug", "taken"));
        String first = UuidV7.generate();
        insertRow(table, first, "h", "{\"slug\":\"fresh\"}");
        insertRow(table, UuidV7.generate(), "h", "{\"slug\":\"taken\"}");
        assertThatThrownBy(mirror::pull).hasMessageContaining("Unique index violation"); // 40
        assertThat(pages.get(first)).isPresent(); // rows before the failing one stay written
        assertThatThrownBy(() -> mirror.pull("unknown")).hasMessageContaining("Unknown SQL mirror collection"); // 41
    }

    @Test
    void s42_pullRestoresSegmentedLogRecordsInIdOrder() {
        SegmentedLog events = log("events");
        long base = 1_700_000_000_000L;
        List<String> ids = new ArrayList<>();
        for (int i = 7; i >= 0; i--) { // written newest first, so the log's order is not id order
            ids.add(events.put(map("sequence", (long) i), UuidV7.generate(base + i * 1000L)).id());
        }
        SqlMirror mirror = mirror("").collection(events, "events", null);
        mirror.install();
        mirror.push();
        SegmentedLog fresh = SegmentedLog.open(root.resolve("fresh"), "events");
        stores.add(fresh);
        SqlMirror back = mirror("").collection(fresh, "events", null);
        assertThat(back.pull().written()).isEqualTo(8);
        try (Stream<StorageRecord> s = fresh.stream()) {
            assertThat(s.map(r -> r.data().get("sequence"))).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
        }
    }

    // --- scoping ---------------------------------------------------------------------------

    @Test
    void s43to45_pushAndRebuildScopeToASingleCollection() throws SQLException {
        DocStore pages = store("pages");
        DocStore drafts = store("drafts");
        SqlMirror mirror = mirror("").collection(pages, "pages").collection(drafts, "drafts");
        mirror.install();
        pages.put(map("slug", "p"));
        drafts.put(map("slug", "d"));
        assertThat(mirror.push("pages")).isEqualTo(new PushResult(1, 0, 0, 0)); // 43
        assertThat(count(mirror.table("drafts"))).isZero();
        assertThat(mirror.rebuild("drafts")).isEqualTo(new PushResult(1, 0, 0, 0)); // 44
        assertThatThrownBy(() -> mirror.push("unknown")).hasMessageContaining("Unknown SQL mirror collection"); // 45
        assertThatThrownBy(() -> mirror.rebuild("unknown")).hasMessageContaining("Unknown SQL mirror collection");
        assertThatThrownBy(() -> mirror.flush("unknown", List.of())).hasMessageContaining("Unknown SQL mirror collection");
        assertThat(SqlMirror.over(conn).push()).isEqualTo(PushResult.ZERO);
    }

    // --- SQL failures ----------------------------------------------------------------------

    @Test
    void s49to50_sqlFailuresSurfaceAsStorageExceptions() throws SQLException {
        DocStore pages = store("pages");
        pages.put(map("slug", "a"));
        SqlMirror mirror = mirror("").collection(pages, "pages");
        assertThatThrownBy(mirror::rebuild).isInstanceOf(StorageException.class).hasMessageContaining("SQL mirror statement failed"); // 49
        assertThatThrownBy(mirror::push).isInstanceOf(StorageException.class).hasMessageContaining("SQL mirror statement failed");
        assertThatThrownBy(() -> mirror.flush("pages", List.of())).hasMessageContaining("SQL mirror statement failed");
        assertThatThrownBy(mirror::verify).hasMessageContaining("SQL mirror statement failed");
        mirror.install();
        conn.setAutoCommit(false); // the caller's own transaction
        update("INSERT INTO " + q(mirror.table("pages")) + " (" + q("id") + ", " + q("hash") + ", " + q("data") + ") VALUES (?, ?, "
                + (dialect() == Dialect.POSTGRESQL ? "CAST(? AS JSONB)" : "?") + ")", UuidV7.generate(), "h", "{}");
        assertThatThrownBy(() -> mirror.flush("pages", List.of())).hasMessageContaining("SQL mirror transaction failed"); // 50
        conn.rollback();
        conn.setAutoCommit(true);
        assertThat(count(mirror.table("pages"))).isZero();
    }

    // --- atomicity -------------------------------------------------------------------------

    @Test
    void s51to53_failedPushLeavesTheMirrorExactlyAsItWas() throws SQLException {
        DocStore pages = store("pages");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(pages.put(map("slug", "s" + i)).id());
        }
        SqlMirror plain = mirror("").collection(pages, "pages");
        plain.install();
        FailingConnection failing = new FailingConnection(MirrorConnection.jdbc(conn), 3);
        SqlMirror broken = mirror(failing, "").collection(pages, "pages");
        assertThatThrownBy(broken::push).hasMessageContaining("injected failure"); // 51
        assertThat(count(plain.table("pages"))).isZero();
        assertThat(conn.getAutoCommit()).isTrue();

        plain.push();
        Map<String, String> before = pairs(plain.table("pages"));
        pages.put(map("slug", "s0", "v", 2L), ids.get(0));
        pages.put(map("slug", "s1", "v", 2L), ids.get(1));
        // the second update's INSERT: deletes go first (DELETE a, DELETE b, INSERT a, INSERT b);
        // PostgreSQL writes each update as one upsert
        FailingConnection second = new FailingConnection(MirrorConnection.jdbc(conn), dialect().upserts() ? 2 : 4);
        SqlMirror broken2 = mirror(second, "").collection(pages, "pages");
        assertThatThrownBy(broken2::push).hasMessageContaining("injected failure"); // 52
        assertThat(second.executions.get()).isEqualTo(second.failAt);
        assertThat(pairs(plain.table("pages"))).isEqualTo(before);
        assertThat(plain.push().updated()).isEqualTo(2); // 53
        assertThat(plain.verify().ok()).isTrue();
    }

    // --- randomised round trip -------------------------------------------------------------

    @Test
    void s54to55_randomizedMutationsAlwaysReconcile() {
        for (long seed : MirrorSeeds.seeds()) {
            randomRun(seed);
        }
    }

    private void randomRun(long seed) {
        Random random = new Random(seed);
        String suffix = Long.toString(seed & 0xffff, 36);
        DocStore pages = DocStore.open(root.resolve("r" + suffix), "pages");
        stores.add(pages);
        SqlMirror mirror = mirror("r" + suffix + "_").collection(pages, "pages");
        mirror.install();
        Object[] values = {"plain", "ünïcødé", "emoji 🚀✅", "line\nbreak\ttab", "quote \" and \\ backslash", 42L, -7L,
            1.5, 0.1, true, false, null, map("nested", List.of(1L, "two", map("deep", true))), List.of("x", 2L), List.of()};
        Map<String, Map<String, Object>> live = new LinkedHashMap<>();
        for (int round = 0; round < 6; round++) {
            for (int i = 0; i < 15; i++) {
                int op = live.isEmpty() ? 0 : random.nextInt(3);
                if (op == 2) {
                    String id = new ArrayList<>(live.keySet()).get(random.nextInt(live.size()));
                    pages.delete(id);
                    live.remove(id);
                    continue;
                }
                Map<String, Object> data = new LinkedHashMap<>();
                int fields = 1 + random.nextInt(4);
                for (int f = 0; f < fields; f++) {
                    data.put("k" + random.nextInt(6), values[random.nextInt(values.length)]);
                }
                String id = op == 1 ? new ArrayList<>(live.keySet()).get(random.nextInt(live.size())) : null;
                StorageRecord r = pages.put(data, id);
                live.put(r.id(), new LinkedHashMap<>(r.data()));
            }
            mirror.push();
            MirrorVerifyReport v = mirror.verify(); // 54
            assertThat(v.ok()).as("seed %d round %d: %s", seed, round, v.errors()).isTrue();
            assertThat(v.stats().get("pages").rows()).as("seed %d", seed).isEqualTo(live.size());
        }
        DocStore fresh = DocStore.open(root.resolve("f" + suffix), "pages");
        stores.add(fresh);
        SqlMirror back = mirror("r" + suffix + "_").collection(fresh, "pages");
        assertThat(back.pull().written()).as("seed %d", seed).isEqualTo(live.size()); // 55
        live.forEach((id, data) -> assertThat(fresh.get(id).orElseThrow().data()).as("seed %d id %s", seed, id).isEqualTo(data));
        try (Stream<StorageRecord> s = fresh.stream()) {
            assertThat(s.count()).isEqualTo(live.size());
        }
    }

    // --- concurrency -----------------------------------------------------------------------

    @Test
    void concurrentWritersFlushersAndPushersConverge() throws Exception {
        DocStore pages = store("pages");
        SqlMirror mirror = mirror("").collection(pages, "pages", Schema.collection("pages").integer("n").index());
        mirror.install();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            int worker = t;
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < 15; i++) {
                        String id = pages.put(map("n", (long) (worker * 100 + i))).id();
                        if (i % 3 == 0) {
                            mirror.flush("pages", List.of(id));
                        } else if (i % 5 == 0) {
                            mirror.push();
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertThat(failures).isEmpty();
        mirror.push();
        assertThat(mirror.verify().ok()).isTrue();
        assertThat(count(mirror.table("pages"))).isEqualTo(60);
    }

    // --- helpers ---------------------------------------------------------------------------

    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** Delegates to a real connection and fails the n-th statement execution. */
    static final class FailingConnection implements MirrorConnection {
        final MirrorConnection delegate;
        final int failAt;
        final AtomicInteger executions = new AtomicInteger();

        FailingConnection(MirrorConnection delegate, int failAt) {
            this.delegate = delegate;
            this.failAt = failAt;
        }

        @Override
        public Dialect dialect() {
            return delegate.dialect();
        }

        @Override
        public void execute(String sql) {
            delegate.execute(sql);
        }

        @Override
        public void rows(String sql, Consumer<List<Object>> row) {
            delegate.rows(sql, row);
        }

        @Override
        public MirrorStatement prepare(String sql) {
            MirrorStatement real = delegate.prepare(sql);
            return new MirrorStatement() {
                @Override
                public void execute(List<Object> params) {
                    if (executions.incrementAndGet() == failAt) {
                        throw new StorageException("injected failure at execution " + failAt);
                    }
                    real.execute(params);
                }

                @Override
                public void close() {
                    real.close();
                }
            };
        }

        @Override
        public void begin() {
            delegate.begin();
        }

        @Override
        public void commit() {
            delegate.commit();
        }

        @Override
        public void rollback() {
            delegate.rollback();
        }

        @Override
        public boolean inTransaction() {
            return delegate.inTransaction();
        }
    }

    static String joined(List<?> list) {
        return list.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
