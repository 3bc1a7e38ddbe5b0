package dev.storh.cli;

import dev.storh.SharedFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.storh.cli.CliProcess.Result;
import dev.storh.json.Jsonc;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code target/storh-cli.jar} as a process on copies of the PHP fixture
 * ({@code shared/fixtures/php-storh-0.5.0}) and checks stdout, stderr and exit codes of every
 * command, with the figures of the fixture's {@code expected.json}.
 *
 * <p>The whole fixture is copied once for the class ({@link #app}) and only read there (opening
 * stores does create control files, which no test counts); tests that change a store copy the
 * collections they change into their own root ({@link #temp}).
 */
class StorhCliIT {

    @TempDir
    static Path shared;

    private static Map<String, Object> expected;
    private static Path app;

    @TempDir
    Path temp;

    private CliProcess cli;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void copyFixtureOnce() throws IOException {
        assumeTrue(System.getProperty("storh.cli.jar") != null,
                "runs under failsafe, after package, with the jar from the storh.cli.jar property");
        Path file = SharedFiles.expectedAnswers();
        expected = (Map<String, Object>) Jsonc.decodeStrict(Files.readAllBytes(file));
        app = SharedFiles.copyPhpFixture(shared);
    }

    @BeforeEach
    void newCli() {
        cli = new CliProcess(temp);
    }

    @Test // spec/cli.md §2 stats: doc {records, bytes, corrupt, indexes}, log {segments, ...}, queue {pending, ...}
    void statsPrintsEachEnginesFiguresAsTheOriginal() throws IOException {
        Result cities = ok(cli.run("stats", app.toString(), "cities"));
        assertThat(cities.out()).isEqualTo("""
                {
                    "records": 3000,
                    "bytes": 655976,
                    "corrupt": 0,
                    "indexes": 5
                }
                """);
        assertThat(cities.json()).isEqualTo(at("cities", "verify", "stats"));

        Result events = ok(cli.run("stats", app.toString(), "events", "log"));
        assertThat(events.json()).isEqualTo(at("events", "verify", "stats"))
                .containsEntry("segments", 14L).containsEntry("records", 447L);
        assertThat(events.json().keySet()).containsExactly("segments", "records", "deleted", "bytes");

        Result jobs = ok(cli.run("stats", app.toString(), "jobs", "queue"));
        assertThat(jobs.json()).isEqualTo(at("jobs", "verify", "stats")).containsAllEntriesOf(at("jobs", "counts"))
                .containsEntry("pending", 60L).containsEntry("processing", 15L).containsEntry("done", 20L);
        assertThat(jobs.json().keySet()).containsExactly("pending", "processing", "done", "bytes");

        Result pages = ok(cli.run("stats", app.toString(), "pages"));
        assertThat(pages.json().keySet()).containsExactly("records", "bytes", "corrupt", "indexes");
        assertThat(pages.json()).containsEntry("records", 6L).containsEntry("corrupt", 0L).containsEntry("indexes", 2L)
                .containsEntry("bytes", size(app.resolve("pages/data"))[1]);
    }

    @Test // spec/cli.md §2 verify: {ok, errors, stats}; without an engine argument it is read from the folder
    void verifyPrintsTheEnginesReportAndExitsZeroWhenHealthy() {
        for (String name : List.of("cities", "events", "jobs")) {
            Result verify = ok(cli.run("verify", app.toString(), name));
            assertThat(verify.json()).as(name).isEqualTo(at(name, "verify"));
            assertThat(verify.json().keySet()).containsExactly("ok", "errors", "stats");
            if (name.equals("events")) {
                assertThat(verify.out()).isEqualTo("""
                        {
                            "ok": true,
                            "errors": [],
                            "stats": {
                                "segments": 14,
                                "records": 447,
                                "deleted": 0,
                                "bytes": 54432
                            }
                        }
                        """);
            }
        }
    }

    @Test // issue 9: a broken store (a truncated record file) exits 1; repair mends it
    void verifyExitsOneOnATruncatedRecordFileAndRepairFixesIt() throws IOException {
        Path root = SharedFiles.copyPhpCollections(temp.resolve("root"), "pages");
        Path victim;
        try (Stream<Path> files = Files.walk(root.resolve("pages/data"))) {
            victim = files.filter(p -> p.toString().endsWith(".jsonc")).sorted().findFirst().orElseThrow();
        }
        try (FileChannel channel = FileChannel.open(victim, StandardOpenOption.WRITE)) {
            channel.truncate(40);
        }
        String name = victim.getFileName().toString();

        Result verify = cli.run("verify", root.toString(), "pages");
        assertThat(verify.exit()).as(verify.toString()).isEqualTo(1);
        assertThat(verify.err()).isEmpty();
        Map<String, Object> report = verify.json();
        assertThat(report).containsEntry("ok", false);
        assertThat(strings(report.get("errors"))).hasSize(2).first().isEqualTo("Corrupt records: 1");
        assertThat(strings(report.get("errors")).get(1)).startsWith("Corrupt record: ").contains(name);
        assertThat(map(report.get("stats"))).containsEntry("records", 5L).containsEntry("corrupt", 1L)
                .containsEntry("indexes", 2L);

        Result stats = cli.run("stats", root.toString(), "pages");
        assertThat(stats.exit()).as(stats.toString()).isEqualTo(1);
        assertThat(stats.json()).containsEntry("records", 5L).containsEntry("corrupt", 1L);

        Result reindex = cli.run("reindex", root.toString(), "pages");
        assertThat(reindex.exit()).as(reindex.toString()).isEqualTo(1);
        assertThat(reindex.out()).isEmpty();
        assertThat(reindex.err()).startsWith("storh: ").contains(name);

        Path exportFile = temp.resolve("broken.jsonl");
        Result export = cli.run("export", root.toString(), "pages", "-o", exportFile.toString());
        assertThat(export.exit()).as(export.toString()).isEqualTo(1);
        assertThat(export.err()).startsWith("storh: ").contains(name);
        assertThat(exportFile).doesNotExist();

        Result repair = ok(cli.run("repair", root.toString(), "pages"));
        assertThat(repair.json()).isEqualTo(Map.of("ok", true, "quarantined", 1L,
                "reindexed", Map.of("fields", 2L, "entries", 5L)));
        assertThat(repair.json().keySet()).containsExactly("ok", "quarantined", "reindexed");
        assertThat(victim).doesNotExist();
        assertThat(root.resolve("pages/.storh/corrupt").resolve(name)).exists();

        Result after = ok(cli.run("verify", root.toString(), "pages"));
        assertThat(after.json()).containsEntry("ok", true).containsEntry("errors", List.of());
        assertThat(map(after.json().get("stats"))).containsEntry("records", 5L).containsEntry("corrupt", 0L);
    }

    @Test // spec/cli.md §2 compact; §6 C3: no log files written into a document collection
    void compactCompactsALogAndAQueueAndReportsADocumentCollection() {
        Path root = SharedFiles.copyPhpCollections(temp.resolve("root"), "events", "jobs", "pages");
        Result events = ok(cli.run("compact", root.toString(), "events"));
        assertThat(events.json()).isEqualTo(Map.of("segments", 2L, "records", 447L, "deleted", 0L, "bytes", 54432L));
        assertThat(events.json().keySet()).containsExactly("segments", "records", "deleted", "bytes");

        Result pages = ok(cli.run("compact", root.toString(), "pages"));
        assertThat(pages.out()).isEqualTo("""
                {
                    "ok": true,
                    "records": 6
                }
                """);
        assertThat(root.resolve("pages/manifest.jsonc")).doesNotExist();
        assertThat(root.resolve("pages/segments")).doesNotExist();

        Result jobs = ok(cli.run("compact", root.toString(), "jobs", "queue"));
        assertThat(jobs.json()).containsAllEntriesOf(at("jobs", "counts"));
        assertThat((Long) jobs.json().get("bytes")).isPositive().isLessThan(18825L);
        assertThat(ok(cli.run("verify", root.toString(), "jobs")).json()).containsEntry("ok", true);
    }

    @Test // spec/cli.md §2 reindex; §6 C6: another engine is refused, not ignored
    void reindexRebuildsTheIndexesOfADocumentCollectionOnly() {
        assertThat(ok(cli.run("reindex", app.toString(), "cities")).out()).isEqualTo("""
                {
                    "fields": 5,
                    "entries": 3000
                }
                """);

        Result events = cli.run("reindex", app.toString(), "events");
        assertUsage(events, "'reindex' works on document collections only");
        assertThat(events.err()).contains("segmented log").contains("'events'").contains(app.toString());
    }

    @Test // issue 9: repair of a log and a queue (spec/log-queue.md §2.13, §3.4)
    void repairRecoversALogAndRequeuesStaleClaims() {
        Path root = SharedFiles.copyPhpCollections(temp.resolve("root"), "events", "jobs");
        Result events = ok(cli.run("repair", root.toString(), "events", "log"));
        assertThat(events.json()).isEqualTo(Map.of("ok", true, "stats", at("events", "verify", "stats"), "bytesCut", 0L));

        Result jobs = ok(cli.run("repair", root.toString(), "jobs", "--processing-timeout", "0s"));
        assertThat(jobs.json()).isEqualTo(Map.of("ok", true, "requeued", 15L));
        assertThat(ok(cli.run("stats", root.toString(), "jobs")).json())
                .containsEntry("pending", 75L).containsEntry("processing", 0L).containsEntry("done", 20L);
    }

    @Test // issue 9: export and import JSONL (spec/docstore.md §9.7, §9.8), files and pipes
    void exportAndImportRoundTripTheFixture() throws IOException {
        Path file = temp.resolve("out/cities.jsonl");
        Result export = ok(cli.run("export", app.toString(), "cities", "doc", "-o", file.toString()));
        assertThat(export.json()).isEqualTo(Map.of("records", 3000L, "file", file.toAbsolutePath().toString()));
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> ids = new ArrayList<>();
        for (String line : lines) {
            ids.add((String) map(Jsonc.decodeStrict(line)).get("id"));
        }
        assertThat(ids).hasSize(3000).isEqualTo(at("cities").get("stream_ids"));

        Path root = Files.createDirectories(temp.resolve("root"));
        Result imported = ok(cli.runWithInput(file, "import", root.toString(), "copy", "-i", "-"));
        assertThat(imported.json()).isEqualTo(Map.of("imported", 3000L, "records", 3000L));
        assertThat(imported.json().keySet()).containsExactly("imported", "records");

        Result piped = ok(cli.run("export", root.toString(), "copy", "-o", "-"));
        assertThat(piped.out()).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));

        Path firstTen = Files.write(temp.resolve("ten.jsonl"), lines.subList(0, 10), StandardCharsets.UTF_8);
        Result again = ok(cli.run("import", root.toString(), "copy", "-i", firstTen.toString()));
        assertThat(again.json()).as("envelope ids are kept: the records are replaced")
                .isEqualTo(Map.of("imported", 10L, "records", 3000L));
        assertThat(ok(cli.run("stats", root.toString(), "copy")).json())
                .containsEntry("records", 3000L).containsEntry("corrupt", 0L).containsEntry("indexes", 0L);
    }

    @Test // issue 9: a bad row stops the import with exit 1, naming the file and line
    void importStopsAtABadRowNamingTheFileAndLine() throws IOException {
        Path root = SharedFiles.copyPhpCollections(temp.resolve("root"), "pages");
        Path file = temp.resolve("bad.jsonl");
        Files.writeString(file, "{\"slug\":\"ok\"}\n{not json\n{\"slug\":\"never\"}\n", StandardCharsets.UTF_8);
        Result result = cli.run("import", root.toString(), "pages", "-i", file.toString());
        assertThat(result.exit()).as(result.toString()).isEqualTo(1);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).startsWith("storh: ").contains(file.toString()).contains("line 2");
        assertThat(ok(cli.run("stats", root.toString(), "pages")).json()).containsEntry("records", 7L);
    }

    @Test // issue 9: ls lists collections, logs and queues with engine and size, changing nothing
    void lsListsWhatTheRootHoldsWithEngineAndSize() throws IOException {
        List<Path> before = tree(app);
        Result ls = ok(cli.run("ls", app.toString()));
        assertThat(ls.json().keySet()).containsExactly("root", "collections");
        assertThat(ls.json()).containsEntry("root", app.toString());
        List<Map<String, Object>> items = new ArrayList<>();
        for (String[] c : new String[][] {{"cities", "doc"}, {"events", "log"}, {"jobs", "queue"}, {"pages", "doc"}}) {
            long[] size = size(app.resolve(c[0]));
            items.add(Map.of("name", c[0], "engine", c[1], "files", size[0], "bytes", size[1]));
        }
        assertThat(ls.json().get("collections")).isEqualTo(items);
        assertThat(tree(app)).isEqualTo(before);

        Result parent = ok(cli.run("ls", app.getParent().toString(), "--format", "table"));
        assertThat(parent.out().lines().toList()).hasSize(5);
        assertThat(parent.out()).startsWith("NAME        ENGINE  FILES").contains("\napp/events  log ")
                .contains("\napp/jobs    queue ");
    }

    @Test // issue 9: clear errors for a missing root, an unknown collection, a wrong engine; exit 2
    void usageErrorsExitTwoAndNameTheRootCollectionOrEngine() {
        Path missing = temp.resolve("no-such-root");
        assertUsage(cli.run("stats", missing.toString(), "pages"), "Storage root not found: " + missing);
        assertThat(missing).doesNotExist();

        Result unknown = cli.run("verify", app.toString(), "nothing");
        assertUsage(unknown, "Unknown collection 'nothing' under root " + app);
        assertThat(unknown.err()).contains("cities (doc), events (log), jobs (queue), pages (doc)");
        assertThat(app.resolve("nothing")).doesNotExist();

        Result wrong = cli.run("stats", app.toString(), "events", "doc");
        assertUsage(wrong, "Wrong engine for collection 'events' under root " + app);
        assertThat(wrong.err()).contains("is a segmented log (manifest.jsonc, segments/), not a document collection")
                .contains("Run with engine 'log'");
        assertThat(app.resolve("events/data")).doesNotExist();

        assertUsage(cli.run("STATS", app.toString()), "Did you mean: storh stats?");
        Result none = cli.run();
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.out()).isEmpty();
        assertThat(none.err()).startsWith("Usage: storh [-hV] [COMMAND]").contains("Exit codes:");
    }

    @Test // issue 9: --help on every command (all of them in StorhCliTests, in process)
    void helpGoesToStdoutWithExitZero() {
        Result help = ok(cli.run("verify", "--help"));
        assertThat(help.out()).startsWith("Usage: storh verify ").contains("--format=json|table", "--progress=");
    }

    @Test // issue 9: --format table for people
    void tableFormatAlignsKeysAndValues() {
        assertThat(ok(cli.run("stats", app.toString(), "cities", "--format", "table")).out()).isEqualTo("""
                records  3000
                bytes    655976
                corrupt  0
                indexes  5
                """);
        assertThat(ok(cli.run("verify", app.toString(), "jobs", "--format=table")).out()).isEqualTo("""
                ok                true
                errors            (none)
                stats.pending     60
                stats.processing  15
                stats.done        20
                stats.bytes       18825
                """);
    }

    @Test // issue 9: the progress bar is drawn only on a terminal, never into a pipe
    void noProgressBarWhenStderrIsPiped() {
        Result piped = ok(cli.run("verify", app.toString(), "cities"));
        assertThat(piped.err()).isEmpty();

        Result forced = cli.run("verify", app.toString(), "cities", "--progress", "always");
        assertThat(forced.exit()).isZero();
        assertThat(forced.err()).startsWith("\rverify doc " + app.resolve("cities") + " [=====").endsWith("\r");
        assertThat(forced.json()).isEqualTo(at("cities", "verify"));
    }

    // ------------------------------------------------------------------ helpers

    private static Result ok(Result result) {
        assertThat(result.exit()).as(result.toString()).isZero();
        assertThat(result.err()).as(result.toString()).isEmpty();
        return result;
    }

    private static void assertUsage(Result result, String message) {
        assertThat(result.exit()).as(result.toString()).isEqualTo(2);
        assertThat(result.out()).as(result.toString()).isEmpty();
        assertThat(result.err()).as(result.toString()).startsWith("storh: ").contains(message);
    }

    private static Map<String, Object> at(String... keys) {
        Object node = expected;
        for (String key : keys) {
            node = map(node).get(key);
        }
        return map(node);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object value) {
        return (List<String>) value;
    }

    private static long[] size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> regular = files.filter(Files::isRegularFile).toList();
            long bytes = 0;
            for (Path p : regular) {
                bytes += Files.size(p);
            }
            return new long[] {regular.size(), bytes};
        }
    }

    private static List<Path> tree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.sorted().toList();
        }
    }
}
