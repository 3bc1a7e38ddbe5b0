package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.ForwardingOutput;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A roll writes the sealed segment's sparse index and the next manifest through temp files whose
 * fsyncs run side by side, and the manifest it puts in force is exactly the one the rolled picture
 * encodes.
 */
class LogRollSyncTest {

    @TempDir
    Path root;

    @Test
    void theManifestPutInForceByARollIsTheRolledPicture() throws Exception {
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(256, 1))) {
            for (long i = 0; i < 4; i++) {
                log.put(Map.of("n", i, "pad", "x".repeat(300))); // each line passes 256 bytes: every put rolls
                LogState state = log.state();
                assertThat(state.active.records).as("the new active segment is empty").isZero();
                byte[] onDisk = Files.readAllBytes(log.collectionDir().resolve(LogFiles.MANIFEST));
                assertThat(new String(onDisk, java.nio.charset.StandardCharsets.UTF_8))
                        .as("manifest after roll " + i).isEqualTo(new String(state.encodeManifest(),
                                java.nio.charset.StandardCharsets.UTF_8));
                assertThat(state.sealed).hasSize((int) i + 1);
                assertThat(state.sealed.get((int) i).index).isEqualTo(LogFiles.indexName(state.sealed.get((int) i).file));
            }
        }
        try (SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(256, 1))) {
            assertThat(log.stream().map(r -> r.data().get("n")).toList()).containsExactly(0L, 1L, 2L, 3L);
            Path idx = log.collectionDir().resolve("segments").resolve("seg-000002.idx.jsonc");
            assertThat(Files.readString(idx)).startsWith("{\"entries\":[{\"id\":\"");
        }
    }

    @Test
    void theIndexAndManifestTempFilesAreFsyncedSideBySide() {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch both = new CountDownLatch(2);
        java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean();
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(256).sparseIndexInterval(1)
                .files(dir -> new ForwardingFiles(LocalFiles.at(dir)) {
                    @Override
                    public StoreFiles.Output create(String name) throws IOException {
                        StoreFiles.Output out = super.create(name);
                        if (!armed.get() || !name.endsWith(".tmp")) {
                            return out;
                        }
                        return new ForwardingOutput(out) {
                            @Override
                            public void sync() throws IOException {
                                most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                                both.countDown();
                                try {
                                    both.await(2, TimeUnit.SECONDS); // a second temp's fsync joins within the wait
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                                try {
                                    super.sync();
                                } finally {
                                    inFlight.decrementAndGet();
                                }
                            }
                        };
                    }
                }).build();
        try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
            log.put(Map.of("n", -1L)); // no roll: the open's and the first append's files are behind us
            armed.set(true);
            log.put(Map.of("n", 0L, "pad", "x".repeat(300))); // rolls
            assertThat(log.state().sealed).hasSize(1);
            armed.set(false);
        }
        assertThat(most.get()).as("temp-file fsyncs in flight at once during the roll").isEqualTo(2);
    }
}
