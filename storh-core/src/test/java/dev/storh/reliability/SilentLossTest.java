package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.query.FieldPath;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Losses that went without a word before: a compaction of a sealed log segment that lost lines, a
 * sealed segment file that is gone, and a log or index manifest whose damage still decodes as JSON
 * (a renamed key). Each is reported or refused with an error naming the file, and nothing is deleted
 * that a repair could still need.
 */
class SilentLossTest {

    @TempDir
    Path root;

    /** Puts 300 records into the log "events" and compacts it (one compacted segment). @return their ids */
    private List<String> compactedLog() {
        List<String> ids = new ArrayList<>();
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            for (int i = 0; i < 300; i++) {
                ids.add(log.put(Map.of("n", (long) i)).id());
            }
            log.compact();
        }
        return ids;
    }

    private Path compactedSegment() throws IOException {
        try (Stream<Path> all = Files.list(root.resolve("events/segments"))) {
            return all.filter(p -> p.getFileName().toString().startsWith("compact-") && p.toString().endsWith(".ndjson"))
                    .findFirst().orElseThrow();
        }
    }

    /** @return every file below the log's folder (but the lock and writer markers) with its bytes */
    private Map<String, String> files() throws IOException {
        Map<String, String> all = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root.resolve("events"))) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                String name = root.relativize(p).toString();
                if (!name.contains("writers") && !name.endsWith(".lock")) {
                    all.put(name, Arrays.toString(Files.readAllBytes(p)));
                }
            }
        }
        return all;
    }

    @Test
    void aCompactionOfASealedSegmentThatLostLinesIsRefusedUntilRepairAcceptsTheLoss() throws Exception {
        List<String> ids = compactedLog();
        Path segment = compactedSegment();
        byte[] bytes = Files.readAllBytes(segment);
        Files.write(segment, Arrays.copyOf(bytes, bytes.length / 2));
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            long kept = log.count();
            log.put(Map.of("n", 300L)); // something to roll: the refusal comes before the roll
            Map<String, String> before = files();
            String lost = "Lines missing from sealed log segment " + segment + ": the manifest counts 300, the segment holds " + kept;
            assertThatThrownBy(log::compact).isInstanceOf(StorageException.class)
                    .hasMessageStartingWith("Could not compact log " + root.resolve("events")).hasMessageContaining(lost);
            assertThatThrownBy(() -> log.retain().olderThanMs(0).compact()).isInstanceOf(StorageException.class)
                    .hasMessageContaining(lost);
            assertThat(files()).isEqualTo(before);
            assertThat(log.repair().removed()).anySatisfy(line -> assertThat(line).startsWith(lost));
            log.compact();
            assertThat(log.verify().errors()).isEmpty();
            assertThat(log.count()).isEqualTo(kept + 1);
            assertThat(ids.subList(0, (int) kept)).allSatisfy(id -> assertThat(log.get(id)).isPresent());
        }
    }

    @Test
    void aMissingSealedSegmentIsReportedByOpenAndVerifyAndRefusedByCompactionUntilRepairDropsIt() throws Exception {
        SegmentedLogOptions small = SegmentedLogOptions.builder().maxSegmentBytes(512).sparseIndexInterval(1).build();
        List<String> ids = new ArrayList<>();
        try (SegmentedLog log = SegmentedLog.open(root, "events", small)) {
            for (int i = 0; i < 12; i++) {
                ids.add(log.put(Map.of("n", (long) i, "blob", "x".repeat(160))).id());
            }
        }
        Path gone = root.resolve("events/segments/seg-000001.ndjson");
        String manifest = Files.readString(root.resolve("events/manifest.jsonc"));
        assertThat(manifest).contains("\"file\":\"seg-000002.ndjson\"");
        Files.delete(gone);
        String missing = "Sealed log segment missing: " + gone + " (the manifest counts 3 records in it";
        String warnings = stderrOf(() -> SegmentedLog.open(root, "events", small).close());
        assertThat(warnings).contains(missing);
        try (SegmentedLog log = SegmentedLog.open(root, "events", small)) {
            assertThat(log.verify().errors()).anySatisfy(e -> assertThat(e).startsWith(missing))
                    .noneSatisfy(e -> assertThat(e).contains("Progress"));
            assertThatThrownBy(log::compact).isInstanceOf(StorageException.class)
                    .hasMessageStartingWith("Could not open segment: " + gone).hasMessageContaining(missing);
            assertThat(log.repair().removed()).singleElement().satisfies(line -> assertThat(line).startsWith(missing)
                    .endsWith("; dropped from the manifest"));
            assertThat(log.verify().errors()).isEmpty();
            assertThat(ids.subList(0, 3)).allSatisfy(id -> assertThat(log.get(id)).isEmpty());
            assertThat(ids.subList(3, 12)).allSatisfy(id -> assertThat(log.get(id)).isPresent());
            log.compact();
            assertThat(log.count()).isEqualTo(9);
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", small)) {
            assertThat(log.verify().errors()).isEmpty();
            assertThat(log.count()).isEqualTo(9);
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "\"sealed\"|\"sealeD\"|the top level lacks \"sealed\" (beside the unknown key(s) \"sealeD\": a damaged name?)",
        "\"active\"|\"activ%\"|the top level lacks \"active\" (beside the unknown key(s) \"activ%\": a damaged name?)",
        "{\"file\":\"compact-|{\"fil\":\"compact-|sealed entry 0 lacks \"file\" (beside the unknown key(s) \"fil\": a damaged name?)"})
    void aRenamedKeyThatWouldLoseSegmentsStopsTheOpenBeforeAnythingIsDeleted(String key, String renamed, String problem)
            throws Exception {
        List<String> ids = compactedLog();
        Path manifest = root.resolve("events/manifest.jsonc");
        String sound = Files.readString(manifest);
        assertThat(sound).contains(key);
        Files.writeString(manifest, sound.replace(key, renamed));
        Map<String, String> before = files();
        assertThatThrownBy(() -> SegmentedLog.open(root, "events")).isInstanceOf(StorageException.class)
                .hasMessageStartingWith("Damaged log manifest " + manifest + ": " + problem)
                .hasMessageContaining("nothing was read, cut or deleted");
        assertThat(files()).isEqualTo(before);
        Files.writeString(manifest, sound);
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            assertThat(ids).allSatisfy(id -> assertThat(log.get(id)).isPresent());
            assertThat(log.verify().errors()).isEmpty();
        }
    }

    @Test
    void aRenamedCountOfTheManifestIsReportedByVerifyUntilRepairRewritesIt() throws Exception {
        List<String> ids = compactedLog();
        Path manifest = root.resolve("events/manifest.jsonc");
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            // another process's writer damaged it while this instance had the log open
            Files.writeString(manifest, Files.readString(manifest).replaceFirst("\"records\"", "\"recorDs\""));
            assertThat(log.verify().errors()).singleElement().satisfies(e -> assertThat(e).isEqualTo("Damaged log manifest "
                    + manifest + ": sealed entry 0 lacks \"records\" (beside the unknown key(s) \"recorDs\": a damaged name?)"
                    + " (open rewrites the keys it can; put the others back by hand)"));
            log.repair();
            assertThat(log.verify().errors()).isEmpty();
            assertThat(ids).allSatisfy(id -> assertThat(log.get(id)).isPresent());
        }
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
        "manifest.jsonc|\"unique\"|\"uniqUe\"|Damaged index manifest|a malformed definition {field=kind, uniqUe=true, range=false}",
        "manifest.jsonc|\"fields\"|\"fieldz\"|Damaged index manifest|no fields list",
        "paths.jsonc|\"ignoreCase\"|\"ignoreCasf\"|Damaged path index manifest|a malformed definition {path=[a, b], unique=false,"
                + " ignoreCasf=false}",
        "paths.jsonc|\"indexes\"|\"indexeS\"|Damaged path index manifest|no indexes list"})
    void aRenamedKeyOfAnIndexManifestIsReportedAndRepairSetsItAside(String file, String key, String renamed, String error,
            String problem) throws Exception {
        Path manifest = root.resolve("docs/.storh/indexes/" + file);
        try (DocStore docs = DocStore.open(root, "docs")) {
            docs.indexes().field("kind").unique().definePath(FieldPath.of("a", "b"), false, false).sync();
            for (long i = 0; i < 5; i++) {
                docs.put(Map.of("kind", i, "a", Map.of("b", "v" + i)));
            }
            assertThat(docs.verify().errors()).isEmpty();
        }
        String sound = Files.readString(manifest);
        assertThat(sound).contains(key);
        Files.writeString(manifest, sound.replace(key, renamed));
        try (DocStore docs = DocStore.open(root, "docs")) {
            assertThat(docs.verify().errors()).anySatisfy(e -> assertThat(e).startsWith(error + ": " + manifest + " (" + problem + ";"));
            assertThat(docs.repair().removed()).anySatisfy(line -> assertThat(line).startsWith(error + ": " + manifest)
                    .contains(".storh/corrupt/indexes-" + file));
            assertThat(docs.verify().errors()).isEmpty();
            assertThat(docs.stream().count()).isEqualTo(5);
        }
        try (DocStore docs = DocStore.open(root, "docs")) {
            assertThat(docs.verify().errors()).isEmpty();
        }
    }

    /** @return what {@code action} printed to the standard error stream (where the test logger writes) */
    private static String stderrOf(Runnable action) {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(err);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
