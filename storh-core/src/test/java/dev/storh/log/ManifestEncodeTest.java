package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifest written piece by piece, each sealed entry's text kept by its segment until a value it
 * shows changes, is byte for byte the canonical encoding of the whole manifest object, however the
 * segments change between two writes.
 */
class ManifestEncodeTest {

    /** The manifest as one object, encoded at once: the bytes {@link Manifest#encode} must give. */
    private static byte[] whole(long next, List<Segment> sealed, List<Object> invalid, Segment active, Map<String, Object> extra) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("nextSegment", next);
        List<Object> items = new ArrayList<>();
        sealed.forEach(s -> items.add(s.toManifest()));
        items.addAll(invalid);
        root.put("sealed", items);
        Map<String, Object> activeEntry = active.toManifest();
        activeEntry.remove("index");
        activeEntry.remove("compacted");
        root.put("active", activeEntry);
        extra.forEach(root::putIfAbsent);
        return CanonicalJson.encodeCompact(root);
    }

    private static Segment segment(int n, int lines, boolean seal) {
        Segment s = new Segment(LogFiles.segmentName(n), null, false, new LinkedHashMap<>());
        long at = 0;
        for (int i = 0; i < lines; i++) {
            s.observe(LogTestSupport.id(n * 100 + i), at, at + 150, 2);
            at += 150;
        }
        if (seal) {
            s.index = LogFiles.indexName(s.file); // named as sealed, its sparse list left open for the changes below
        }
        return s;
    }

    private static void assertSameBytes(long next, List<Segment> sealed, List<Object> invalid, Segment active,
            Map<String, Object> extra) {
        byte[] encoded = Manifest.encode(next, sealed, invalid, active, extra);
        assertThat(new String(encoded, StandardCharsets.UTF_8))
                .isEqualTo(new String(whole(next, sealed, invalid, active, extra), StandardCharsets.UTF_8));
    }

    @Test
    void piecesMakeTheBytesOfTheWholeObjectAsSegmentsChange() {
        Segment empty = segment(1, 0, false);
        assertSameBytes(2, List.of(), List.of(), empty, Map.of());
        List<Segment> sealed = new ArrayList<>();
        for (int n = 1; n <= 4; n++) {
            sealed.add(segment(n, n + 1, true));
        }
        Segment active = segment(5, 3, false);
        Map<String, Object> extra = new LinkedHashMap<>();
        assertSameBytes(6, sealed, List.of(), active, extra);
        assertSameBytes(6, sealed, List.of(), active, extra); // the kept texts
        Segment changed = sealed.get(1);
        changed.observe(LogTestSupport.id(9_999), 900, 1_050, 2); // a new line: records and max change
        assertSameBytes(6, sealed, List.of(), active, extra);
        changed.observe(LogTestSupport.id(1), 1_050, 1_200, 2); // out of order now
        assertThat(changed.ordered).isFalse();
        assertSameBytes(6, sealed, List.of(), active, extra);
        sealed.get(2).compacted = true;
        sealed.get(3).claimedRecords = 50; // lines lost: the claim is shown
        sealed.get(0).extra.put("note", "kept \u00e9");
        List<Object> invalid = List.of(Map.of("file", 7L), "junk");
        extra.put("writer", Map.of("by", "php", "n", List.of(1L, 2.5)));
        extra.put("sealed", "never written twice");
        assertSameBytes(6, sealed, invalid, active, extra);
        sealed.get(3).claimedRecords = -1;
        assertSameBytes(6, sealed, invalid, active, extra);
    }

    @Test
    void aLogThatRollsManyTimesWritesTheManifestItReadsBack(@TempDir Path root) throws Exception {
        Path manifest = root.resolve("events").resolve(LogFiles.MANIFEST);
        int rolls = 0;
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(512, 2))) {
            LogState state = log.state();
            for (int i = 0; i < 60; i++) {
                int sealedBefore = state.sealed.size();
                log.put(Map.of("n", (long) i, "pad", "x".repeat(100)), LogTestSupport.id(i));
                if (state.sealed.size() > sealedBefore) { // this put rolled: the manifest names the new, empty active
                    rolls++;
                    assertThat(Files.readString(manifest)).as("after roll " + rolls).isEqualTo(new String(
                            whole(state.nextSegment(), state.sealed, List.of(), state.active, Map.of()), StandardCharsets.UTF_8));
                }
            }
        }
        assertThat(rolls).isGreaterThan(10);
        try (SegmentedLog reopened = SegmentedLog.open(root, "events", LogTestSupport.opts(512, 2))) {
            LogState state = reopened.state();
            assertThat(Files.readString(manifest)).as("rewritten by the open").isEqualTo(new String(
                    whole(state.nextSegment(), state.sealed, List.of(), state.active, Map.of()), StandardCharsets.UTF_8));
            assertThat(reopened.count()).isEqualTo(60);
            assertThat(reopened.verify().ok()).isTrue();
        }
    }
}
