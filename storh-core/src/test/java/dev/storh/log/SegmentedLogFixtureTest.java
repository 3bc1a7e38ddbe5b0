package dev.storh.log;

import static dev.storh.log.LogTestSupport.ids;
import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.SharedFiles;
import dev.storh.StorageRecord;
import dev.storh.fs.FramedLine;
import dev.storh.query.RecordQuery;
import dev.storh.store.VerifyReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** The {@code events} log that storh-php 0.5.0 wrote, against what the original answered (expected.json). */
class SegmentedLogFixtureTest {

    @TempDir
    static Path fixtureCopy;

    static Path fixtureApp;
    static Map<String, Object> events;

    @TempDir
    Path app;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void copyFixture() throws Exception {
        fixtureApp = SharedFiles.copyPhpFixture(fixtureCopy);
        Map<String, Object> expected = JsonMapper.builder().build().readValue(
                SharedFiles.expectedAnswers().toFile(), Map.class);
        events = (Map<String, Object>) expected.get("events");
    }

    /** Each test gets its own writable copy of the events collection (opening writes the manifest). */
    @BeforeEach
    void copyEvents() throws Exception {
        Path source = fixtureApp.resolve("events");
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path dest = app.resolve("events").resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private <T> T expected(String key) {
        return (T) events.get(key);
    }

    @Test
    void answersAsTheOriginalDid() {
        try (SegmentedLog log = SegmentedLog.open(app, "events")) {
            List<String> all = expected("all_ids");
            assertThat(ids(log.stream())).hasSize(447).containsExactlyElementsOf(all);
            String cursor = expected("after_cursor");
            assertThat(ids(log.stream(RecordQuery.all().after(cursor).limit(20))))
                    .containsExactlyElementsOf(expected("after_100_limit_20"));
            assertThat(ids(log.stream(RecordQuery.all().whereEqual("type", "user.login"))))
                    .containsExactlyElementsOf(expected("where_type_login"));
            assertThat(log.count(RecordQuery.all().whereEqual("type", "page.rendered")))
                    .isEqualTo(((Number) expected("query_type_rendered_count")).longValue());
            // The query builder gives the same answers on the log, by scanning.
            assertThat(log.query().where("type").eq("page.rendered").count())
                    .isEqualTo(((Number) expected("query_type_rendered_count")).longValue());
            assertThat(log.query().where("type").eq("user.login").get()).extracting(dev.storh.StorageRecord::id)
                    .containsExactlyElementsOf(expected("where_type_login"));
            assertThat(log.query().cursor(cursor).limit(20).get()).extracting(dev.storh.StorageRecord::id)
                    .containsExactlyElementsOf(expected("after_100_limit_20"));
            assertThat(log.query().where("type").eq("user.login").explain().toMap())
                    .containsEntry("store", "storh.SegmentedLog").containsEntry("plan", "full_scan");
            List<String> overwritten = expected("overwritten_ids");
            Map<String, Object> data = log.get(overwritten.get(0)).orElseThrow().data();
            assertThat(data).containsEntry("overwritten", true);
            Map<String, Object> getOverwritten = expected("get_overwritten");
            assertThat(log.get(overwritten.get(0)).orElseThrow().data().get("type")).isEqualTo(getOverwritten.get("type"));
            for (String deleted : (List<String>) expected("deleted_ids")) {
                assertThat(log.get(deleted)).isEmpty();
            }
            assertThat(log.count()).isEqualTo(447);
            Map<String, Object> verify = expected("verify");
            VerifyReport<LogStats> report = log.verify();
            assertThat(report.ok()).isEqualTo(verify.get("ok"));
            assertThat(report.errors()).isEmpty();
            Map<String, Object> stats = (Map<String, Object>) verify.get("stats");
            assertThat(report.stats().toMap().keySet()).containsExactly("segments", "records", "deleted", "bytes");
            assertThat(report.stats().toMap()).isEqualTo(Map.of(
                    "segments", ((Number) stats.get("segments")).longValue(),
                    "records", ((Number) stats.get("records")).longValue(),
                    "deleted", ((Number) stats.get("deleted")).longValue(),
                    "bytes", ((Number) stats.get("bytes")).longValue()));
        }
    }

    @Test
    void getOfTheOverwrittenRecordIsItsLatestVersion() {
        Map<String, Object> want = expected("get_overwritten");
        List<String> overwritten = expected("overwritten_ids");
        try (SegmentedLog log = SegmentedLog.open(app, "events")) {
            StorageRecord r = log.get(overwritten.get(0)).orElseThrow();
            assertThat(r.data().keySet()).containsExactly("type", "n", "overwritten");
            assertThat(r.data()).isEqualTo(Map.of("type", want.get("type"),
                    "n", ((Number) want.get("n")).longValue(), "overwritten", want.get("overwritten")));
        }
    }

    @Test
    void linesWeAppendHaveTheOriginalsFormatAndChecksums() throws Exception {
        String id = "01a229e5-6000-7000-8000-000000000001";
        try (SegmentedLog log = SegmentedLog.open(app, "events")) {
            Map<String, Object> data = new java.util.LinkedHashMap<>();
            data.put("type", "user.login");
            data.put("n", 1000L);
            log.put(data, id);
        }
        Path active = app.resolve("events/segments/seg-000014.ndjson");
        List<String> lines = Files.readAllLines(active, StandardCharsets.UTF_8);
        String last = lines.get(lines.size() - 1);
        String json = "{\"op\":\"put\",\"id\":\"" + id + "\",\"data\":{\"type\":\"user.login\",\"n\":1000}}";
        assertThat(last).isEqualTo(json.length() + "\t" + FramedLine.checksum(json.getBytes(StandardCharsets.UTF_8)) + "\t" + json);
        // The original's own lines in the same file use the same framing: recompute one of them.
        String first = lines.get(0);
        String[] parts = first.split("\t", 3);
        assertThat(parts[1]).isEqualTo(FramedLine.checksum(parts[2].getBytes(StandardCharsets.UTF_8)));
        assertThat(Integer.parseInt(parts[0])).isEqualTo(parts[2].getBytes(StandardCharsets.UTF_8).length);
        try (SegmentedLog log = SegmentedLog.open(app, "events")) {
            assertThat(log.count()).isEqualTo(448);
            assertThat(log.verify().ok()).isTrue();
        }
    }
}
