package dev.storh.mirror;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.schema.Schema;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables written by the PHP original's mirror (storh 0.5.0 with pdo_sqlite; resource
 * {@code mirror/php-original}, made by the script beside it) and by this mirror from the same
 * store are the same rows with the same hashes, and this mirror finds the original's table clean.
 */
class PhpMirrorCompatibilityTest {

    static final Schema PAGES = Schema.collection("pages").string("slug").unique().string("kind").index()
            .string("title").number("weight").range().bool("draft").index();

    @TempDir
    Path dir;

    DocStore pages;
    SegmentedLog events;
    Connection original;
    Connection ours;

    @BeforeEach
    void copyResources() throws IOException, URISyntaxException, SQLException {
        Path resource = Path.of(getClass().getResource("/mirror/php-original").toURI());
        copyTree(resource.resolve("root"), dir.resolve("root"));
        Files.copy(resource.resolve("php-mirror.db"), dir.resolve("php-mirror.db"));
        pages = DocStore.open(dir.resolve("root"), "pages");
        events = SegmentedLog.open(dir.resolve("root"), "events");
        original = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("php-mirror.db"));
        ours = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("ours.db"));
    }

    @AfterEach
    void close() throws SQLException {
        original.close();
        ours.close();
        pages.close();
        events.close();
    }

    private SqlMirror mirror(Connection c) {
        return SqlMirror.builder().connection(c).prefix("php_").build()
                .collection(pages, "pages", PAGES).collection(events, "events", null);
    }

    @Test
    void ourTableHasTheOriginalsRowsAndHashes() throws SQLException {
        SqlMirror m = mirror(ours);
        m.install();
        assertThat(m.push()).isEqualTo(new PushResult(455, 0, 0, 0));
        List<List<Object>> theirs = rows(original, "php_pages");
        List<List<Object>> mine = rows(ours, "php_pages");
        assertThat(mine).hasSize(8).hasSameSizeAs(theirs);
        for (int i = 0; i < mine.size(); i++) {
            List<Object> a = mine.get(i);
            List<Object> b = theirs.get(i);
            assertThat(a.get(0)).isEqualTo(b.get(0)); // id
            assertThat(a.get(1)).as("hash of %s", a.get(0)).isEqualTo(b.get(1));
            assertThat(a.subList(2, 5)).as("slug, kind, title of %s", a.get(0)).isEqualTo(b.subList(2, 5));
            if (b.get(5) == null) {
                assertThat(a.get(5)).isNull();
            } else { // the original binds floats as 14-digit text; ours binds the double
                assertThat(((Number) a.get(5)).doubleValue()).isCloseTo(((Number) b.get(5)).doubleValue(), within(1e-12));
            }
            assertThat(a.get(6)).isEqualTo(b.get(6)); // draft
            assertThat(a.get(7)).as("data of %s", a.get(0)).isEqualTo(b.get(7));
        }
        assertThat(rows(ours, "php_events")).isEqualTo(rows(original, "php_events"));
    }

    @Test
    void verifyIsCleanOnTheOriginalsTableAndPushFindsNothingToDo() {
        SqlMirror m = mirror(original);
        MirrorVerifyReport report = m.verify();
        assertThat(report.errors()).isEmpty();
        assertThat(report.ok()).isTrue();
        assertThat(report.stats().get("pages").rows()).isEqualTo(8);
        assertThat(report.stats().get("events").records()).isEqualTo(447);
        assertThat(m.push()).isEqualTo(new PushResult(0, 0, 0, 455));
    }

    private static List<List<Object>> rows(Connection c, String table) throws SQLException {
        return MirrorFlowsContract.query(c, "SELECT * FROM \"" + table + "\" ORDER BY \"id\"");
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
