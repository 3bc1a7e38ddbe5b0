package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.fs.LookCountingFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction collects each output segment's lines and writes them in one call (64 KiB at most),
 * not one call per record; the compacted log holds exactly the live records, in order.
 */
class LogCompactionCostTest {

    @TempDir
    Path root;

    @Test
    void eachOutputSegmentIsWrittenInOneCallAndHoldsTheLiveRecordsInOrder() {
        LookCountingFiles[] seam = new LookCountingFiles[1];
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(2_000)
                .files(dir -> seam[0] = new LookCountingFiles(dir)).build();
        List<String> live = new ArrayList<>();
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            for (long i = 0; i < 300; i++) {
                String id = log.put(Map.of("n", i, "pad", "p".repeat(40))).id();
                if (i % 3 == 0) {
                    log.delete(id);
                } else {
                    live.add(id);
                }
            }
            seam[0].reset();
            log.compact();
            Map<String, Integer> outputs = new java.util.TreeMap<>();
            seam[0].writes().forEach((name, calls) -> {
                if (name.startsWith(LogFiles.SEGMENTS + "/compact-") && name.endsWith(".ndjson")) {
                    outputs.put(name, calls);
                }
            });
            assertThat(outputs).as("compaction outputs").hasSizeGreaterThan(5);
            assertThat(outputs.values()).as("write calls per output segment").containsOnly(1);
            assertThat(log.stream().map(r -> r.id()).toList()).isEqualTo(live);
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(2_000, 1))) {
            assertThat(log.stream().map(r -> r.id()).toList()).as("after a reopen").isEqualTo(live);
            assertThat(log.verify().ok()).isTrue();
        }
    }
}
