package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SyncPool} runs every item, on more than one thread when there are several, returns only
 * when all ran, and throws the first failure after the others still ran (so a caller that cleans up
 * after a failure finds no run still writing).
 */
class SyncPoolTest {

    @TempDir
    Path dir;

    @Test
    void everyFileIsWrittenAndSyncedBeforeItReturns() throws Exception {
        List<Integer> items = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            items.add(i);
        }
        Set<String> threads = ConcurrentHashMap.newKeySet();
        StoreFiles files = LocalFiles.at(dir);
        SyncPool.forEach(items, i -> {
            threads.add(Thread.currentThread().getName());
            AtomicFiles.writeSynced(files, "f" + i, ("item " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        });
        for (int i = 0; i < 40; i++) {
            assertThat(Files.readString(dir.resolve("f" + i))).isEqualTo("item " + i);
        }
        assertThat(threads).as("spread over the pool").hasSizeGreaterThan(1);
    }

    @Test
    void aFailureIsThrownAfterEveryOtherItemRan() {
        List<Integer> items = List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        Set<Integer> ran = ConcurrentHashMap.newKeySet();
        assertThatThrownBy(() -> SyncPool.forEach(items, i -> {
            if (i == 3) {
                throw new StorageException("Could not sync storage file: f3");
            }
            ran.add(i);
        })).isInstanceOf(StorageException.class).hasMessage("Could not sync storage file: f3");
        assertThat(ran).containsExactlyInAnyOrder(0, 1, 2, 4, 5, 6, 7, 8, 9);
    }

    @Test
    void oneItemRunsOnTheCallersThread() {
        List<String> seen = new ArrayList<>();
        SyncPool.forEach(List.of("only"), s -> seen.add(s + " on " + Thread.currentThread().getName()));
        assertThat(seen).containsExactly("only on " + Thread.currentThread().getName());
    }

    @Test
    void aCallFromOneOfThePoolsThreadsRunsInlineInsteadOfWaitingForItself() {
        List<Integer> outer = new ArrayList<>();
        for (int i = 0; i < SyncPool.THREADS * 2; i++) {
            outer.add(i);
        }
        Set<String> inner = ConcurrentHashMap.newKeySet();
        SyncPool.forEach(outer, o -> SyncPool.forEach(List.of(1, 2, 3), i -> inner.add(o + "/" + i)));
        assertThat(inner).as("every nested item ran, with every pool thread busy in the outer call")
                .hasSize(outer.size() * 3);
    }
}
