package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.progress.Progress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A log's verify, compact and repair report their progress per segment, on real files. */
class SegmentedLogProgressTest {

    @TempDir
    Path temp;

    @Test
    void verifyCountsSegmentsAndTheirBytesCompactCountsSealedSegments() {
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(4096).build();
        try (SegmentedLog log = SegmentedLog.open(temp, "events", options)) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                ids.add(log.put(Map.of("n", i, "text", "event number " + i)).id());
            }
            for (int i = 0; i < 100; i++) {
                log.delete(ids.get(i));
            }
            LogStats stats = log.stats();
            assertThat(stats.segments()).isGreaterThan(3);

            List<Progress> verify = new ArrayList<>();
            assertThat(log.verify(verify::add).ok()).isTrue();
            Progress first = verify.get(0);
            Progress last = verify.get(verify.size() - 1);
            assertThat(first.done()).isZero();
            assertThat(first.total()).isEqualTo(stats.segments());
            assertThat(last.finished()).isTrue();
            assertThat(last.done()).isEqualTo(stats.segments());
            assertThat(last.bytes()).isEqualTo(stats.bytes());

            List<Progress> compact = new ArrayList<>();
            log.compact(compact::add);
            Progress compacted = compact.get(compact.size() - 1);
            assertThat(compacted.operation()).isEqualTo("compact");
            assertThat(compacted.finished()).isTrue();
            assertThat(compacted.done()).isEqualTo(compact.get(0).total()).isGreaterThanOrEqualTo(stats.segments() - 1);
            assertThat(log.count()).isEqualTo(300);

            List<Progress> repair = new ArrayList<>();
            log.repair(repair::add);
            assertThat(repair).extracting(Progress::finished).containsExactly(false, true);
            assertThat(repair.get(1).done()).isEqualTo(1);
        }
    }
}
