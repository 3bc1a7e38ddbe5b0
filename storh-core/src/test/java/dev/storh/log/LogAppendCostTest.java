package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.fs.LookCountingFiles;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a durable append costs besides its write and its fsync, once the log is open: one look at the
 * manifest (did another process roll or compact?) and one at the active segment's name, which tells
 * both that the cached handle still writes to the file behind the name and where that file ends; the
 * handle itself is never asked its size.
 */
class LogAppendCostTest {

    @TempDir
    Path root;

    @Test
    void anAppendLooksAtTheManifestAndTheActiveSegmentOnceEachAndNeverAsksItsHandle() {
        LookCountingFiles[] seam = new LookCountingFiles[1];
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(1 << 20)
                .files(dir -> seam[0] = new LookCountingFiles(dir)).build();
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            log.put(Map.of("n", 0L));
            String active = LogFiles.segment(log.state().active.file);
            seam[0].reset();
            for (long i = 1; i <= 5; i++) {
                log.put(Map.of("n", i));
            }
            assertThat(seam[0].handleSizes()).as("sizes asked of the segment's handle").isZero();
            assertThat(seam[0].looks()).as("looks per name for 5 appends")
                    .isEqualTo(Map.of(active, 5, LogFiles.MANIFEST, 5));
            assertThat(log.count()).isEqualTo(6);
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(1 << 20, 1))) {
            assertThat(log.count()).as("every append durable and found by a new instance").isEqualTo(6);
            assertThat(log.stream().map(r -> r.data().get("n")).toList()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        }
    }

    @Test
    void anAppendAfterAnotherInstancesAppendsTakesTheirLinesInFirst() {
        LookCountingFiles[] seam = new LookCountingFiles[1];
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(1 << 20)
                .files(dir -> seam[0] = new LookCountingFiles(dir)).build();
        try (SegmentedLog log = SegmentedLog.open(root, "events", options);
                SegmentedLog other = SegmentedLog.open(root, "events", LogTestSupport.opts(1 << 20, 1))) {
            log.put(Map.of("by", "first"));
            other.put(Map.of("by", "other"));
            other.put(Map.of("by", "other"));
            log.put(Map.of("by", "first"));
            assertThat(log.count()).as("the other instance's lines were taken in before the append").isEqualTo(4);
            assertThat(other.count()).isEqualTo(4);
            assertThat(log.stream().map(r -> r.data().get("by")).toList()).containsExactly("first", "other", "other", "first");
        }
    }
}
