package dev.storh.azure.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.queue.Queue;
import dev.storh.queue.QueueCounts;
import dev.storh.queue.QueueOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The queue engine on blob storage, unchanged: its events go to an append blob, its lock is a
 * lease; two JVMs claiming from one queue on one container claim every job exactly once.
 */
class BlobQueueTest {

    /** Where the engines believe their folders are; nothing is written there. */
    static final Path ROOT = Path.of("/storh-on-blobs");

    @RegisterExtension
    final Azurite.Fresh blob = new Azurite.Fresh();



    static QueueOptions options(AzureBlobBackend backend) {
        return QueueOptions.builder().files(backend.under(ROOT)).build();
    }

    @Test
    void jobsGoThroughTheStateMachineOnBlobs() {
        try (Queue queue = Queue.open(ROOT, "jobs", options(blob.backend()))) {
            List<String> ids = queue.enqueueMany(List.of(Map.of("n", 1L), Map.of("n", 2L), Map.of("n", 3L)));
            assertThat(queue.counts()).isEqualTo(new QueueCounts(3, 0, 0));
            Optional<StorageRecord> first = queue.claim();
            assertThat(first).hasValueSatisfying(r -> assertThat(r.id()).isEqualTo(ids.get(0)));
            queue.complete(ids.get(0));
            assertThat(queue.counts()).isEqualTo(new QueueCounts(2, 0, 1));
        }
        assertThat(blob.backend().container().listBlobs().stream().map(b -> b.getName()).collect(Collectors.toList()))
                .anySatisfy(n -> assertThat(n).matches("[0-9a-f]{3}/jobs/queue\\.log"));
        try (Queue reopened = Queue.open(ROOT, "jobs", options(blob.backend()))) {
            assertThat(reopened.counts()).isEqualTo(new QueueCounts(2, 0, 1));
            assertThat(reopened.claimMany(5)).hasSize(2);
            assertThat(reopened.verify().ok()).isTrue();
        }
    }

    @Test
    void twoJvmsClaimEveryJobExactlyOnce() throws Exception {
        int total = 40;
        try (Queue queue = Queue.open(ROOT, "jobs", options(blob.backend()))) {
            List<Map<String, Object>> jobs = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                jobs.add(Map.of("i", (long) i));
            }
            queue.enqueueMany(jobs);
        }
        List<Process> children = new ArrayList<>();
        List<CompletableFuture<List<String>>> outputs = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            Process child = BlobChildProcess.start("claim", blob.name());
            children.add(child);
            outputs.add(BlobChildProcess.lines(child));
        }
        List<String> claimed = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            assertThat(children.get(p).waitFor(300, TimeUnit.SECONDS)).isTrue();
            assertThat(children.get(p).exitValue()).as("child %d: %s", p, outputs.get(p).get()).isZero();
            outputs.get(p).get().stream().filter(l -> l.startsWith("CLAIM ")).forEach(claimed::add);
        }
        Set<String> distinct = new HashSet<>(claimed);
        assertThat(claimed).as("no job claimed twice").hasSize(distinct.size());
        assertThat(distinct).as("every job claimed").hasSize(total);
        try (Queue queue = Queue.open(ROOT, "jobs", options(blob.backend()))) {
            assertThat(queue.counts()).isEqualTo(new QueueCounts(0, 0, total));
        }
        System.out.println("claims by the first JVM: " + outputs.get(0).get().stream().filter(l -> l.startsWith("CLAIM ")).count()
                + " of " + total);
    }
}
