package dev.storh.mirror;

import static dev.storh.mirror.MirrorFlowsContract.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.progress.Progress;
import dev.storh.schema.Schema;
import dev.storh.store.RecordStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** Registration, configuration, dialect SQL text and connection variants (SQLite and SQL text only). */
class SqlMirrorRegistrationTest {

    @TempDir
    Path root;

    Connection conn;
    DocStore pages;

    @BeforeEach
    void open() throws SQLException {
        conn = DriverManager.getConnection("jdbc:sqlite:" + root.resolve("m.db"));
        pages = DocStore.open(root, "pages");
    }

    @AfterEach
    void close() throws SQLException {
        pages.close();
        conn.close();
    }

    private SqlMirror mirror(String prefix) {
        return SqlMirror.builder().connection(conn).prefix(prefix).build();
    }

    @Test
    void s21to29_registrationAndConfigurationAreValidated() {
        assertThatThrownBy(() -> mirror("bad prefix")).isInstanceOf(StorageException.class).hasMessageContaining("prefix"); // 21
        assertThatThrownBy(() -> mirror("app_\n")).hasMessageContaining("prefix"); // whole-string check
        assertThatThrownBy(() -> SqlMirror.builder().connection(conn).dialect("pgsql").build())
                .hasMessageContaining("Unsupported SQL mirror driver: pgsql"); // 22
        SqlMirror m = SqlMirror.over(conn);
        assertThatThrownBy(() -> m.collection(pages, "bad name")).hasMessageContaining("collection name"); // 23
        assertThatThrownBy(() -> m.collection(pages, "a\n")).hasMessageContaining("collection name");
        m.collection(pages, "pages");
        assertThatThrownBy(() -> m.collection(pages, "pages")).hasMessageContaining("already registered")
                .hasMessageContaining("pages"); // 24
        m.collection(pages, "my-pages");
        assertThatThrownBy(() -> m.collection(pages, "my_pages"))
                .hasMessage("SQL mirror table for my_pages collides with collection my-pages: storh_my_pages"); // 25
        assertThatThrownBy(() -> m.table("unknown")).hasMessage("Unknown SQL mirror collection: unknown"); // 26
        assertThatThrownBy(() -> m.collection(pages, "mixed", Schema.collection("x").mixed("anything").index()))
                .hasMessage("SQL mirror cannot index mixed schema field: anything"); // 27
        SqlMirror loose = mirror("loose_").collection(pages, "loose", Schema.collection("x").required("data")); // 28
        loose.install();
        assertThat(loose.table("loose")).isEqualTo("loose_loose");
        assertThatThrownBy(() -> m.collection(pages, "reserved", Schema.collection("x").string("data").index()))
                .hasMessage("SQL mirror cannot map schema field name: data"); // 29
        for (String bad : List.of("ID", "Hash", "DATA", "_x", "1a", "a.b", "a-b", "my field", "über", "a\n")) {
            assertThatThrownBy(() -> m.collection(pages, "f", Schema.collection("x").string(bad).done()))
                    .as(bad).hasMessage("SQL mirror cannot map schema field name: " + bad);
        }
        m.collection(pages, "fine", Schema.collection("x").string("a_1").done());
        assertThat(m.collections()).containsExactly("pages", "my-pages", "fine");
    }

    @Test
    void tableNamesFollowPrefixAndName() {
        assertThat(mirror("app_").collection(pages, "products").table("products")).isEqualTo("app_products");
        assertThat(SqlMirror.over(conn).collection(pages, "my-pages").table("my-pages")).isEqualTo("storh_my_pages");
        assertThat(mirror("").collection(pages, "x-y").table("x-y")).isEqualTo("x_y");
        assertThat(SqlMirror.over(conn).collection(pages, "-lead").table("-lead")).isEqualTo("storh__lead");
    }

    @Test
    void namesThatWouldShareATableOrAnIndexAreRefused() {
        SqlMirror m = SqlMirror.over(conn).collection(pages, "Pages");
        assertThatThrownBy(() -> m.collection(pages, "pages")).hasMessageContaining("collides with collection Pages");
        SqlMirror idx = SqlMirror.over(conn).collection(pages, "a", Schema.collection("a").string("b_c").unique());
        assertThatThrownBy(() -> idx.collection(pages, "a_b", Schema.collection("a").string("c").unique()))
                .hasMessageContaining("collides with collection a").hasMessageContaining("storh_a_b_c_idx");
    }

    @Test
    void sqliteInstallStatementsAreTheOriginals() {
        Schema schema = Schema.collection("shop").string("slug").unique().string("title").string("kind").index()
                .integer("views").range().number("price").bool("active").index().mixed("extra").required("note");
        MirrorTable t = new MirrorTable("shop-items", "app_shop_items", MirrorSource.of(pages), MirrorColumn.of(schema), Dialect.SQLITE);
        assertThat(t.createStatements()).containsExactly(
                "CREATE TABLE IF NOT EXISTS \"app_shop_items\" (\"id\" TEXT NOT NULL PRIMARY KEY, \"hash\" TEXT NOT NULL, \"slug\" TEXT, \"title\" TEXT, \"kind\" TEXT, \"views\" INTEGER, \"price\" REAL, \"active\" INTEGER, \"data\" TEXT NOT NULL)",
                "CREATE UNIQUE INDEX IF NOT EXISTS \"app_shop_items_slug_idx\" ON \"app_shop_items\" (\"slug\")",
                "CREATE INDEX IF NOT EXISTS \"app_shop_items_kind_idx\" ON \"app_shop_items\" (\"kind\")",
                "CREATE INDEX IF NOT EXISTS \"app_shop_items_views_idx\" ON \"app_shop_items\" (\"views\")",
                "CREATE INDEX IF NOT EXISTS \"app_shop_items_active_idx\" ON \"app_shop_items\" (\"active\")");
        MirrorTable mysql = new MirrorTable("shop-items", "app_shop_items", MirrorSource.of(pages), MirrorColumn.of(schema), Dialect.MYSQL);
        assertThat(mysql.createStatements()).containsExactly(
                "CREATE TABLE IF NOT EXISTS `app_shop_items` (`id` CHAR(36) NOT NULL PRIMARY KEY, `hash` CHAR(32) NOT NULL, `slug` VARCHAR(191), `title` TEXT, `kind` VARCHAR(191), `views` BIGINT, `price` DOUBLE, `active` TINYINT(1), `data` LONGTEXT NOT NULL, UNIQUE KEY `app_shop_items_slug_idx` (`slug`), KEY `app_shop_items_kind_idx` (`kind`), KEY `app_shop_items_views_idx` (`views`), KEY `app_shop_items_active_idx` (`active`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
        MirrorTable plain = new MirrorTable("pages", "storh_pages", MirrorSource.of(pages), List.of(), Dialect.SQLITE);
        assertThat(plain.createStatements()).containsExactly(
                "CREATE TABLE IF NOT EXISTS \"storh_pages\" (\"id\" TEXT NOT NULL PRIMARY KEY, \"hash\" TEXT NOT NULL, \"data\" TEXT NOT NULL)");
        MirrorTable plainMysql = new MirrorTable("pages", "storh_pages", MirrorSource.of(pages), List.of(), Dialect.MYSQL);
        assertThat(plainMysql.createStatements()).containsExactly(
                "CREATE TABLE IF NOT EXISTS `storh_pages` (`id` CHAR(36) NOT NULL PRIMARY KEY, `hash` CHAR(32) NOT NULL, `data` LONGTEXT NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
        assertThat(plain.dropStatement()).isEqualTo("DROP TABLE IF EXISTS \"storh_pages\"");
        assertThat(plain.deleteOneStatement()).isEqualTo("DELETE FROM \"storh_pages\" WHERE \"id\" = ?");
        assertThat(plain.deleteManyStatement(3)).isEqualTo("DELETE FROM \"storh_pages\" WHERE \"id\" IN (?, ?, ?)");
        assertThat(plain.selectHashes()).isEqualTo("SELECT \"id\", \"hash\" FROM \"storh_pages\"");
        assertThat(plain.selectData()).isEqualTo("SELECT \"id\", \"data\" FROM \"storh_pages\" ORDER BY \"id\"");
        assertThat(plain.deleteAll()).isEqualTo("DELETE FROM \"storh_pages\"");
        Schema typed = Schema.collection("p").string("slug").unique().integer("views").range().number("score").index()
                .bool("live").index();
        MirrorTable typedTable = new MirrorTable("pages", "storh_pages", MirrorSource.of(pages), MirrorColumn.of(typed), Dialect.SQLITE);
        assertThat(typedTable.insertStatement())
                .isEqualTo("INSERT INTO \"storh_pages\" (\"id\", \"hash\", \"slug\", \"views\", \"score\", \"live\", \"data\") VALUES (?, ?, ?, ?, ?, ?, ?)");
    }

    @Test
    void s56to58_mysqlDialectGeneratesExpectedSql() throws SQLException {
        Schema schema = Schema.collection("pages").string("slug").unique().string("kind").index().string("title")
                .integer("views").index().number("score").range().bool("active").required("slug", "active");
        SqlMirror m = SqlMirror.builder().connection(conn).prefix("wp_").dialect("mysql").build().collection(pages, "pages", schema);
        assertThat(m.dialect()).isEqualTo(Dialect.MYSQL);
        RecordingConnection recording = new RecordingConnection(Dialect.MYSQL);
        SqlMirror recorded = SqlMirror.builder().mirrorConnection(recording).prefix("wp_").build().collection(pages, "pages", schema);
        recorded.install();
        assertThat(recording.sql).containsExactly( // 56, 57: one statement, no separate index statements
                "CREATE TABLE IF NOT EXISTS `wp_pages` (`id` CHAR(36) NOT NULL PRIMARY KEY, `hash` CHAR(32) NOT NULL, `slug` VARCHAR(191), `kind` VARCHAR(191), `title` TEXT, `views` BIGINT, `score` DOUBLE, `active` TINYINT(1), `data` LONGTEXT NOT NULL, UNIQUE KEY `wp_pages_slug_idx` (`slug`), KEY `wp_pages_kind_idx` (`kind`), KEY `wp_pages_views_idx` (`views`), KEY `wp_pages_score_idx` (`score`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
        recording.sql.clear();
        recorded.push();
        assertThat(recording.sql).contains( // 58
                "INSERT INTO `wp_pages` (`id`, `hash`, `slug`, `kind`, `title`, `views`, `score`, `active`, `data`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    }

    @Test
    void postgresqlDialectUsesJsonbAndUpserts() {
        Schema schema = Schema.collection("p").string("slug").unique().number("score").bool("live").done();
        MirrorTable t = new MirrorTable("pages", "storh_pages", MirrorSource.of(pages), MirrorColumn.of(schema), Dialect.POSTGRESQL);
        assertThat(t.createStatements()).containsExactly(
                "CREATE TABLE IF NOT EXISTS \"storh_pages\" (\"id\" TEXT NOT NULL PRIMARY KEY, \"hash\" TEXT NOT NULL, \"slug\" TEXT, \"score\" DOUBLE PRECISION, \"live\" BOOLEAN, \"data\" JSONB NOT NULL)",
                "CREATE UNIQUE INDEX IF NOT EXISTS \"storh_pages_slug_idx\" ON \"storh_pages\" (\"slug\")");
        assertThat(t.insertStatement())
                .isEqualTo("INSERT INTO \"storh_pages\" (\"id\", \"hash\", \"slug\", \"score\", \"live\", \"data\") VALUES (?, ?, ?, ?, ?, CAST(? AS JSONB))"
                + " ON CONFLICT (\"id\") DO UPDATE SET \"hash\" = EXCLUDED.\"hash\", \"slug\" = EXCLUDED.\"slug\", \"score\" = EXCLUDED.\"score\", \"live\" = EXCLUDED.\"live\", \"data\" = EXCLUDED.\"data\"");
    }

    @Test
    void s46to47_connectionVariantsAreNormalized() throws SQLException {
        try (Connection memory = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            MirrorConnection ready = MirrorConnection.jdbc(memory);
            assertThat(ready.dialect()).isEqualTo(Dialect.SQLITE); // 46
            assertThat(ready.inTransaction()).isFalse();
            SqlMirror m = SqlMirror.builder().mirrorConnection(ready).build().collection(pages, "pages");
            m.install();
            pages.put(map("slug", "one"));
            assertThat(m.push().inserted()).isEqualTo(1);
            assertThatThrownBy(() -> SqlMirror.builder().mirrorConnection(ready).dialect("sqlite").build()) // 47
                    .hasMessageContaining("only apply to JDBC connections");
        }
    }

    @Test
    void s39_pullRejectsARowWithoutText() {
        RecordingConnection stub = new RecordingConnection(Dialect.SQLITE);
        stub.rows.add(java.util.Arrays.asList(42L, null));
        SqlMirror m = SqlMirror.builder().mirrorConnection(stub).build().collection(pages, "stub");
        assertThatThrownBy(m::pull).hasMessage("SQL mirror pull read a malformed row from: storh_stub");
    }

    @Test
    void pushAndRebuildReportProgressOverTheStoresRecords() {
        for (int i = 0; i < 250; i++) {
            pages.put(map("slug", "p" + i));
        }
        SqlMirror mirror = SqlMirror.over(conn).collection(pages, "pages");
        mirror.install();
        List<Progress> pushed = new CopyOnWriteArrayList<>();
        assertThat(mirror.push(null, pushed::add).inserted()).isEqualTo(250);
        assertThat(pushed.get(0).done()).isZero();
        Progress last = pushed.get(pushed.size() - 1);
        assertThat(last.operation()).isEqualTo("push");
        assertThat(last.done()).isEqualTo(250);
        assertThat(last.total()).isEqualTo(250);
        assertThat(last.bytes()).isGreaterThan(250L * "{\"slug\":\"p0\"}".length() - 1);
        assertThat(pushed).extracting(Progress::done).isSorted();

        List<Progress> rebuilt = new CopyOnWriteArrayList<>();
        assertThat(mirror.rebuild("pages", rebuilt::add).inserted()).isEqualTo(250);
        assertThat(rebuilt.get(rebuilt.size() - 1).operation()).isEqualTo("rebuild");
        assertThat(rebuilt.get(rebuilt.size() - 1).done()).isEqualTo(250);
    }

    @Test
    void anyRecordStoreOfTheContractIsMirroredAndPulledBack() throws SQLException {
        try (SegmentedLog log = SegmentedLog.open(root, "audit/events")) {
            RecordStore<?, ?, ?> store = log; // only the contract is known to the mirror
            String kept = store.put(map("kind", "a"), null).id();
            String gone = store.put(map("kind", "b"), null).id();
            store.delete(gone);
            SqlMirror m = SqlMirror.over(conn).collection(store, "events");
            m.install();
            assertThat(m.push()).isEqualTo(new PushResult(1, 0, 0, 0));
            try (ResultSet rs = conn.createStatement().executeQuery("SELECT id, data FROM storh_events")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(kept);
                assertThat(rs.getString(2)).isEqualTo("{\"kind\":\"a\"}");
                assertThat(rs.next()).isFalse();
            }
            assertThat(m.verify().ok()).isTrue();
            store.delete(kept);
            assertThat(m.pull().written()).isEqualTo(1);
            assertThat(store.get(kept).map(r -> r.data().get("kind"))).contains("a");
            assertThat(MirrorSource.of(store).count()).isEqualTo(1);
        }
    }

    @Test
    void verifyWithoutCollectionsIsOk() {
        MirrorVerifyReport r = SqlMirror.over(conn).verify();
        assertThat(r.toMap()).hasToString("{ok=true, errors=[], stats={}}");
    }

    @Test
    void installRunsNoAlterOnAnExistingTable() throws SQLException {
        SqlMirror before = SqlMirror.over(conn).collection(pages, "pages");
        before.install();
        SqlMirror typed = SqlMirror.over(conn).collection(pages, "pages", Schema.collection("p").string("slug").done());
        typed.install();
        pages.put(map("slug", "x"));
        assertThatThrownBy(typed::push).hasMessageContaining("SQL mirror statement failed").hasMessageContaining("slug");
        typed.uninstall();
        typed.install();
        assertThat(typed.push().inserted()).isEqualTo(1);
    }

    @Test
    void dataSourceMirrorBorrowsAConnectionPerOperation() throws Exception {
        SQLiteDataSource ds = new SQLiteDataSource();
        ds.setUrl("jdbc:sqlite:" + root.resolve("pooled.db"));
        ds.setBusyTimeout(30_000);
        SqlMirror m = SqlMirror.over(ds).collection(pages, "pages");
        assertThat(m.dialect()).isEqualTo(Dialect.SQLITE);
        m.install();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 3; t++) {
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < 10; i++) {
                        String id = pages.put(map("n", (long) i)).id();
                        m.flush("pages", List.of(id));
                        m.push();
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
        assertThat(m.verify().ok()).isTrue();
        try (Connection c = ds.getConnection(); ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM storh_pages")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(30);
        }
    }

    /** Records the SQL it is given and answers queries with canned rows. */
    static final class RecordingConnection implements MirrorConnection {
        final Dialect dialect;
        final List<String> sql = new ArrayList<>();
        final List<List<Object>> rows = new ArrayList<>();
        boolean open;

        RecordingConnection(Dialect dialect) {
            this.dialect = dialect;
        }

        @Override
        public Dialect dialect() {
            return dialect;
        }

        @Override
        public void execute(String s) {
            sql.add(s);
        }

        @Override
        public void rows(String s, Consumer<List<Object>> row) {
            sql.add(s);
            rows.forEach(row);
        }

        @Override
        public MirrorStatement prepare(String s) {
            sql.add(s);
            return params -> { };
        }

        @Override
        public void begin() {
            open = true;
        }

        @Override
        public void commit() {
            open = false;
        }

        @Override
        public void rollback() {
            open = false;
        }

        @Override
        public boolean inTransaction() {
            return open;
        }
    }
}
