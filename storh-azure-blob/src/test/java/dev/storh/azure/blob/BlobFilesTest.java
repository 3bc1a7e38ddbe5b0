package dev.storh.azure.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.models.BlobItem;
import dev.storh.StorageException;
import dev.storh.VersionConflictException;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What blob storage adds to the seam's contract: the names, the layout record, ETags and the cache. */
class BlobFilesTest {

    private static final Path ROOT = Path.of("/stores");
    private static final String ID = "018bcfe5-6800-7000-8000-2d5dba6274da";

    private static String container;
    private static AzureBlobBackend one;
    private static AzureBlobBackend two;

    @BeforeAll
    static void connect() {
        container = Azurite.freshContainer();
        one = Azurite.backend(container);
        two = Azurite.backend(container); // a second instance: its own client and cache
    }

    @AfterAll
    static void close() {
        if (one != null) {
            one.container().delete();
            one.close();
            two.close();
        }
    }

    private static List<String> blobNames() {
        return one.container().listBlobs().stream().map(BlobItem::getName).sorted().collect(Collectors.toList());
    }

    private static String read(StoreFiles files, String name) throws IOException {
        try (InputStream in = files.open(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void recordBlobsStartWithTheirBucketAndOtherBlobsWithAHash() throws Exception {
        BlobFiles files = one.files(ROOT, ROOT.resolve("pages"));
        files.createDirectories("data/2d");
        files.writeIfVersion("data/2d/" + ID + ".jsonc", "{}".getBytes(StandardCharsets.UTF_8), null);
        files.createDirectories(".storh/indexes");
        files.writeIfVersion(".storh/indexes/email.json", "{}".getBytes(StandardCharsets.UTF_8), null);

        assertThat(files.blobName("data/2d/" + ID + ".jsonc")).isEqualTo("2d/pages/data/" + ID + ".jsonc");
        assertThat(files.blobName(".storh/indexes/email.json")).matches("[0-9a-f]{3}/pages/\\.storh/indexes/email\\.json");
        assertThat(blobNames()).contains("2d/pages/data/" + ID + ".jsonc", files.blobName(".storh/indexes/email.json"),
                BlobLayout.LAYOUT_BLOB);
        assertThat(blobNames()).filteredOn(n -> n.contains("/pages/"))
                .allSatisfy(n -> assertThat(n).matches("([0-9a-f]{2}|[0-9a-f]{3})/pages/.*"));
    }

    @Test
    void consecutiveLogSegmentsAreSpreadOverSixteenPrefixesAndListedInNameOrder() throws Exception {
        BlobFiles files = one.files(ROOT, ROOT.resolve("audit"));
        files.createDirectories("segments");
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= 24; i++) {
            String name = String.format("seg-%06d.ndjson", i);
            names.add(name);
            files.writeIfVersion("segments/" + name, ("line " + i + "\n").getBytes(StandardCharsets.UTF_8), null);
        }
        List<String> firsts = names.stream().map(n -> files.blobName("segments/" + n))
                .peek(b -> assertThat(b).matches("[0-9a-f]/audit/segments/seg-\\d{6}\\.ndjson")).map(b -> b.substring(0, 1))
                .distinct().collect(Collectors.toList());
        assertThat(firsts).as("24 consecutive segments over the 16 one-character prefixes").hasSizeGreaterThan(8);
        assertThat(files.list("segments")).containsExactlyElementsOf(names);
        assertThat(read(files, "segments/seg-000017.ndjson")).isEqualTo("line 17\n");
        files.delete("segments/seg-000017.ndjson");
        assertThat(files.list("segments")).hasSize(23).doesNotContain("seg-000017.ndjson");
        assertThat(files.list("")).contains("segments");
    }

    @Test
    void theLayoutIsRecordedAndAContainerWithAnotherLayoutIsRefused() {
        String layout = one.container().getBlobClient(BlobLayout.LAYOUT_BLOB).downloadContent().toString();
        assertThat(layout).contains("\"layout\":\"" + BlobLayout.NAME + "\"").contains("<bucket>/<store>/data/<file>");

        String other = Azurite.freshContainer();
        try (AzureBlobBackend first = Azurite.backend(other)) {
            first.container().getBlobClient(BlobLayout.LAYOUT_BLOB)
                    .upload(BinaryData.fromString("{\"layout\":\"storh-blob-layout/0\"}"), true);
            assertThatThrownBy(() -> Azurite.backend(other)).isInstanceOf(StorageException.class)
                    .hasMessageContaining(other).hasMessageContaining("storh-blob-layout/0").hasMessageContaining("refusing");
            first.container().delete();
        }
    }

    @Test
    void aCachedReadSeesAnotherInstancesWrite() throws Exception {
        BlobFiles a = one.files(ROOT, ROOT.resolve("cached"));
        BlobFiles b = two.files(ROOT, ROOT.resolve("cached"));
        String v1 = a.writeIfVersion("manifest.jsonc", "first".getBytes(StandardCharsets.UTF_8), null);
        assertThat(read(a, "manifest.jsonc")).isEqualTo("first");
        assertThat(read(b, "manifest.jsonc")).isEqualTo("first");
        assertThat(b.version("manifest.jsonc")).hasValue(v1);
        b.writeIfVersion("manifest.jsonc", "second".getBytes(StandardCharsets.UTF_8), v1);
        assertThat(read(a, "manifest.jsonc")).isEqualTo("second");
        assertThatThrownBy(() -> a.writeIfVersion("manifest.jsonc", "lost".getBytes(StandardCharsets.UTF_8), v1))
                .isInstanceOf(VersionConflictException.class).hasMessageContaining("manifest.jsonc");
        b.delete("manifest.jsonc");
        assertThatThrownBy(() -> a.open("manifest.jsonc")).isInstanceOf(java.nio.file.NoSuchFileException.class);
    }

    @Test
    void compareAndSetLosesNoUpdateBetweenInstancesAndThreads() throws Exception {
        BlobFiles[] instances = {one.files(ROOT, ROOT.resolve("counter")), two.files(ROOT, ROOT.resolve("counter"))};
        instances[0].writeIfVersion("counter", "0".getBytes(StandardCharsets.UTF_8), null);
        int threads = 8;
        int increments = 10;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Integer>> conflicts = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                BlobFiles files = instances[t % 2];
                conflicts.add(pool.submit(() -> {
                    int lost = 0;
                    for (int i = 0; i < increments; i++) {
                        while (true) {
                            String version = files.version("counter").orElseThrow();
                            int value = Integer.parseInt(read(files, "counter"));
                            try {
                                files.writeIfVersion("counter", Integer.toString(value + 1).getBytes(StandardCharsets.UTF_8),
                                        version);
                                break;
                            } catch (VersionConflictException e) {
                                lost++;
                            }
                        }
                    }
                    return lost;
                }));
            }
            int total = 0;
            for (Future<Integer> f : conflicts) {
                total += f.get(120, TimeUnit.SECONDS);
            }
            System.out.println("compare-and-set conflicts retried: " + total);
        } finally {
            pool.shutdownNow();
        }
        assertThat(read(instances[0], "counter")).isEqualTo(Integer.toString(threads * increments));
    }

    @Test
    void badNamesAreRefusedNamingThem() {
        BlobFiles files = one.files(ROOT, ROOT.resolve("pages"));
        assertThatThrownBy(() -> files.create("../escape.jsonc")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("../escape.jsonc");
        assertThatThrownBy(() -> files.open("/abs")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/abs");
        assertThatThrownBy(() -> one.files(ROOT, Path.of("/elsewhere/pages"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/elsewhere/pages");
    }
}
