package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.fs.LookCountingFiles;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a durable append costs besides its write and its fsync, once the log is open: one look at the
 * manifest (did another process roll or compact?) and one at the active segment's name, which tells
 * both that the cached handle still writes to the file behind the name and where that file ends; the
 * handle itself is never asked its size. Its write buffer is sized to the batch, not a fixed block.
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

    @Test
    void anAppendAllocatesInProportionToItsLineNotAFixedWriteBuffer() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(1 << 24, 64))) {
            for (long i = 0; i < 50; i++) {
                log.put(Map.of("n", i, "pad", "x".repeat(100)));
            }
            long before = threads.getThreadAllocatedBytes(thread);
            for (long i = 50; i < 250; i++) {
                log.put(Map.of("n", i, "pad", "x".repeat(100)));
            }
            long perAppend = (threads.getThreadAllocatedBytes(thread) - before) / 200;
            // a fixed 64 KiB buffer per batch made this at least 65,536
            assertThat(perAppend).as("bytes allocated per append of a 170-byte line").isLessThan(16 * 1024);
            assertThat(log.count()).isEqualTo(250);
        }
    }

    @Test
    void linesLongerThanTheFlushSizeAndBatchesPastItAreWrittenWhole() {
        String big = "b".repeat(LogWriter.FLUSH_BYTES + 1000);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (long i = 0; i < 30; i++) {
            rows.add(Map.of("n", i, "pad", "p".repeat(50_000))); // 1.5 MB in one batch: written in 1 MiB flushes
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(1 << 24, 64))) {
            log.put(Map.of("n", -1L, "pad", big));
            log.appendMany(rows);
            log.put(Map.of("n", 30L));
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(1 << 24, 64))) {
            List<Object> ns = log.stream().map(r -> r.data().get("n")).toList();
            assertThat(ns).hasSize(32).startsWith(-1L, 0L, 1L).endsWith(29L, 30L);
            assertThat(log.stream().findFirst().orElseThrow().data().get("pad")).isEqualTo(big);
            assertThat(log.stream().skip(15).findFirst().orElseThrow().data().get("pad")).isEqualTo("p".repeat(50_000));
        }
    }
}
