package dev.storh.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.progress.Progress;
import dev.storh.store.CompactReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A queue's verify, repair and compact send a first and a last snapshot with real counts. */
class QueueProgressTest {

    @TempDir
    Path temp;

    @Test
    void verifyRepairAndCompactReportEventsAndBytes() throws Exception {
        try (Queue queue = Queue.open(temp, "jobs")) {
            for (int i = 0; i < 50; i++) {
                queue.enqueue(Map.of("n", i));
            }
            for (int i = 0; i < 20; i++) {
                queue.complete(queue.claim().orElseThrow().id());
            }
            long size = Files.size(queue.directory().resolve("queue.log"));

            List<Progress> verify = new ArrayList<>();
            assertThat(queue.verify(verify::add).ok()).isTrue();
            assertThat(verify).extracting(Progress::finished).containsExactly(false, true);
            assertThat(verify.get(0).totalBytes()).isEqualTo(size);
            assertThat(verify.get(1).bytes()).isEqualTo(size);
            assertThat(verify.get(1).done()).isEqualTo(50 + 20 + 20);

            List<Progress> repair = new ArrayList<>();
            queue.repair(Duration.ofHours(1), repair::add);
            assertThat(repair.get(1).operation()).isEqualTo("repair");
            assertThat(repair.get(1).done()).isEqualTo(90);

            List<Progress> compact = new ArrayList<>();
            CompactReport<QueueCompactDetails> report = queue.compact(compact::add);
            assertThat(compact.get(0).totalBytes()).isEqualTo(report.bytesBefore());
            assertThat(compact.get(1).done()).isEqualTo(report.details().events());
            assertThat(compact.get(1).bytes()).isEqualTo(report.bytesAfter());
        }
    }
}
