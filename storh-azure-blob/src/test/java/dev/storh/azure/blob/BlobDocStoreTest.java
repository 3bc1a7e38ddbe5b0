package dev.storh.azure.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.VersionConflictException;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DocStore on blob storage, engine unchanged, shared by two JVMs: a unique index holds across
 * them (every value taken by exactly one), and read-modify-writes under the collection lock (a
 * lease) lose no update.
 */
class BlobDocStoreTest {

    /** The counter record's id. */
    static final String COUNTER = "01890000-0000-7000-8000-00000000c0de";

    @TempDir
    Path root;

    @RegisterExtension
    final Azurite.Fresh blob = new Azurite.Fresh();

    /**
     * @param backend the container
     * @param root where the engine believes the collection's folder is
     * @return the collection {@code users}, its e-mail index unique
     */
    static DocStore open(AzureBlobBackend backend, Path root) {
        DocStore users = DocStore.open(root, "users", DocStoreOptions.builder().files(backend.under(root)).build());
        users.indexes().defineField("email", true, false).sync();
        return users;
    }

    /** Adds one to the counter record, read and written under the collection's write lock. */
    static void increment(DocStore users) {
        users.withWriteLock(() -> {
            long n = users.get(COUNTER).map(r -> (Long) r.data().get("n")).orElse(0L);
            return users.put(Map.of("n", n + 1), COUNTER);
        });
    }

    @Test
    void twoJvmsTakeEveryUniqueValueOnceAndLoseNoUpdate() throws Exception {
        int n = 10;
        try (DocStore users = open(blob.backend(), root)) {
            assertThat(users.count()).isZero();
        }
        List<Process> children = new ArrayList<>();
        List<CompletableFuture<List<String>>> outputs = new ArrayList<>();
        for (String seed : List.of("1", "2")) {
            Process child = BlobChildProcess.start("docs", blob.name(), root.toString(), seed, Integer.toString(n));
            children.add(child);
            outputs.add(BlobChildProcess.lines(child));
        }
        Map<String, String> winners = new HashMap<>();
        try {
            for (int p = 0; p < 2; p++) {
                assertThat(children.get(p).waitFor(240, TimeUnit.SECONDS)).isTrue();
                assertThat(children.get(p).exitValue()).as("child %d: %s", p, outputs.get(p).get()).isZero();
                for (String line : outputs.get(p).get()) {
                    if (line.startsWith("UNIQUE ")) {
                        String[] parts = line.split(" ");
                        assertThat(winners.put(parts[1], parts[2])).as("%s taken twice", parts[1]).isNull();
                    }
                }
            }
        } finally {
            children.forEach(Process::destroyForcibly);
        }
        assertThat(winners).as("every value taken exactly once").hasSize(n);
        try (AzureBlobBackend other = Azurite.backend(blob.name()); DocStore users = open(other, root)) {
            assertThat(users.count()).isEqualTo(n + 1);
            for (Map.Entry<String, String> won : winners.entrySet()) {
                assertThat(users.query().where("email").eq(won.getKey()).get()).extracting(StorageRecord::id)
                        .containsExactly(won.getValue());
            }
            assertThat(users.get(COUNTER)).hasValueSatisfying(r -> assertThat(r.data()).as("no lost update")
                    .containsEntry("n", 2L * n));
            assertThat(users.verify().ok()).isTrue();
        }
    }

    @Test
    void aHolderWhoseLeaseRanOutUnnoticedCannotOverwriteTheNextHoldersRecord() throws Exception {
        // a 60 s lease is renewed every 20 s: its holder does not notice, within this test, that the lease is gone
        try (AzureBlobBackend backend = AzureBlobBackend.builder().connectionString(Azurite.connectionString())
                .container(blob.name()).leaseDuration(Duration.ofSeconds(60)).build(); DocStore users = open(backend, root)) {
            String id = users.put(Map.of("email", "a@example.org", "n", 1L)).id();
            BlobFiles files = backend.files(root, root.resolve("users"));
            BlobClient record = backend.container().getBlobClient(files.blobName("data/" + id.substring(24, 26) + "/" + id
                    + ".jsonc"));
            BlobClient lock = backend.container().getBlobClient(files.blobName(".storh/write.lock"));
            String newer = record.downloadContent().toString().replaceFirst("\"n\":1(?=[,}])", "\"n\":100");
            assertThat(newer).contains("\"n\":100");
            assertThatThrownBy(() -> users.withWriteLock(() -> {
                long n = (Long) users.get(id).orElseThrow().data().get("n");
                // meanwhile this holder's lease ends (broken here as if it had run out during a pause), and the next
                // holder replaces the record
                new BlobLeaseClientBuilder().blobClient(lock).buildClient().breakLeaseWithResponse(0, null, null,
                        com.azure.core.util.Context.NONE);
                record.upload(BinaryData.fromString(newer), true);
                return users.put(Map.of("email", "a@example.org", "n", n + 1), id);
            })).isInstanceOf(StorageException.class).hasRootCauseInstanceOf(com.azure.storage.blob.models.BlobStorageException.class)
                    .satisfies(e -> assertThat(causes(e)).anySatisfy(c -> assertThat(c).isInstanceOf(VersionConflictException.class)
                            .hasMessageContaining(id)));
            assertThat(record.downloadContent().toString()).as("the next holder's record stays").isEqualTo(newer);
            assertThat(users.get(id)).hasValueSatisfying(r -> assertThat(r.data()).containsEntry("n", 100L));
            users.put(Map.of("email", "a@example.org", "n", 101L), id); // a new tenure replaces it again
            assertThat(users.get(id)).hasValueSatisfying(r -> assertThat(r.data()).containsEntry("n", 101L));
        }
    }

    private static List<Throwable> causes(Throwable e) {
        List<Throwable> all = new ArrayList<>();
        for (Throwable c = e; c != null && !all.contains(c); c = c.getCause()) {
            all.add(c);
        }
        return all;
    }
}
