package dev.storh.azure.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.LockTimeoutException;
import dev.storh.fs.CollectionLock;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two JVMs on one Azurite container: compare-and-set loses no update and gives every unique value
 * and every job claim to exactly one of them; a lock held by another JVM is a renewed lease, which a
 * crash ends by expiry and a close ends at once.
 */
@Execution(ExecutionMode.CONCURRENT) // each test on its own container; the lease tests mostly wait
class BlobTwoProcessTest {

    private static final Path ROOT = Path.of("/stores");

    @RegisterExtension
    final Azurite.Fresh blob = new Azurite.Fresh();
    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void close() {
        children.forEach(Process::destroyForcibly);
    }

    private Process child(String... args) throws IOException {
        Process p = BlobChildProcess.start(args);
        children.add(p);
        return p;
    }

    private static String awaitLine(BufferedReader reader, String expected) throws IOException {
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.equals(expected)) {
                return line;
            }
        }
        throw new AssertionError("child ended before printing " + expected);
    }

    @Test
    void twoJvmsRaceWithNoLostUpdateNoDuplicateUniqueValueAndNoDuplicateClaim() throws Exception {
        BlobFiles files = blob.backend().files(ROOT, ROOT.resolve("shared"));
        files.writeIfVersion("counter", "0".getBytes(StandardCharsets.UTF_8), null);
        int rounds = 25;
        Process a = child("race", blob.name(), "1", Integer.toString(rounds));
        Process b = child("race", blob.name(), "2", Integer.toString(rounds));
        CompletableFuture<List<String>> outA = BlobChildProcess.lines(a);
        CompletableFuture<List<String>> outB = BlobChildProcess.lines(b);
        assertThat(a.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(b.waitFor(180, TimeUnit.SECONDS)).isTrue();
        List<String> all = new ArrayList<>(outA.get());
        all.addAll(outB.get());
        assertThat(a.exitValue()).as("child a: %s", outA.get()).isZero();
        assertThat(b.exitValue()).as("child b: %s", outB.get()).isZero();
        assertThat(outA.get()).contains("DONE");
        assertThat(outB.get()).contains("DONE");

        try (InputStream in = files.open("counter")) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).as("no lost update")
                    .isEqualTo(Integer.toString(2 * rounds));
        }
        List<String> unique = all.stream().filter(l -> l.startsWith("UNIQUE ")).sorted().collect(Collectors.toList());
        List<String> claims = all.stream().filter(l -> l.startsWith("CLAIM ")).sorted().collect(Collectors.toList());
        assertThat(unique).as("every unique value taken exactly once").doesNotHaveDuplicates()
                .hasSize(BlobChildProcess.UNIQUE_VALUES);
        assertThat(claims).as("every job claimed exactly once").doesNotHaveDuplicates().hasSize(BlobChildProcess.JOBS);
        System.out.println("conflicts retried by the two JVMs: " + all.stream().filter("CONFLICT"::equals).count()
                + "; unique values won by a: " + outA.get().stream().filter(l -> l.startsWith("UNIQUE ")).count()
                + "; claims won by a: " + outA.get().stream().filter(l -> l.startsWith("CLAIM ")).count());
    }

    @Test
    void aLeaseOutlivesItsDurationWhileRenewedAndEndsAfterTheHolderCrashes() throws Exception {
        Process holder = child("hold", blob.name());
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        awaitLine(out, "LOCKED");
        BlobFiles files = blob.backend().files(ROOT, ROOT.resolve("shared"));
        try (CollectionLock lock = files.lock(".storh/write.lock")) {
            // the holder took its lease before printing LOCKED: by the end of this wait the lease would have ended unrenewed
            Duration longerThanALease = blob.backend().leaseDuration().plusSeconds(1);
            assertThatThrownBy(() -> lock.lock(longerThanALease)).as("renewed past its %s", blob.backend().leaseDuration())
                    .isInstanceOf(LockTimeoutException.class).hasMessageContaining("write.lock");
            holder.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            long start = System.nanoTime();
            lock.lock(Duration.ofSeconds(90));
            try {
                assertThat(lock.isHeldByCurrentThread()).isTrue();
                System.out.println("lock taken " + (System.nanoTime() - start) / 1_000_000 + " ms after the holder was killed"
                        + " (lease " + blob.backend().leaseDuration() + ")");
            } finally {
                lock.unlock();
            }
        }
    }

    @Test
    void aClosedHoldersLeaseIsReleasedAtOnce() throws Exception {
        Process holder = child("hold", blob.name());
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        awaitLine(out, "LOCKED");
        BlobFiles files = blob.backend().files(ROOT, ROOT.resolve("shared"));
        try (CollectionLock lock = files.lock(".storh/write.lock")) {
            assertThatThrownBy(() -> lock.lock(Duration.ofMillis(500))).isInstanceOf(LockTimeoutException.class);
            holder.getOutputStream().write("release\n".getBytes(StandardCharsets.UTF_8));
            holder.getOutputStream().flush();
            awaitLine(out, "RELEASED");
            // released, not expired: the lease is free now, long before it could have ended by itself
            assertThat(blob.backend().container().getBlobClient(files.blobName(".storh/write.lock")).getProperties().getLeaseState())
                    .hasToString("available");
            lock.lock(Duration.ofSeconds(60));
            lock.unlock();
        }
        assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(holder.exitValue()).isZero();
    }
}
