package dev.storh.log;

import static dev.storh.log.LogTestSupport.id;
import static dev.storh.log.LogTestSupport.ids;
import static dev.storh.log.LogTestSupport.opts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.query.RecordQuery;
import dev.storh.store.RepairReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code repair()} takes damaged lines out of sealed and active segments (copied aside), keeps every
 * valid line, rebuilds the state and the sparse indexes, and leaves {@code stream()} and {@code verify()}
 * clean, in this instance and in others. Seeded damage: seeds 1..40, or {@code -Dstorh.seed=N}.
 */
class SegmentedLogRepairTest {

    private static final int RECORDS = 40;

    @TempDir
    Path root;

    private Path segment(String name) {
        return root.resolve("events/segments").resolve(name);
    }

    /** 40 records over several sealed segments (max 1024 bytes, sparse index every 2 lines) plus the active one. */
    private Map<String, Map<String, Object>> writeRecords() {
        Map<String, Map<String, Object>> written = new LinkedHashMap<>();
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(1024, 2))) {
            for (int i = 0; i < RECORDS; i++) {
                Map<String, Object> data = Map.of("n", (long) i, "text", "record number " + i);
                log.put(data, id(i));
                written.put(id(i), data);
            }
            assertThat(log.stats().segments()).isGreaterThan(3);
        }
        return written;
    }

    private static List<long[]> lines(byte[] bytes) {
        List<long[]> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                lines.add(new long[] {start, i + 1});
                start = i + 1;
            }
        }
        return lines;
    }

    @Test
    void repairRemovesDamagedLinesFromSealedAndActiveSegmentsAndEverythingIsCleanAfter() throws Exception {
        Map<String, Map<String, Object>> written = writeRecords();
        Path sealed = segment("seg-000001.ndjson");
        byte[] bytes = Files.readAllBytes(sealed);
        List<long[]> sealedLines = lines(bytes);
        assertThat(sealedLines.size()).isGreaterThanOrEqualTo(3);
        long damagedAt = sealedLines.get(1)[0];
        bytes[(int) damagedAt + 30] ^= 0x20; // line 2 of the first sealed segment: checksum mismatch
        Files.write(sealed, bytes);
        String lostInSealed = id(1);

        try (SegmentedLog other = SegmentedLog.open(root, "events", opts(1024, 2));
                SegmentedLog log = SegmentedLog.open(root, "events", opts(1024, 2))) {
            log.put(Map.of("n", 100L), id(100));
            Path active = log.state().path(log.state().active.file);
            byte[] garbage = "garbage that is no frame\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            long activeDamageAt = Files.size(active);
            Files.write(active, garbage, java.nio.file.StandardOpenOption.APPEND);
            // a peer's valid line after the garbage: damage inside the active segment
            Files.write(active, LogLine.encodePut(id(101), Map.of("n", 101L)), java.nio.file.StandardOpenOption.APPEND);

            assertThat(log.verify().ok()).isFalse();
            assertThat(log.verify().errors()).anySatisfy(e -> assertThat(e).contains(sealed + ":" + damagedAt))
                    .anySatisfy(e -> assertThat(e).contains(active + ":" + activeDamageAt));
            assertThatThrownBy(() -> ids(log.stream())).isInstanceOf(StorageException.class)
                    .hasMessageContaining(sealed + ":" + damagedAt);

            RepairReport<LogRepair> report = log.repair();
            assertThat(report.ok()).isTrue();
            assertThat(report.removed()).hasSize(2);
            assertThat(report.removed().get(0)).startsWith(sealed + ":" + damagedAt + ": ").contains(".storh/corrupt/");
            assertThat(report.removed().get(1)).startsWith(active + ":" + activeDamageAt + ": " + garbage.length + " bytes");
            assertThat(report.toMap()).containsKey("removed");

            Map<String, Map<String, Object>> expected = new LinkedHashMap<>(written);
            expected.remove(lostInSealed);
            expected.put(id(100), Map.of("n", 100L));
            expected.put(id(101), Map.of("n", 101L));
            for (SegmentedLog instance : List.of(log, other)) {
                assertThat(instance.verify().errors()).as("verify of %s", instance).isEmpty();
                assertThat(streamed(instance.stream())).as("stream of %s", instance).isEqualTo(expected);
                // the sparse indexes were rebuilt: a cursor that seeks lands on the right lines
                assertThat(ids(instance.stream(RecordQuery.all().after(id(20)).limit(3))))
                        .containsExactly(id(21), id(22), id(23));
                assertThat(instance.get(id(2)).orElseThrow().data()).isEqualTo(written.get(id(2)));
                assertThat(instance.count()).isEqualTo(expected.size());
            }
            log.put(Map.of("n", 102L), id(102));
            assertThat(log.get(id(102))).isPresent();
        }
        try (Stream<Path> kept = Files.list(root.resolve("events/.storh/corrupt"))) {
            List<Path> files = kept.sorted().toList();
            assertThat(files).hasSize(2);
            assertThat(files).anySatisfy(f -> assertThat(f.getFileName().toString())
                    .startsWith("seg-000001.ndjson." + damagedAt + "-"));
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(1024, 2))) {
            assertThat(log.verify().ok()).isTrue();
            assertThat(log.count()).isEqualTo(RECORDS - 1 + 3);
        }
    }

    @Test
    void aFlippedLineFeedLosesOnlyTheLineItEnds() throws Exception {
        Map<String, Map<String, Object>> written = writeRecords();
        Path sealed = segment("seg-000002.ndjson");
        byte[] bytes = Files.readAllBytes(sealed);
        List<long[]> lines = lines(bytes);
        String lost = idOnLine(bytes, lines.get(0));
        bytes[(int) lines.get(0)[1] - 1] = 'x'; // the LF of the first line: it glues onto the second
        Files.write(sealed, bytes);
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(1024, 2))) {
            assertThat(log.count()).isEqualTo(RECORDS - 1);
            assertThat(log.get(idOnLine(bytes, new long[] {lines.get(1)[0], lines.get(1)[1]}))).isPresent();
            log.repair();
            assertThat(log.verify().errors()).isEmpty();
            Map<String, Map<String, Object>> expected = new LinkedHashMap<>(written);
            expected.remove(lost);
            assertThat(streamed(log.stream())).hasSize(RECORDS - 1).isEqualTo(expected);
        }
    }

    static LongStream seeds() {
        String override = System.getProperty("storh.seed");
        return override != null ? LongStream.of(Long.parseLong(override)) : LongStream.rangeClosed(1, 40);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void seededDamageNeverLosesAnIntactRecordAndRepairLeavesACleanLog(long seed) throws Exception {
        Map<String, Map<String, Object>> written = writeRecords();
        Random r = new Random(seed);
        List<Path> segments;
        try (Stream<Path> files = Files.list(root.resolve("events/segments"))) {
            segments = files.filter(p -> p.toString().endsWith(".ndjson")).sorted().toList();
        }
        Set<String> damagedIds = new HashSet<>();
        List<String> what = new ArrayList<>();
        int damages = 1 + r.nextInt(3);
        for (int k = 0; k < damages; k++) {
            Path file = segments.get(r.nextInt(segments.size()));
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length == 0) {
                continue;
            }
            int at = r.nextInt(bytes.length);
            for (long[] line : lines(bytes)) {
                if (at >= line[0] && at < line[1]) {
                    damagedIds.add(idOnLine(bytes, line));
                }
            }
            bytes[at] ^= (byte) (1 + r.nextInt(255));
            Files.write(file, bytes);
            what.add(file.getFileName() + "@" + at);
        }
        String message = "seed " + seed + ", flips " + what + ", damaged ids " + damagedIds
                + " (-Dstorh.seed=" + seed + " repeats it)";
        Map<String, Map<String, Object>> intact = new LinkedHashMap<>(written);
        damagedIds.forEach(intact::remove);
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(1024, 2))) {
            for (Map.Entry<String, Map<String, Object>> e : intact.entrySet()) {
                assertThat(log.get(e.getKey()).map(StorageRecord::data)).as(message).contains(e.getValue());
            }
            RepairReport<LogRepair> report = log.repair();
            assertThat(log.verify().errors()).as(message + ": " + report).isEmpty();
            Map<String, Map<String, Object>> after = streamed(log.stream());
            assertThat(after).as(message).containsAllEntriesOf(intact);
            assertThat(after.keySet()).as(message).isSubsetOf(written.keySet());
            log.put(Map.of("n", 999L), id(999));
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", opts(1024, 2))) {
            assertThat(log.verify().errors()).as(message + " after reopen").isEmpty();
            assertThat(streamed(log.stream())).as(message).containsAllEntriesOf(intact).containsKey(id(999));
        }
    }

    private static String idOnLine(byte[] bytes, long[] line) {
        String text = new String(bytes, (int) line[0], (int) (line[1] - line[0]), java.nio.charset.StandardCharsets.ISO_8859_1);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}")
                .matcher(text);
        return m.find() ? m.group() : "none";
    }

    private static Map<String, Map<String, Object>> streamed(Stream<StorageRecord> stream) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        try (stream) {
            stream.forEach(r -> out.put(r.id(), r.data()));
        }
        return out;
    }
}
