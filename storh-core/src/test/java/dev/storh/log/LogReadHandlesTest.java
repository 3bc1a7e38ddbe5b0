package dev.storh.log;

import static dev.storh.log.LogTestSupport.id;
import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.query.RecordQuery;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream hands the handle of each segment it is done with to the log's point reads: a get() from a
 * segment a stream read opens no file, and answers what it answered before; after a rebuild (a repair)
 * or once the log is closed, handles are not taken over.
 */
class LogReadHandlesTest {

    @TempDir
    Path root;

    private static List<String> ids(SegmentedLog log, RecordQuery q) {
        try (Stream<StorageRecord> s = log.stream(q)) {
            return s.map(StorageRecord::id).toList();
        }
    }

    private static SegmentedLog filled(Path root, int n) {
        SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(600, 2));
        for (int i = 0; i < n; i++) {
            log.put(Map.of("i", (long) i, "pad", "p".repeat(60)), id(i));
        }
        return log;
    }

    @Test
    void aGetFromASegmentAStreamReadOpensNoFile() {
        try (SegmentedLog log = filled(root, 30)) {
            assertThat(log.state().sealed.size()).isGreaterThan(3);
            assertThat(ids(log, RecordQuery.all().after(id(9)).limit(3))).containsExactly(id(10), id(11), id(12));
            long opened = log.readHandlesOpened();
            assertThat(log.get(id(10)).orElseThrow().data()).containsEntry("i", 10L);
            assertThat(log.get(id(12)).orElseThrow().data()).containsEntry("i", 12L);
            assertThat(log.readHandlesOpened()).as("the stream's handle read them").isEqualTo(opened);
            assertThat(log.get(id(0)).orElseThrow().data()).containsEntry("i", 0L);
            assertThat(log.readHandlesOpened()).as("a segment no stream read is opened").isEqualTo(opened + 1);
            // every segment streamed whole: every get reads through a handed-over handle
            assertThat(ids(log, RecordQuery.all())).hasSize(30);
            assertThat(log.cachedReadHandles()).isEqualTo(log.state().sealed.size() + 1);
            long after = log.readHandlesOpened();
            for (int i = 0; i < 30; i++) {
                assertThat(log.get(id(i)).orElseThrow().data()).containsEntry("i", (long) i);
            }
            assertThat(log.readHandlesOpened()).isEqualTo(after);
        }
    }

    @Test
    void afterARebuildOrACloseHandlesAreNotTakenOver() {
        try (SegmentedLog log = filled(root, 20)) {
            assertThat(ids(log, RecordQuery.all())).hasSize(20);
            log.put(Map.of("i", 100L), id(3)); // an overwrite, then a rebuild from the files
            log.repair();
            long opened = log.readHandlesOpened();
            assertThat(log.get(id(3)).orElseThrow().data()).containsEntry("i", 100L);
            assertThat(log.get(id(4)).orElseThrow().data()).containsEntry("i", 4L);
            assertThat(log.readHandlesOpened()).as("the handles of the old picture were dropped").isGreaterThan(opened);
        }
        SegmentedLog log = SegmentedLog.open(root, "events", LogTestSupport.opts(600, 2));
        Stream<StorageRecord> open = log.stream();
        assertThat(open.limit(2).map(StorageRecord::id).toList()).containsExactly(id(0), id(1));
        log.close();
        open.close(); // after the log closed: its handle is closed, not cached
        assertThat(log.cachedReadHandles()).isZero();
        try (SegmentedLog again = SegmentedLog.open(root, "events", LogTestSupport.opts(600, 2))) {
            assertThat(again.get(id(3)).orElseThrow().data()).containsEntry("i", 100L);
            assertThat(again.get(id(0)).orElseThrow().data()).containsEntry("i", 0L);
        }
    }
}
