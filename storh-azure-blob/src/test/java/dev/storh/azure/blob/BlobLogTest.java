package dev.storh.azure.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.AtomicFiles;
import dev.storh.log.SegmentedLog;
import dev.storh.log.SegmentedLogOptions;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The segmented log on blob storage, engine unchanged: segments are blobs whose names start with a
 * hash of the segment's slot, the manifest is swapped by ETag, and appends from two JVMs are
 * serialized by the lease: none is lost or duplicated and both see the same log.
 */
class BlobLogTest {

    /** Small segments, so that the appends roll segments and swap the manifest often. */
    static final long SEGMENT_BYTES = 512;

    @TempDir
    Path root;

    @RegisterExtension
    final Azurite.Fresh blob = new Azurite.Fresh();



    /**
     * @param backend the container
     * @param root where the engine believes the log's folder is
     * @return the log {@code audit} on the container
     */
    static SegmentedLog open(AzureBlobBackend backend, Path root) {
        return SegmentedLog.open(root, "audit",
                SegmentedLogOptions.builder().maxSegmentBytes(SEGMENT_BYTES).files(backend.under(root)).build());
    }

    private List<String> blobs() {
        return blob.backend().container().listBlobs().stream().map(b -> b.getName()).collect(Collectors.toList());
    }

    @Test
    void segmentsAreNamedHashFirstAndTheLogReadsBackWhole() {
        List<String> ids = new ArrayList<>();
        try (SegmentedLog log = open(blob.backend(), root)) {
            for (int i = 0; i < 20; i++) {
                ids.add(log.put(Map.of("i", (long) i, "pad", "p".repeat(40))).id());
            }
            assertThat(log.get(ids.get(3))).hasValueSatisfying(r -> assertThat(r.data()).containsEntry("i", 3L));
        }
        List<String> segments = blobs().stream().filter(n -> n.matches("[0-9a-f]/audit/segments/seg-\\d+\\.ndjson"))
                .collect(Collectors.toList());
        assertThat(segments).as("segments rolled at %d bytes: %s", SEGMENT_BYTES, blobs()).hasSizeGreaterThan(3);
        assertThat(segments.stream().map(n -> n.charAt(0)).distinct().count()).as("first characters of %s", segments)
                .isGreaterThan(1);
        assertThat(blobs()).anySatisfy(n -> assertThat(n).matches("[0-9a-f]{3}/audit/manifest\\.jsonc"));
        try (AzureBlobBackend other = Azurite.backend(blob.name()); SegmentedLog reopened = open(other, root)) {
            assertThat(reopened.stream().map(StorageRecord::id).collect(Collectors.toList())).isEqualTo(ids);
            assertThat(reopened.verify().ok()).isTrue();
        }
    }

    @Test
    void aManifestReplacedByAnotherWriterIsNotOverwrittenByAStaleOne() throws Exception {
        byte[] first = "{\"v\":1}\n".getBytes(StandardCharsets.UTF_8);
        byte[] theirs = "{\"v\":2}\n".getBytes(StandardCharsets.UTF_8);
        byte[] stale = "{\"v\":3}\n".getBytes(StandardCharsets.UTF_8);
        try (AzureBlobBackend otherBackend = Azurite.backend(blob.name())) {
            BlobFiles mine = blob.backend().files(root, root.resolve("audit"));
            BlobFiles other = otherBackend.files(root, root.resolve("audit"));
            AtomicFiles.writeAtomic(mine, BlobFiles.SWAPPED, first);
            AtomicFiles.writeAtomic(other, BlobFiles.SWAPPED, theirs);
            assertThatThrownBy(() -> AtomicFiles.writeAtomic(mine, BlobFiles.SWAPPED, stale)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("manifest.jsonc").hasStackTraceContaining("was replaced by another writer");
            try (InputStream in = other.open(BlobFiles.SWAPPED)) {
                assertThat(in.readAllBytes()).as("the newer manifest stays").isEqualTo(theirs);
            }
            try (InputStream in = mine.open(BlobFiles.SWAPPED)) {
                assertThat(in.readAllBytes()).isEqualTo(theirs);
            }
            AtomicFiles.writeAtomic(mine, BlobFiles.SWAPPED, stale); // read the current one: the swap goes through
            assertThat(mine.list("")).containsExactly(BlobFiles.SWAPPED).as("no temp blob left");
        }
    }

    @Test
    void twoJvmsAppendWithNoLostOrDuplicatedRecordAndReadTheSameLog() throws Exception {
        int each = 12;
        try (SegmentedLog log = open(blob.backend(), root)) {
            assertThat(log.count()).isZero(); // created before the children race to open it
        }
        List<Process> children = new ArrayList<>();
        List<CompletableFuture<List<String>>> outputs = new ArrayList<>();
        for (String tag : List.of("a", "b")) {
            Process child = BlobChildProcess.start("append", blob.name(), root.toString(), tag, Integer.toString(each));
            children.add(child);
            outputs.add(BlobChildProcess.lines(child));
        }
        Map<String, String> written = new HashMap<>();
        try {
            for (int p = 0; p < 2; p++) {
                assertThat(children.get(p).waitFor(240, TimeUnit.SECONDS)).isTrue();
                assertThat(children.get(p).exitValue()).as("child %d: %s", p, outputs.get(p).get()).isZero();
                String tag = p == 0 ? "a" : "b";
                for (String line : outputs.get(p).get()) {
                    if (line.startsWith("APPEND ")) {
                        String[] parts = line.split(" ");
                        assertThat(written.put(parts[1], tag + parts[2])).as("id %s given twice", parts[1]).isNull();
                    }
                }
            }
        } finally {
            children.forEach(Process::destroyForcibly);
        }
        assertThat(written).hasSize(2 * each);
        try (AzureBlobBackend second = Azurite.backend(blob.name()); SegmentedLog one = open(blob.backend(), root);
                SegmentedLog two = open(second, root)) {
            List<StorageRecord> read = one.stream().collect(Collectors.toList());
            Map<String, String> found = new HashMap<>();
            for (StorageRecord r : read) {
                assertThat(found.put(r.id(), (String) r.data().get("by") + r.data().get("i"))).as("duplicate %s", r.id())
                        .isNull();
            }
            assertThat(found).as("no lost or duplicated append").isEqualTo(written);
            assertThat(two.stream().map(StorageRecord::id).collect(Collectors.toList())).as("both instances read the same log")
                    .isEqualTo(read.stream().map(StorageRecord::id).collect(Collectors.toList()));
            Set<Long> seenA = new HashSet<>();
            for (StorageRecord r : read) {
                if ("a".equals(r.data().get("by"))) {
                    assertThat(seenA.add((Long) r.data().get("i"))).isTrue();
                    assertThat((Long) r.data().get("i")).as("a's appends stay in its order").isEqualTo(seenA.size() - 1L);
                }
            }
            assertThat(one.verify().ok()).isTrue();
            System.out.println("two JVMs appended " + read.size() + " records over "
                    + blobs().stream().filter(n -> n.contains("/audit/segments/seg-")).count() + " segments");
        }
    }
}
