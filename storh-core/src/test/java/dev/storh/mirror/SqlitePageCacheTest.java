package dev.storh.mirror;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.DocStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mirror transaction on SQLite widens the page cache and puts the caller's setting back. */
class SqlitePageCacheTest {

    @TempDir
    Path root;

    private static long cacheSize(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA cache_size")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void setCache(Connection c, long value) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA cache_size=" + value);
        }
    }

    @Test
    void widensWhileInATransactionAndRestoresAfterCommitAndRollback() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + root.resolve("m.db"))) {
            setCache(c, -2000);
            JdbcMirrorConnection m = new JdbcMirrorConnection(c, null);
            m.begin();
            assertThat(cacheSize(c)).isEqualTo(-SqlitePageCache.KIB);
            m.commit();
            assertThat(cacheSize(c)).isEqualTo(-2000);
            setCache(c, 100); // pages, not KiB
            m.begin();
            assertThat(cacheSize(c)).isEqualTo(-SqlitePageCache.KIB);
            m.rollback();
            assertThat(cacheSize(c)).isEqualTo(100);
        }
    }

    @Test
    void aLargerCacheIsLeftAlone() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + root.resolve("m.db"))) {
            setCache(c, -200_000);
            JdbcMirrorConnection m = new JdbcMirrorConnection(c, null);
            m.begin();
            assertThat(cacheSize(c)).isEqualTo(-200_000);
            m.commit();
            assertThat(cacheSize(c)).isEqualTo(-200_000);
        }
    }

    @Test
    void pushAndFailedPushRestoreTheCallersSetting() throws SQLException {
        try (DocStore store = DocStore.open(root, "docs");
                Connection c = DriverManager.getConnection("jdbc:sqlite:" + root.resolve("m.db"))) {
            store.put(Map.of("slug", "a"));
            setCache(c, -1000);
            SqlMirror mirror = SqlMirror.builder().connection(c).build().collection(store, "docs");
            mirror.install();
            assertThat(mirror.push().inserted()).isEqualTo(1);
            assertThat(cacheSize(c)).isEqualTo(-1000);
            mirror.uninstall(); // the next push fails on the missing table and rolls back
            try {
                mirror.push();
            } catch (dev.storh.StorageException expected) {
                assertThat(expected.getMessage()).startsWith("SQL mirror statement failed");
            }
            assertThat(cacheSize(c)).isEqualTo(-1000);
            assertThat(c.getAutoCommit()).isTrue();
        }
    }
}
