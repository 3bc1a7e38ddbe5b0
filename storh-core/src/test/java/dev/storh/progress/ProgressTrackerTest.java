package dev.storh.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ProgressTrackerTest {

    @Test
    void sendsAFirstSnapshotEveryAdvanceWithoutIntervalAndOneFinishedSnapshot() {
        List<Progress> seen = new ArrayList<>();
        ProgressTracker tracker = ProgressTracker.start("verify", 3, 30, seen::add, Duration.ZERO);
        tracker.advance(1, 10);
        tracker.advance(1, 10);
        tracker.advance(1, 10);
        Progress last = tracker.finish();
        tracker.finish();

        assertThat(seen).extracting(Progress::done).containsExactly(0L, 1L, 2L, 3L, 3L);
        assertThat(seen).extracting(Progress::bytes).containsExactly(0L, 10L, 20L, 30L, 30L);
        assertThat(seen).extracting(Progress::finished).containsExactly(false, false, false, false, true);
        assertThat(seen.get(1).fraction()).hasValueCloseTo(1.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(last.finished()).isTrue();
        assertThat(last.toMap()).containsEntry("operation", "verify").containsEntry("done", 3L)
                .containsEntry("total", 3L).containsEntry("percent", 100.0).containsEntry("finished", true);
    }

    @Test
    void throttlesToTheIntervalButAlwaysSendsTheFirstAndTheLast() {
        List<Progress> seen = new ArrayList<>();
        ProgressTracker tracker = ProgressTracker.start("export", 100_000, -1, seen::add, Duration.ofHours(1));
        for (int i = 0; i < 100_000; i++) {
            tracker.advance(1, 7);
        }
        tracker.finish();
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0).done()).isZero();
        assertThat(seen.get(1).done()).isEqualTo(100_000);
        assertThat(seen.get(1).bytes()).isEqualTo(700_000);
        assertThat(seen.get(1).totalBytes()).isEqualTo(Progress.UNKNOWN);
    }

    @Test
    void fractionFallsBackToBytesThenToNothing() {
        Progress bytesOnly = new Progress("import", 5, -1, 250, 1000, Duration.ofSeconds(1), false);
        assertThat(bytesOnly.fraction()).hasValue(0.25);
        assertThat(bytesOnly.remaining()).hasValue(Duration.ofSeconds(3));
        Progress unknown = new Progress("import", 5, -1, 250, -1, Duration.ofSeconds(1), false);
        assertThat(unknown.fraction()).isEmpty();
        assertThat(unknown.remaining()).isEmpty();
        assertThat(unknown.toMap()).containsEntry("percent", null);
        Progress empty = new Progress("verify", 0, 0, 0, -1, Duration.ZERO, false);
        assertThat(empty.fraction()).hasValue(1.0);
    }

    @Test
    void aTotalIsNeverShownBelowWhatIsDone() {
        List<Progress> seen = new ArrayList<>();
        ProgressTracker tracker = ProgressTracker.start("repair", 10, -1, seen::add, Duration.ZERO);
        tracker.advance(6, 0);
        tracker.expand(-8, 0);
        assertThat(tracker.snapshot().total()).isEqualTo(6);
        tracker.total(20, 100);
        assertThat(tracker.snapshot().total()).isEqualTo(20);
        assertThat(tracker.snapshot().totalBytes()).isEqualTo(100);
    }

    @Test
    void refusesNegativeCountsNamingThem() {
        ProgressTracker tracker = ProgressTracker.start("verify", 1, -1, null);
        assertThatThrownBy(() -> tracker.advance(-1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("items=-1");
        assertThatThrownBy(() -> ProgressTracker.start("verify", -2, -1, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("total=-2");
        assertThatThrownBy(() -> new Progress("x", -1, 0, 0, 0, Duration.ZERO, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("done=-1");
    }

    @Test
    void aListenerThatThrowsStopsTheWork() {
        ProgressTracker tracker = ProgressTracker.start("verify", 10, -1, p -> {
            if (p.done() >= 3) {
                throw new IllegalStateException("cancelled at " + p.done());
            }
        }, Duration.ZERO);
        tracker.advance(1, 0);
        tracker.advance(1, 0);
        assertThatThrownBy(() -> tracker.advance(1, 0)).hasMessage("cancelled at 3");
    }

    @Test
    void threadsAdvancingOneTrackerLoseNoCountAndSnapshotsStayInOrder() throws Exception {
        List<Progress> seen = Collections.synchronizedList(new ArrayList<>());
        ProgressTracker tracker = ProgressTracker.start("push", 8 * 5_000, -1, seen::add, Duration.ZERO);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 5_000; i++) {
                    tracker.advance(1, 3);
                }
            });
            thread.start();
            threads.add(thread);
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        Progress last = tracker.finish();
        assertThat(last.done()).isEqualTo(40_000);
        assertThat(last.bytes()).isEqualTo(120_000);
        List<Long> done = seen.stream().map(Progress::done).toList();
        assertThat(done).isSorted();
    }
}
