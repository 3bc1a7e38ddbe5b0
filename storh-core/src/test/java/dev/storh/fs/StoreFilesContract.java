package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.VersionConflictException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link StoreFiles} implementation promises, run against each of them (the local file
 * system in core, blob storage in its module): a subclass supplies a fresh, empty seam per test.
 */
public abstract class StoreFilesContract {

    /**
     * @return a seam over an empty root, used by one test
     * @throws Exception when it cannot be made
     */
    protected abstract StoreFiles newFiles() throws Exception;

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String read(StoreFiles files, String name) throws IOException {
        try (InputStream in = files.open(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void write(StoreFiles files, String name, String content) throws IOException {
        try (StoreFiles.Output out = files.create(name)) {
            out.write(utf8(content));
            out.sync();
        }
    }

    @Test
    void createdFileReadsBackWithItsSizeAndVersion() throws Exception {
        StoreFiles files = newFiles();
        files.createDirectories("data/2d");
        try (StoreFiles.Output out = files.create("data/2d/a.jsonc")) {
            out.write(utf8("{\"a\":1}"));
            out.write(utf8("xx{}yy"), 2, 2);
            assertThat(out.size()).isEqualTo(9);
            out.sync();
        }
        assertThat(read(files, "data/2d/a.jsonc")).isEqualTo("{\"a\":1}{}");
        assertThat(files.stat("data/2d/a.jsonc")).hasValueSatisfying(e -> {
            assertThat(e.kind()).isEqualTo(StoreFiles.Entry.Kind.FILE);
            assertThat(e.size()).isEqualTo(9);
        });
        assertThat(files.exists("data/2d/a.jsonc")).isTrue();
        assertThat(files.version("data/2d/a.jsonc")).isPresent();
        try (InputStream in = files.open("data/2d/a.jsonc", 7)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("{}");
        }
    }

    @Test
    void createReplacesTheWholeOldContent() throws Exception {
        StoreFiles files = newFiles();
        write(files, "manifest.jsonc", "a long first version");
        write(files, "manifest.jsonc", "short");
        assertThat(read(files, "manifest.jsonc")).isEqualTo("short");
    }

    @Test
    void missingNamesAreReportedAsMissing() throws Exception {
        StoreFiles files = newFiles();
        assertThat(files.stat("nope.jsonc")).isEmpty();
        assertThat(files.exists("nope")).isFalse();
        assertThat(files.version("nope.jsonc")).isEmpty();
        assertThatThrownBy(() -> files.open("nope.jsonc")).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> files.delete("nope.jsonc")).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> files.list("nope")).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> files.rename("nope.tmp", "x.jsonc")).isInstanceOf(NoSuchFileException.class);
        assertThat(files.exists("x.jsonc")).isFalse();
    }

    @Test
    void appendsGoAfterTheEndAndTruncateCutsATornTail() throws Exception {
        StoreFiles files = newFiles();
        files.createDirectories("queue");
        try (StoreFiles.Output out = files.append("queue/queue.log")) {
            out.write(utf8("one\n"));
            out.sync();
            out.write(utf8("two\n"));
            out.syncData();
            assertThat(out.size()).isEqualTo(8);
        }
        try (StoreFiles.Output out = files.append("queue/queue.log")) {
            assertThat(out.size()).isEqualTo(8);
            out.write(utf8("thr"));
            out.sync();
            out.truncate(8);
            out.write(utf8("three\n"));
            out.sync();
        }
        assertThat(read(files, "queue/queue.log")).isEqualTo("one\ntwo\nthree\n");
        try (InputStream in = files.open("queue/queue.log", 4)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("two\nthree\n");
        }
    }

    @Test
    void twoOpenAppendersBothWriteAfterTheCurrentEnd() throws Exception {
        StoreFiles files = newFiles();
        try (StoreFiles.Output a = files.append("events.log"); StoreFiles.Output b = files.append("events.log")) {
            a.write(utf8("a1\n"));
            a.sync();
            b.write(utf8("b1\n"));
            b.sync();
            assertThat(b.size()).isEqualTo(6);
            a.write(utf8("a2\n"));
            a.sync();
            assertThat(a.size()).isEqualTo(9);
        }
        assertThat(read(files, "events.log")).isEqualTo("a1\nb1\na2\n");
    }

    @Test
    void appendingToACreatedFileKeepsItsBytes() throws Exception {
        StoreFiles files = newFiles();
        write(files, "events.log", "head\n");
        try (StoreFiles.Output out = files.append("events.log")) {
            out.write(utf8("tail\n"));
            out.sync();
        }
        assertThat(read(files, "events.log")).isEqualTo("head\ntail\n");
    }

    @Test
    void renameReplacesTheTargetAndRemovesTheSource() throws Exception {
        StoreFiles files = newFiles();
        files.createDirectories("data/2d");
        write(files, "data/2d/r.jsonc", "old");
        write(files, "data/2d/.r.jsonc.w1.tmp", "new");
        files.rename("data/2d/.r.jsonc.w1.tmp", "data/2d/r.jsonc");
        files.syncDirectory("data/2d");
        assertThat(read(files, "data/2d/r.jsonc")).isEqualTo("new");
        assertThat(files.exists("data/2d/.r.jsonc.w1.tmp")).isFalse();
        assertThat(files.list("data/2d")).containsExactly("r.jsonc");
    }

    @Test
    void listsAFoldersFilesAndFoldersNotRecursively() throws Exception {
        StoreFiles files = newFiles();
        files.createDirectories("data/2d");
        files.createDirectories("data/ff");
        files.createDirectories("data/2d");
        files.createDirectories(".storh/indexes");
        write(files, "data/2d/a.jsonc", "a");
        write(files, "data/2d/b.jsonc", "b");
        write(files, "data/ff/c.jsonc", "c");
        write(files, "manifest.jsonc", "{}");
        assertThat(files.list("")).containsExactlyInAnyOrder("data", ".storh", "manifest.jsonc");
        assertThat(files.list("data")).containsExactlyInAnyOrder("2d", "ff");
        assertThat(files.list("data/2d")).containsExactlyInAnyOrder("a.jsonc", "b.jsonc");
        assertThat(files.list(".storh")).containsExactly("indexes");
        assertThat(files.list(".storh/indexes")).isEmpty();
        assertThat(files.stat("data/ff")).hasValueSatisfying(e -> assertThat(e.kind()).isEqualTo(StoreFiles.Entry.Kind.DIRECTORY));
    }

    @Test
    void deletesFilesAndEmptyFoldersOnly() throws Exception {
        StoreFiles files = newFiles();
        files.createDirectories("data/2d");
        write(files, "data/2d/a.jsonc", "a");
        assertThatThrownBy(() -> files.delete("data/2d")).isInstanceOf(DirectoryNotEmptyException.class);
        files.delete("data/2d/a.jsonc");
        assertThat(files.exists("data/2d/a.jsonc")).isFalse();
        files.delete("data/2d");
        assertThat(files.exists("data/2d")).isFalse();
        assertThat(files.list("data")).isEmpty();
    }

    @Test
    void compareAndSetCreatesOnceAndReplacesOnlyTheVersionItRead() throws Exception {
        StoreFiles files = newFiles();
        files.createDirectories(".storh");
        String v1 = files.writeIfVersion(".storh/manifest.jsonc", utf8("v1"), null);
        assertThat(files.version(".storh/manifest.jsonc")).hasValue(v1);
        assertThatThrownBy(() -> files.writeIfVersion(".storh/manifest.jsonc", utf8("other"), null))
                .isInstanceOf(VersionConflictException.class).hasMessageContaining("manifest.jsonc");
        String v2 = files.writeIfVersion(".storh/manifest.jsonc", utf8("v2, longer"), v1);
        assertThat(v2).isNotEqualTo(v1);
        assertThatThrownBy(() -> files.writeIfVersion(".storh/manifest.jsonc", utf8("stale"), v1))
                .isInstanceOf(VersionConflictException.class)
                .satisfies(e -> assertThat(((VersionConflictException) e).expectedVersion()).isEqualTo(v1));
        assertThat(read(files, ".storh/manifest.jsonc")).isEqualTo("v2, longer");
        assertThat(files.list(".storh")).containsExactly("manifest.jsonc");
    }

    @Test
    void theLockLetsOneThreadInAtATimeAndIsReentrant() throws Exception {
        StoreFiles files = newFiles();
        files.createDirectories(".storh");
        write(files, "counter", "0");
        int threads = 4;
        int rounds = 5;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    try (CollectionLock lock = files.lock(".storh/write.lock")) {
                        for (int r = 0; r < rounds; r++) {
                            lock.lock(Duration.ofSeconds(60));
                            try {
                                lock.lock(Duration.ofSeconds(1));
                                lock.unlock();
                                assertThat(lock.isHeldByCurrentThread()).isTrue();
                                int value = Integer.parseInt(read(files, "counter"));
                                write(files, "counter", Integer.toString(value + 1));
                            } finally {
                                lock.unlock();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(read(files, "counter")).isEqualTo(Integer.toString(threads * rounds));
    }
}
