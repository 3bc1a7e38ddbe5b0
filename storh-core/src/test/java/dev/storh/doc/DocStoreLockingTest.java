package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.LockTimeoutException;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Process-level locking: the util-linux {@code flock} command and a second JVM. */
class DocStoreLockingTest {

    @TempDir
    Path root;

    /** Starts {@code flock <lock> -c 'echo locked; sleep N'} and waits until it holds the lock. */
    private static Process holdLockWithFlockCommand(Path lockFile, double seconds) throws Exception {
        Process holder = new ProcessBuilder("flock", lockFile.toString(), "-c", "echo locked; sleep " + seconds)
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("locked");
        return holder;
    }

    @Test
    void putWaitsWhileAnotherProcessHoldsFlockOnTheLockFile() throws Exception {
        try (DocStore store = DocStore.open(root, "c")) {
            store.put(Map.of("warm", true)); // creates .storh/write.lock
            Path lockFile = root.resolve("c/.storh/write.lock");
            Process holder = holdLockWithFlockCommand(lockFile, 1.5);
            long started = System.nanoTime();
            StorageRecord r = store.put(Map.of("after", "release"));
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(holder.exitValue()).isZero();
            // The put could only finish once the flock holder had let go (it sleeps 1.5 s).
            assertThat(waitedMs).isGreaterThanOrEqualTo(1000);
            assertThat(store.get(r.id())).isPresent();
        }
    }

    @Test
    void aWriterGivesUpWithLockTimeoutExceptionAndWritesNothing() throws Exception {
        DocStoreOptions quick = DocStoreOptions.builder().lockTimeout(Duration.ofMillis(200)).build();
        try (DocStore store = DocStore.open(root, "c", quick)) {
            store.put(Map.of("warm", true));
            Path lockFile = root.resolve("c/.storh/write.lock");
            Process holder = holdLockWithFlockCommand(lockFile, 1.5);
            try {
                assertThatThrownBy(() -> store.put(Map.of("x", 1L))).isInstanceOf(LockTimeoutException.class)
                        .hasMessageContaining("write.lock");
                assertThat(store.count()).isEqualTo(1);
            } finally {
                // Killing flock(1) would leave its shell child holding the lock: let it finish instead.
                assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
            }
            store.put(Map.of("x", 1L));
            assertThat(store.count()).isEqualTo(2);
        }
    }

    @Test
    void aDirectoryWhereTheLockFileShouldBeIsAClearError() throws Exception {
        Files.createDirectories(root.resolve("c/.storh/write.lock"));
        try (DocStore store = DocStore.open(root, "c")) {
            assertThatThrownBy(() -> store.put(Map.of("x", 1L))).isInstanceOf(StorageException.class)
                    .hasMessageContaining("collection lock");
        }
    }

    @Test
    void aSecondJvmWritingTheSameCollectionInterleavesSafely() throws Exception {
        int perProcess = 150;
        List<String> sharedIds = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            sharedIds.add(dev.storh.id.UuidV7.generate());
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                SecondJvmWriter.class.getName(), root.toString(), "c", Integer.toString(perProcess)));
        command.addAll(sharedIds);
        Process child = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(root.resolve("child.log").toFile()).start();
        try (DocStore store = DocStore.open(root, "c")) {
            SecondJvmWriter.writeAll(store, "parent", perProcess, sharedIds);
            assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as(Files.readString(root.resolve("child.log"))).isZero();
            assertThat(store.count()).isEqualTo(2L * perProcess + sharedIds.size());
            List<StorageRecord> all;
            try (Stream<StorageRecord> s = store.stream()) {
                all = s.toList();
            }
            assertThat(all.stream().filter(r -> r.data().containsKey("i") && "parent".equals(r.data().get("writer")))).hasSize(perProcess);
            assertThat(all.stream().filter(r -> r.data().containsKey("i") && "child".equals(r.data().get("writer")))).hasSize(perProcess);
            for (String id : sharedIds) {
                Map<String, Object> data = store.get(id).orElseThrow().data();
                // Each shared record is one writer's complete version.
                assertThat(data.get("payload")).isEqualTo(data.get("writer") + "-" + data.get("round"));
            }
        }
        try (Stream<Path> files = Files.walk(root.resolve("c"))) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList()).isEmpty();
        }
        try (Stream<Path> markers = Files.list(root.resolve("c/.storh/writers"))) {
            assertThat(markers.toList()).isEmpty();
        }
        assertThat(new File(root.toFile(), "c").isDirectory()).isTrue();
    }
}
