package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code query().where("id").eq(id).count()} on a log is answered from the state index without
 * reading the record, and still sees deletes, overwrites and another instance's appends.
 */
class LogQueryIdCountTest {

    @TempDir
    Path root;

    /** Counts segment handles opened for reads (point reads and scans). */
    private static final class CountingReads extends ForwardingFiles {
        final AtomicInteger inputs = new AtomicInteger();
        final AtomicInteger opens = new AtomicInteger();

        CountingReads(Path folder) {
            super(LocalFiles.at(folder));
        }

        @Override
        public StoreFiles.Input openInput(String name) throws IOException {
            inputs.incrementAndGet();
            return files.openInput(name);
        }

        @Override
        public java.io.InputStream open(String name, long offset) throws IOException {
            if (name.startsWith(LogFiles.SEGMENTS + "/")) {
                opens.incrementAndGet();
            }
            return files.open(name, offset);
        }
    }

    private static long idCount(SegmentedLog log, String id) {
        return log.query().where("id").eq(id).count();
    }

    @Test
    void anIdCountReadsNoSegmentAndAgreesWithGet() {
        CountingReads[] seam = new CountingReads[1];
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(300)
                .files(dir -> seam[0] = new CountingReads(dir)).build();
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            String kept = log.put(Map.of("n", 1L, "pad", "x".repeat(100))).id();
            String gone = log.put(Map.of("n", 2L, "pad", "x".repeat(100))).id();
            log.put(Map.of("n", 3L), kept); // overwritten: still one record
            log.delete(gone);
            String unknown = dev.storh.id.UuidV7.generate();
            seam[0].inputs.set(0);
            seam[0].opens.set(0);

            assertThat(idCount(log, kept)).isEqualTo(1);
            assertThat(idCount(log, kept.toUpperCase(java.util.Locale.ROOT))).isEqualTo(1);
            assertThat(idCount(log, gone)).isZero();
            assertThat(idCount(log, unknown)).isZero();
            assertThat(log.query().where("id").eq(kept).limit(1).count()).isEqualTo(1);
            assertThat(seam[0].inputs.get() + seam[0].opens.get()).as("segment reads").isZero();

            assertThat(log.get(kept)).isPresent();
            assertThat(log.get(gone)).isEmpty();
            assertThat(log.get(unknown)).isEmpty();
        }
    }

    @Test
    void anIdCountSeesAnotherInstancesPutAndDelete() throws Exception {
        SegmentedLogOptions options = LogTestSupport.opts(600, 1);
        try (SegmentedLog first = SegmentedLog.open(root, "events", options)) {
            String a = first.put(Map.of("n", 1L)).id();
            Thread.sleep(30); // the writers folder's time (the open) lies in an earlier clock tick
            assertThat(idCount(first, a)).isEqualTo(1);
            try (SegmentedLog second = SegmentedLog.open(root, "events", options)) {
                String b = second.put(Map.of("n", 2L)).id();
                second.delete(a);
                assertThat(idCount(first, b)).as("the other instance's put").isEqualTo(1);
                assertThat(idCount(first, a)).as("the other instance's delete").isZero();
            }
        }
    }
}
