package dev.storh.log;

import static dev.storh.log.LogTestSupport.BASE_MS;
import static dev.storh.log.LogTestSupport.id;
import static dev.storh.log.LogTestSupport.ids;
import static dev.storh.log.LogTestSupport.opts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.FramedLine;
import dev.storh.id.UuidV7;
import dev.storh.query.RecordQuery;
import dev.storh.store.VerifyReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spec's numbered statements for the log ({@code spec/log-queue.md} §5), one test each or grouped. */
class SegmentedLogTest {

    @TempDir
    Path root;

    private static Map<String, Object> row(String kind, long value, int blob) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", kind);
        m.put("value", value);
        m.put("blob", "x".repeat(blob));
        return m;
    }

    private Path segments(String collection) {
        return root.resolve(collection).resolve("segments");
    }

    @Test // §2.3, §2.4: fresh manifest bytes and the spec's four-line segment with its offsets
    void freshManifestAndSegmentBytesAreTheOriginals() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 2))) {
            assertThat(Files.readString(root.resolve("events/manifest.jsonc"))).isEqualTo(
                    "{\"nextSegment\":2,\"sealed\":[],\"active\":{\"file\":\"seg-000001.ndjson\",\"max\":null,\"min\":null,"
                            + "\"records\":0,\"ordered\":true}}\n");
            Map<String, Object> first = new LinkedHashMap<>();
            first.put("type", "user.created");
            first.put("n", 1L);
            first.put("f", 1.0);
            first.put("path", "a/b");
            first.put("name", "Zoë");
            log.put(first, "01890a5d-ac00-7000-8000-000000000001");
            log.put(Map.of("type", "y"), "01890a5d-ac00-7000-8000-000000000001");
            log.delete("01890A5D-AC00-7000-8000-000000000001"); // either case, written lowercase
            byte[] bytes = Files.readAllBytes(segments("events").resolve("seg-000001.ndjson"));
            List<String> lines = List.of(new String(bytes, StandardCharsets.UTF_8).split("\n"));
            assertThat(lines.get(0)).startsWith("128\tb8a13eb7\t");
            assertThat(lines.get(1)).isEqualTo("76\t3234ea87\t{\"op\":\"put\",\"id\":\"01890a5d-ac00-7000-8000-000000000001\","
                    + "\"data\":{\"type\":\"y\"}}");
            assertThat(lines.get(2)).startsWith("59\t");
            assertThat(log.state().index.get("01890a5d-ac00-7000-8000-000000000001").offset()).isEqualTo(142 + 89);
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 2))) {
            assertThat(Files.readString(root.resolve("events/manifest.jsonc"))).isEqualTo(
                    "{\"nextSegment\":2,\"sealed\":[],\"active\":{\"file\":\"seg-000001.ndjson\",\"max\":"
                            + "\"01890a5d-ac00-7000-8000-000000000001\",\"min\":\"01890a5d-ac00-7000-8000-000000000001\","
                            + "\"records\":3,\"ordered\":true}}\n");
            assertThat(log.stats()).isEqualTo(new LogStats(1, 0, 1, 142 + 89 + 72));
        }
    }

    @Test // statement 1
    void badOptionsAreRefused() {
        assertThatThrownBy(() -> SegmentedLogOptions.builder().maxSegmentBytes(128)).isInstanceOf(StorageException.class)
                .hasMessageContaining("Segment size").hasMessageContaining("128");
        assertThatThrownBy(() -> SegmentedLogOptions.builder().sparseIndexInterval(0))
                .hasMessageContaining("Sparse index interval");
        assertThatThrownBy(() -> LogPartition.parse("yearly")).hasMessageContaining("partition").hasMessageContaining("yearly");
        assertThatThrownBy(() -> SegmentedLog.open(root, "../escape")).hasMessageContaining("Invalid log collection name");
    }

    @Test // statement 2
    void putGetStreamDeleteCompact() {
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 1))) {
            for (int i = 0; i < 6; i++) {
                log.put(row(i % 2 == 0 ? "page" : "post", i, 160), id(i));
            }
            assertThat(log.get(id(2)).orElseThrow().data().get("value")).isEqualTo(2L);
            RecordQuery q = RecordQuery.all().after(id(1)).timeRangeMs(BASE_MS + 2, BASE_MS + 4)
                    .whereEqual("kind", "page").limit(2);
            assertThat(ids(log.stream(q))).containsExactly(id(2), id(4));
            assertThat(log.delete(id(2))).isTrue();
            assertThat(log.get(id(2))).isEmpty();
            assertThat(ids(log.stream())).hasSize(5).doesNotContain(id(2));
            log.compact();
            assertThat(log.state().index.get(id(2))).isNull();
            List<String> after = ids(log.stream());
            assertThat(after).hasSize(5).startsWith(id(0));
            assertThat(log.stats().deleted()).isZero();
        }
    }

    @Test // statement 3
    void aPausedReaderSurvivesCompaction() throws Exception {
        List<String> expected = new ArrayList<>();
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(640, 1))) {
            for (int i = 0; i < 40; i++) {
                log.put(row("k", i, 140), id(i));
                expected.add(id(i));
            }
            List<String> oldSegments;
            try (Stream<Path> files = Files.list(segments("events"))) {
                oldSegments = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("seg-")).toList();
            }
            assertThat(oldSegments.stream().filter(n -> n.endsWith(".ndjson")).count()).isGreaterThan(1);
            List<String> seen = new ArrayList<>();
            try (Stream<StorageRecord> s = log.stream()) {
                Iterator<StorageRecord> it = s.iterator();
                seen.add(it.next().id());
                log.compact();
                it.forEachRemaining(r -> seen.add(r.id()));
            }
            assertThat(seen).containsExactlyElementsOf(expected);
            for (String name : oldSegments) {
                assertThat(segments("events").resolve(name)).exists();
            }
            Manifest.Data m = Manifest.read(dev.storh.fs.LocalFiles.at(root.resolve("events")));
            assertThat(m.sealed()).isNotEmpty().allSatisfy(e -> {
                assertThat(e.get("compacted")).isEqualTo(true);
                assertThat((String) e.get("file")).startsWith("compact-");
            });
            assertThat(ids(log.stream())).containsExactlyElementsOf(expected);
        }
    }

    @Test // statement 5
    void aBrokenLineFailsTheStreamUnlessAHandlerTakesIt() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.put(Map.of("a", 1L), id(0));
            Path active = segments("events").resolve("seg-000001.ndjson");
            long offset = Files.size(active);
            Files.write(active, "broken\n".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
            assertThatThrownBy(() -> ids(log.stream())).hasMessageContaining("Malformed");
            List<String> locations = new ArrayList<>();
            assertThat(ids(log.stream(RecordQuery.all().continueOnError((where, e) -> locations.add(where)))))
                    .containsExactly(id(0));
            assertThat(locations).containsExactly(active + ":" + offset);
            VerifyReport<LogStats> report = log.verify();
            assertThat(report.ok()).isFalse();
            assertThat(report.errors()).anySatisfy(e -> assertThat(e).contains("Malformed"));
            // The next append cuts the bad tail first (W8), so nothing acknowledged is ever glued to it.
            log.put(Map.of("a", 2L), id(1));
            assertThat(ids(log.stream())).containsExactly(id(0), id(1));
            assertThat(log.verify().ok()).isTrue();
        }
    }

    @Test // statement 6
    void aFramedLineWithoutOpIsNotAnEnvelope() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.put(Map.of("a", 1L), id(0));
            Files.write(segments("events").resolve("seg-000001.ndjson"),
                    FramedLine.encode(("{\"id\":\"" + id(1) + "\"}").getBytes(StandardCharsets.UTF_8)),
                    StandardOpenOption.APPEND);
            assertThatThrownBy(() -> ids(log.stream())).hasMessageContaining("record envelope");
        }
    }

    @Test // statement 7
    void aMissingSealedSegmentFailsReadsButNotRecovery() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 1))) {
            for (int i = 0; i < 6; i++) {
                log.put(row("k", i, 160), id(i));
            }
            Files.delete(segments("events").resolve("seg-000001.ndjson"));
            assertThatThrownBy(() -> ids(log.stream())).hasMessageContaining("open segment");
            assertThatThrownBy(() -> log.count(RecordQuery.all().whereEqual("kind", "k"))).hasMessageContaining("open segment");
            assertThatThrownBy(log::compact).hasMessageContaining("open segment");
            log.recover(); // the manifest keeps listing the missing file (§2.11)
            assertThat(log.get(id(5)).orElseThrow().data().get("value")).isEqualTo(5L);
            assertThat(log.get(id(0))).isEmpty();
        }
    }

    @Test // statement 8
    void aDirectoryInPlaceOfTheActiveSegmentOrTheLockIsAClearError() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.put(Map.of("a", 1L), id(0));
        }
        Path active = segments("events").resolve("seg-000001.ndjson");
        Files.delete(active);
        Files.createDirectory(active);
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThatThrownBy(() -> log.put(Map.of("a", 2L))).hasMessageContaining("active segment");
            assertThatThrownBy(() -> log.appendMany(List.of(Map.of("a", 2L)))).hasMessageContaining("active segment");
            assertThatThrownBy(() -> log.appendStream(List.of(Map.of("a", 2L)))).hasMessageContaining("active segment");
        }
        Files.createDirectories(root.resolve("other/collection.lock"));
        assertThatThrownBy(() -> SegmentedLog.open(root, "other")).hasMessageContaining("collection lock");
    }

    @Test // statement 9
    void cursorsSeekWithTheSparseIndexAndSurviveItsLoss() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 1))) {
            for (int i = 0; i < 9; i++) {
                log.put(row("k", i, 160), id(i));
            }
            assertThat(ids(log.stream(RecordQuery.all().after(id(1)).limit(2)))).containsExactly(id(2), id(3));
            Path idx = segments("events").resolve("seg-000001.idx.jsonc");
            List<SparseIndex.Entry> entries = SparseIndex.read(dev.storh.fs.LocalFiles.at(idx.getParent()), idx.getFileName().toString());
            assertThat(entries.get(0)).isEqualTo(new SparseIndex.Entry(id(0), 0));
            assertThat(Files.readString(idx)).startsWith("{\"entries\":[{\"id\":\"" + id(0) + "\",\"offset\":0},");
            Files.delete(idx);
            assertThat(ids(log.stream(RecordQuery.all().after(id(0)).limit(1)))).containsExactly(id(1));
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 1))) {
            assertThat(ids(log.stream(RecordQuery.all().after(id(0)).limit(1)))).containsExactly(id(1));
        }
    }

    @Test // statement 10
    void compactingAnEmptyLogAndAMissingActiveFile() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.compact();
            assertThat(ids(log.stream())).isEmpty();
        }
        Files.delete(segments("events").resolve("seg-000001.ndjson"));
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThat(segments("events").resolve("seg-000001.ndjson")).exists();
            log.put(Map.of("a", 1L), id(0));
            assertThat(log.count()).isEqualTo(1);
        }
    }

    @Test // statement 11 (RecordQuery part) and 13
    void countsAgreeWithScans() {
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(900, 1))) {
            for (int i = 0; i < 9; i++) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("metric", i == 0 ? (Object) 1.5 : (Object) (long) i);
                m.put("nullable", i == 1 ? null : "v");
                m.put("value", (long) i);
                log.put(m, id(i));
            }
            assertThat(log.count(RecordQuery.all().whereEqual("metric", 1.5))).isEqualTo(1);
            assertThat(log.count(RecordQuery.all().whereEqual("metric", 1L))).isEqualTo(1);
            assertThat(log.count(RecordQuery.all().whereEqual("metric", 1.0))).isZero();
            assertThat(log.count(RecordQuery.all().whereEqual("nullable", null))).isEqualTo(1);
            assertThat(log.count(RecordQuery.all().after(id(1)).limit(2))).isEqualTo(2);
            assertThat(log.count(RecordQuery.all().after(id(1)).limit(3).whereEqual("nullable", "v"))).isEqualTo(3);
            log.delete(id(1));
            assertThat(log.count(RecordQuery.all().after(id(0)).timeRangeMs(BASE_MS, BASE_MS + 2))).isEqualTo(1);
            assertThat(log.count()).isEqualTo(8);
            assertThat(log.count(RecordQuery.all().after(id(0)))).isEqualTo(7);
        }
    }

    @Test // statement 12
    void afterCompactionARecordResolvesThroughItsAlias() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 1))) {
            for (int i = 0; i < 6; i++) {
                log.put(row("k", i, 160), id(i));
            }
            log.compact();
            StateIndex.Entry e = log.state().index.get(id(0));
            assertThat(e.file()).startsWith("compact-");
            assertThat(e.aliases()).hasSize(1);
            Files.delete(segments("events").resolve(e.file()));
            assertThat(log.get(id(0)).orElseThrow().data().get("value")).isEqualTo(0L);
        }
    }

    @Test // statement 14
    void cursorAndTimeRangeOpenFewerSegmentsThanExist() {
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(2048, 2))) {
            List<Map<String, ?>> rows = new ArrayList<>();
            for (int i = 0; i < 420; i++) {
                rows.add(Map.of("id", id(i), "data", Map.of("seq", (long) i)));
            }
            log.appendMany(rows);
            int total = log.state().sealed.size() + 1;
            assertThat(total).isGreaterThan(10);
            for (int round = 0; round < 2; round++) {
                long before = log.segmentsOpened();
                assertThat(ids(log.stream(RecordQuery.all().after(id(299)).limit(12))))
                        .containsExactlyElementsOf(IntStream.range(300, 312).mapToObj(LogTestSupport::id).toList());
                assertThat(log.segmentsOpened() - before).isLessThan(total).isLessThanOrEqualTo(2);
                before = log.segmentsOpened();
                assertThat(ids(log.stream(RecordQuery.all().timeRangeMs(BASE_MS + 200, BASE_MS + 205))))
                        .containsExactlyElementsOf(IntStream.rangeClosed(200, 205).mapToObj(LogTestSupport::id).toList());
                assertThat(log.segmentsOpened() - before).isLessThan(total);
                log.compact();
                total = log.state().sealed.size() + 1;
            }
        }
    }

    @Test // statement 17
    void partitionsAreUtcDays() {
        SegmentedLogOptions daily = SegmentedLogOptions.builder().partition(LogPartition.DAILY)
                .partitionTimestampMs(1_700_000_000_000L).build();
        SegmentedLogOptions monthly = SegmentedLogOptions.builder().partition(LogPartition.MONTHLY)
                .partitionTimestampMs(1_700_000_000_000L).build();
        try (SegmentedLog d = SegmentedLog.open(root, "events", daily);
                SegmentedLog m = SegmentedLog.open(root, "events", monthly)) {
            assertThat(d.collectionDir()).isEqualTo(root.toAbsolutePath().resolve("events/partitions/2023-11-14"));
            assertThat(m.collectionDir()).isEqualTo(root.toAbsolutePath().resolve("events/partitions/2023-11"));
            d.put(Map.of("a", 1L));
            assertThat(m.count()).isZero();
            assertThat(d.collectionDir().resolve("manifest.jsonc")).exists();
        }
    }

    @Test // statement 18
    void bulkAppendsAndCounts() {
        SegmentedLogOptions daily = SegmentedLogOptions.builder().maxSegmentBytes(512).sparseIndexInterval(1)
                .partition(LogPartition.DAILY).build();
        try (SegmentedLog log = SegmentedLog.open(root, "events", daily)) {
            List<StorageRecord> written = log.appendMany(List.of(
                    Map.of("id", id(0), "data", Map.of("type", "old", "value", 1L)),
                    Map.of("id", id(1), "data", Map.of("type", "new", "value", 2L)),
                    Map.of("id", id(2), "data", Map.of("type", "new", "value", 3L))));
            assertThat(written).extracting(StorageRecord::id).containsExactly(id(0), id(1), id(2));
            assertThat(log.count(RecordQuery.all().whereEqual("type", "new"))).isEqualTo(2);
            assertThat(ids(log.stream(RecordQuery.all().whereEqual("type", "new").after(id(1)).limit(1))))
                    .containsExactly(id(2));
            assertThat(log.health().ok()).isTrue();
            assertThat(log.verify().ok()).isTrue();
            assertThat(log.repair().ok()).isTrue();
            log.delete(id(2));
            assertThat(log.count()).isEqualTo(2);
            assertThat(log.count(RecordQuery.all().whereEqual("type", "new"))).isEqualTo(1);
            assertThat(log.count(RecordQuery.all().whereEqual("type", "new").after(id(0)))).isEqualTo(1);
            log.put(Map.of("type", "old", "value", 2L), id(1));
            assertThat(log.count(RecordQuery.all().whereEqual("type", "new"))).isZero();
            assertThat(log.count(RecordQuery.all().whereEqual("type", "old"))).isEqualTo(2);
            assertThat(log.stats().records()).isEqualTo(2);
            assertThat(log.stats().deleted()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test // statement 19
    void appendStreamAndAppendManyOverwrite() {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            long n = log.appendStream(List.of(Map.of("status", "published"), Map.of("status", "published"),
                    Map.of("status", "draft")));
            assertThat(n).isEqualTo(3);
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThat(log.count()).isEqualTo(3);
            String first = ids(log.stream(RecordQuery.all().whereEqual("status", "published").limit(1))).get(0);
            log.appendMany(List.of(Map.of("id", first, "data", Map.of("status", "draft"))));
            assertThat(log.count(RecordQuery.all().whereEqual("status", "published"))).isEqualTo(1);
            assertThat(log.count(RecordQuery.all().whereEqual("status", "draft"))).isEqualTo(2);
            // An item whose data is not a map is stored whole, its id key included (§2.7).
            StorageRecord whole = log.appendMany(List.of(Map.of("id", id(7), "type", "t"))).get(0);
            assertThat(whole.id()).isEqualTo(id(7));
            assertThat(log.get(id(7)).orElseThrow().data()).isEqualTo(Map.of("id", id(7), "type", "t"));
            // Invalid input anywhere writes nothing.
            long before = log.count();
            assertThatThrownBy(() -> log.appendMany(List.of(Map.of("ok", 1L), Map.of("id", "nope", "data", Map.of()))))
                    .hasMessageContaining("Log item 1").hasMessageContaining("Invalid UUIDv7");
            assertThatThrownBy(() -> log.put(Map.of("0", "x"), id(8))).hasMessageContaining("\"0\"").hasMessageContaining(id(8));
            assertThat(log.count()).isEqualTo(before);
        }
    }

    @Test // statement 20
    void timeRangesBeforeAndAfterCompactionIncludingUnorderedSegments() {
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 4))) {
            List<Map<String, ?>> rows = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                rows.add(Map.of("id", id(i), "data", Map.of("i", (long) i)));
            }
            log.appendMany(rows);
            for (int round = 0; round < 2; round++) {
                assertThat(ids(log.stream(RecordQuery.all().timeRangeMs(UuidV7.timestampMs(id(12)), UuidV7.timestampMs(id(14))))))
                        .containsExactly(id(12), id(13), id(14));
                log.compact();
            }
        }
        try (SegmentedLog log = SegmentedLog.open(root, "unordered", opts(512, 1))) {
            log.put(Map.of("i", 0L), id(100));
            log.put(Map.of("i", 20L), id(120));
            log.put(Map.of("i", 10L), id(110));
            for (int round = 0; round < 2; round++) {
                assertThat(ids(log.stream(RecordQuery.all().timeRangeMs(BASE_MS + 110, BASE_MS + 110)))).containsExactly(id(110));
                log.compact();
            }
        }
    }

    @Test // statement 21
    void retention() {
        java.time.Clock clock = java.time.Clock.fixed(java.time.Instant.ofEpochMilli(BASE_MS + 10 * 86_400_000L),
                java.time.ZoneOffset.UTC);
        try (SegmentedLog log = SegmentedLog.open(root, "events", SegmentedLogOptions.builder().clock(clock).build())) {
            log.put(Map.of("a", 0L), id(0));
            log.put(Map.of("a", 1L), id(1));
            assertThat(log.retain().olderThanMs(UuidV7.timestampMs(id(0))).compact()).isEqualTo(1);
            assertThat(log.get(id(0))).isEmpty();
            assertThat(log.get(id(1))).isPresent();
            assertThatThrownBy(() -> log.retain().olderThanDays(0)).hasMessageContaining("Retention");
            assertThatThrownBy(() -> log.retain().compact()).hasMessageContaining("cutoff");
            log.put(Map.of("a", 2L), UuidV7.generate(BASE_MS + 9 * 86_400_000L + 1));
            // cutoff = now - 1 day = BASE + 9 days: id(1) goes, the record a day later stays
            assertThat(log.retain().olderThanDays(1).compact()).isEqualTo(1);
            assertThat(log.count()).isEqualTo(1);
            assertThat(log.stats().deleted()).isZero();
        }
    }

    @Test // statement 22, adapted: the original never sees other writers (W1); this log catches up
    void linesAppendedByAnotherWriterBecomeVisibleAndDriftIsReported() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            log.put(Map.of("a", 0L), id(0));
            Files.write(segments("events").resolve("seg-000001.ndjson"), LogLine.encodePut(id(1), Map.of("a", 1L)),
                    StandardOpenOption.APPEND);
            assertThat(log.get(id(1)).orElseThrow().data()).isEqualTo(Map.of("a", 1L));
            assertThat(log.count()).isEqualTo(2);
            assertThat(log.verify().ok()).isTrue();
            synchronized (log.state()) {
                log.state().index.remove(id(1)); // an in-memory state that no longer matches the files
            }
            VerifyReport<LogStats> report = log.verify();
            assertThat(report.ok()).isFalse();
            assertThat(report.errors()).anySatisfy(e -> assertThat(e).contains("state index drift"));
            assertThat(log.repair().ok()).isTrue();
            assertThat(log.get(id(1))).isPresent();
            assertThat(log.count()).isEqualTo(2);
            assertThat(log.verify().ok()).isTrue();
        }
    }

    @Test // statement 23 (the real crash is in SegmentedLogProcessTest)
    void unreferencedCompactionOutputIsDeletedAtOpen() throws Exception {
        List<String> expected = new ArrayList<>();
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 1))) {
            for (int i = 0; i < 8; i++) {
                log.put(row("k", i, 160), id(i));
                expected.add(id(i));
            }
        }
        Path seg = segments("events");
        Files.writeString(seg.resolve("compact-deadbeef-000001.ndjson"), "half written");
        Files.writeString(seg.resolve("compact-deadbeef-000001.idx.jsonc"), "{\"entries\":[]}");
        Files.createDirectories(root.resolve("events/segments.compact-leftover/nested"));
        Files.createDirectories(root.resolve("events/index.rebuild-1"));
        Files.createDirectories(root.resolve("events/index.backup-1"));
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 1))) {
            try (Stream<Path> files = Files.list(seg)) {
                assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("compact-"));
            }
            assertThat(root.resolve("events/segments.compact-leftover")).doesNotExist();
            assertThat(root.resolve("events/index.rebuild-1")).doesNotExist();
            assertThat(root.resolve("events/index.backup-1")).doesNotExist();
            assertThat(ids(log.stream())).containsExactlyElementsOf(expected);
            assertThat(log.verify().ok()).isTrue();
        }
    }

    @Test // statement 24
    void writerMarkers() throws Exception {
        Path writers = root.resolve("events/.storh/writers");
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            try (Stream<Path> m = Files.list(writers)) {
                assertThat(m.map(p -> p.getFileName().toString()).toList()).singleElement()
                        .satisfies(n -> assertThat(n).matches(ProcessHandle.current().pid() + "\\.[0-9a-f]{8}"));
            }
        }
        try (Stream<Path> m = Files.list(writers)) {
            assertThat(m.toList()).isEmpty();
        }
        Path stale = segments("events").resolve(".99999999.abcdef01.1.tmp");
        Files.writeString(stale, "x");
        Files.setLastModifiedTime(stale, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 120_000));
        SegmentedLog.open(root, "events").close();
        assertThat(stale).exists();
        Files.createFile(writers.resolve("99999999.deadbeef"));
        SegmentedLog.open(root, "events").close();
        assertThat(stale).doesNotExist();
        assertThat(writers.resolve("99999999.deadbeef")).doesNotExist();
    }

    @Test // statement 25
    void deletesThenCompactionThenReopen() {
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 1))) {
            List<Map<String, ?>> rows = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                rows.add(Map.of("id", id(i), "data", Map.of("sequence", (long) i)));
            }
            log.appendMany(rows);
            for (int i = 0; i < 10; i++) {
                log.delete(id(i));
            }
            log.compact();
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 1))) {
            List<String> all = ids(log.stream());
            assertThat(all).hasSize(20).first().isEqualTo(id(10));
            assertThat(log.stream(RecordQuery.all().timeRangeMs(BASE_MS + 5, BASE_MS + 14))
                    .map(r -> r.data().get("sequence")).toList()).containsExactly(10L, 11L, 12L, 13L, 14L);
            assertThat(log.count()).isEqualTo(20);
            assertThat(log.verify().stats().records()).isEqualTo(20);
        }
    }

    @Test // §2.8 step 1: a stream is a snapshot; later writes of the same instance do not change it
    void aRunningStreamDoesNotSeeLaterWrites() {
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(512, 1))) {
            for (int i = 0; i < 5; i++) {
                log.put(Map.of("v", (long) i), id(i));
            }
            List<StorageRecord> seen = new ArrayList<>();
            try (Stream<StorageRecord> s = log.stream()) {
                Iterator<StorageRecord> it = s.iterator();
                seen.add(it.next());
                log.put(Map.of("v", 100L), id(3));
                log.delete(id(4));
                log.put(Map.of("v", 5L), id(5));
                it.forEachRemaining(seen::add);
            }
            assertThat(seen).extracting(StorageRecord::id).containsExactly(id(0), id(1), id(2), id(3), id(4));
            assertThat(seen.get(3).data()).isEqualTo(Map.of("v", 3L));
            assertThat(ids(log.stream())).containsExactly(id(0), id(1), id(2), id(3), id(5));
        }
    }
}
