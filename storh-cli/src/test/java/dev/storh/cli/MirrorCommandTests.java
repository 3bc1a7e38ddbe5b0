package dev.storh.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code storh mirror}: in process against a real SQLite file and, when configured, PostgreSQL and MariaDB. */
class MirrorCommandTests {

    @TempDir
    Path temp;

    Path root;
    String pageId;
    String url;

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = StorhCli.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    @BeforeEach
    void stores() {
        root = temp.resolve("root");
        try (DocStore pages = DocStore.open(root, "pages"); SegmentedLog events = SegmentedLog.open(root, "events")) {
            pageId = pages.put(Map.of("slug", "home")).id();
            pages.put(Map.of("slug", "about"));
            events.put(Map.of("type", "saved"));
        }
        url = "jdbc:sqlite:" + temp.resolve("mirror.db");
    }

    @Test
    void installPushVerifyRebuildAndPullPrintTheMirrorsShapes() throws SQLException {
        Run install = run("mirror", "install", root.toString(), "--jdbc-url=" + url);
        assertThat(install.exit()).as(install.err()).isZero();
        assertThat(install.out()).contains("\"tables\"", "\"events\": \"storh_events\"", "\"pages\": \"storh_pages\"");
        Run push = run("mirror", "push", root.toString(), "--jdbc-url=" + url);
        assertThat(push.exit()).isZero();
        assertThat(push.out()).isEqualTo("{\n    \"inserted\": 3,\n    \"updated\": 0,\n    \"deleted\": 0,\n    \"unchanged\": 0\n}\n");
        Run verify = run("mirror", "verify", root.toString(), "--jdbc-url=" + url);
        assertThat(verify.exit()).isZero();
        assertThat(verify.out()).contains("\"ok\": true", "\"records\": 2");

        try (Connection c = DriverManager.getConnection(url)) {
            c.createStatement().executeUpdate("UPDATE storh_pages SET hash = 'x' WHERE id = '" + pageId + "'");
        }
        Run drift = run("mirror", "verify", root.toString(), "pages", "--jdbc-url=" + url);
        assertThat(drift.exit()).isEqualTo(StorhCli.EXIT_PROBLEMS);
        assertThat(drift.out()).contains("\"ok\": false", "pages: 1 stale mirror row(s).").doesNotContain("events");
        Run rebuild = run("mirror", "rebuild", root.toString(), "pages", "--jdbc-url=" + url, "--format=table");
        assertThat(rebuild.exit()).isZero();
        assertThat(rebuild.out()).contains("inserted").contains("2");

        try (DocStore pages = DocStore.open(root, "pages")) {
            pages.delete(pageId);
        }
        Run pull = run("mirror", "pull", root.toString(), "pages", "--jdbc-url=" + url);
        assertThat(pull.exit()).isZero();
        assertThat(pull.out()).isEqualTo("{\n    \"written\": 1,\n    \"unchanged\": 1\n}\n");
        try (DocStore pages = DocStore.open(root, "pages")) {
            assertThat(pages.get(pageId).orElseThrow().data()).isEqualTo(Map.of("slug", "home"));
        }
        try (Connection c = DriverManager.getConnection(url); ResultSet rs = c.createStatement()
                .executeQuery("SELECT COUNT(*) FROM storh_pages")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(2);
        }
    }

    @Test
    void badArgumentsAreUsageErrors() {
        assertThat(run("mirror", "push", root.toString()).exit()).isEqualTo(StorhCli.EXIT_USAGE);
        Run unknown = run("mirror", "push", root.toString(), "nope", "--jdbc-url=" + url);
        assertThat(unknown.exit()).isEqualTo(StorhCli.EXIT_USAGE);
        assertThat(unknown.err()).contains("Collection 'nope'");
        Run env = run("mirror", "push", root.toString(), "--jdbc-url=" + url, "--password-env=STORH_NO_SUCH_VARIABLE");
        assertThat(env.exit()).isEqualTo(StorhCli.EXIT_USAGE);
        assertThat(env.err()).contains("STORH_NO_SUCH_VARIABLE");
        assertThat(run("mirror", "push", root.toString(), "--jdbc-url=" + url, "--prefix=bad prefix").exit())
                .isEqualTo(StorhCli.EXIT_USAGE);
        assertThat(run("mirror", "merge", root.toString(), "--jdbc-url=" + url).exit()).isEqualTo(StorhCli.EXIT_USAGE);
        Run noDriver = run("mirror", "push", root.toString(), "--jdbc-url=jdbc:nosuch:x");
        assertThat(noDriver.exit()).isEqualTo(StorhCli.EXIT_USAGE);
        assertThat(noDriver.err()).contains("No JDBC driver");
    }

    @Test
    void pushBeforeInstallIsAFailureNamingTheStatement() {
        Run push = run("mirror", "push", root.toString(), "pages", "--jdbc-url=" + url);
        assertThat(push.exit()).isEqualTo(StorhCli.EXIT_PROBLEMS);
        assertThat(push.err()).startsWith("storh: SQL mirror statement failed").contains("storh_pages");
    }

    @Test
    void mirrorsIntoPostgresqlAndMariadbWhenConfigured() {
        int servers = 0;
        for (String variable : new String[] {"STORH_TEST_POSTGRES_URL", "STORH_TEST_MARIADB_URL"}) {
            String server = System.getenv(variable);
            if (server == null) {
                System.out.println("SKIPPED part: " + variable + " is not set (source .ci/services.sh)");
                continue;
            }
            servers++;
            String prefix = "cli" + Long.toString(System.nanoTime() % 1_000_000, 36) + "_";
            assertThat(run("mirror", "install", root.toString(), "--jdbc-url=" + server, "--prefix=" + prefix).exit()).isZero();
            Run push = run("mirror", "push", root.toString(), "--jdbc-url=" + server, "--prefix=" + prefix);
            assertThat(push.out()).as(variable).contains("\"inserted\": 3");
            Run verify = run("mirror", "verify", root.toString(), "--jdbc-url=" + server, "--prefix=" + prefix);
            assertThat(verify.exit()).as(verify.out()).isZero();
            try (Connection c = DriverManager.getConnection(server)) {
                c.createStatement().execute("DROP TABLE " + prefix + "pages");
                c.createStatement().execute("DROP TABLE " + prefix + "events");
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        }
        Assumptions.assumeTrue(servers > 0, "no database server configured (source .ci/services.sh)");
    }
}
