package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.store.RepairReport;
import dev.storh.store.VerifyReport;
import dev.storh.CorruptRecordException;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.json.CanonicalJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Symbolic links and hostile names never let a DocStore read, write or delete outside its
 * collection: links are refused with an error naming them, verify reports them, and names or ids
 * that try to leave the root are refused before anything is touched.
 */
class NothingOutsideTheRootTest {

    @TempDir
    Path temp;

    private Path root;
    private Path outside;

    @BeforeEach
    void folders() throws Exception {
        root = Files.createDirectories(temp.resolve("root"));
        outside = Files.createDirectories(temp.resolve("outside"));
    }

    /** An id whose bucket is {@code bucket}. */
    private static String idInBucket(String bucket) {
        while (true) {
            String id = UuidV7.generate();
            if (id.substring(24, 26).equals(bucket)) {
                return id;
            }
        }
    }

    @Test
    void aBucketLinkedOutsideIsNeverWrittenReadOrDeletedThrough() throws Exception {
        try (DocStore store = DocStore.open(root, "pages")) {
            store.indexes().field("kind").sync();
            String kept = store.put(Map.of("kind", "a")).id();
            String bucket = kept.substring(24, 26).equals("5a") ? "5b" : "5a";
            Path link = store.collectionRoot().resolve("data").resolve(bucket);
            Files.createSymbolicLink(link, outside);
            String victim = idInBucket(bucket);
            Path outsideRecord = outside.resolve(victim + ".jsonc");
            Files.write(outsideRecord, CanonicalJson.recordBytes(victim, Map.of("kind", "a")));

            String fresh = idInBucket(bucket);
            assertThatThrownBy(() -> store.put(Map.of("kind", "a"), fresh)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("symbolic link").hasMessageContaining(link.toString());
            assertThatThrownBy(() -> store.put(Map.of("kind", "b"), victim)).isInstanceOf(StorageException.class)
                    .hasMessageContaining(link.toString());
            assertThatThrownBy(() -> store.putMany(List.of(Map.of("id", fresh, "data", Map.of("kind", "a")))))
                    .isInstanceOf(StorageException.class).hasMessageContaining(link.toString());
            assertThatThrownBy(() -> store.delete(victim)).isInstanceOf(StorageException.class)
                    .hasMessageContaining(link.toString());
            assertThatThrownBy(() -> store.get(victim)).isInstanceOf(StorageException.class)
                    .hasMessageContaining(link.toString());
            assertThatThrownBy(() -> store.exists(victim)).isInstanceOf(StorageException.class);
            try (Stream<Path> files = Files.list(outside)) {
                assertThat(files.toList()).containsExactly(outsideRecord);
            }
            assertThat(outsideRecord).hasBinaryContent(CanonicalJson.recordBytes(victim, Map.of("kind", "a")));

            // Listing never follows the link; reindex does not index what lies behind it.
            assertThat(store.ids().toList()).containsExactly(kept);
            store.reindex();
            assertThat(store.query().where("kind").eq("a").count()).isEqualTo(1);

            VerifyReport<StoreStats> verify = store.verify();
            assertThat(verify.ok()).isFalse();
            assertThat(verify.errors()).anySatisfy(e -> assertThat(e).startsWith("Unsafe symbolic link: " + link));
        }
    }

    @Test
    void aRecordFileLinkedOutsideIsRefusedReportedAndQuarantinedAsALink() throws Exception {
        try (DocStore store = DocStore.open(root, "pages")) {
            store.indexes().field("kind").sync();
            String kept = store.put(Map.of("kind", "a")).id();
            String victim = UuidV7.generate();
            Path outsideRecord = outside.resolve(victim + ".jsonc");
            byte[] secret = CanonicalJson.recordBytes(victim, Map.of("kind", "a", "secret", "s3cr3t"));
            Files.write(outsideRecord, secret);
            Path link = store.pathForId(victim);
            Files.createDirectories(link.getParent());
            Files.createSymbolicLink(link, outsideRecord);

            assertThatThrownBy(() -> store.get(victim)).isInstanceOf(CorruptRecordException.class)
                    .hasMessageContaining("symbolic link").hasMessageContaining(link.toString());
            assertThatThrownBy(() -> store.stream().toList()).isInstanceOf(CorruptRecordException.class)
                    .hasMessageContaining(link.toString());
            assertThatThrownBy(store::reindex).isInstanceOf(CorruptRecordException.class)
                    .hasMessageContaining(link.toString());
            assertThatThrownBy(() -> store.put(Map.of("kind", "b"), victim)).isInstanceOf(CorruptRecordException.class);
            List<String> skipped = new java.util.ArrayList<>();
            try (Stream<StorageRecord> all = store.stream(dev.storh.query.RecordQuery.all()
                    .continueOnError((id, e) -> skipped.add(id)))) {
                assertThat(all.map(StorageRecord::id).toList()).containsExactly(kept);
            }
            assertThat(skipped).containsExactly(victim);

            VerifyReport<StoreStats> verify = store.verify();
            assertThat(verify.ok()).isFalse();
            assertThat(verify.errors()).first().isEqualTo("Corrupt records: 1");
            assertThat(verify.errors().get(1)).startsWith("Corrupt record: " + link).contains("symbolic link");

            RepairReport<DocRepair> repair = store.repair();
            assertThat(repair.details().quarantined()).isEqualTo(1);
            Path quarantined = store.collectionRoot().resolve(".storh/corrupt/" + victim + ".jsonc");
            assertThat(Files.isSymbolicLink(quarantined)).as("the link itself is moved aside").isTrue();
            assertThat(outsideRecord).hasBinaryContent(secret);
            assertThat(store.verify().errors()).isEmpty();
            assertThat(store.query().where("kind").eq("a").count()).isEqualTo(1);
        }
    }

    @Test
    void aDataFolderLinkedOutsideIsNeitherListedNorWritten() throws Exception {
        String outsideId = UuidV7.generate();
        Path bucket = Files.createDirectories(outside.resolve(outsideId.substring(24, 26)));
        Files.write(bucket.resolve(outsideId + ".jsonc"), CanonicalJson.recordBytes(outsideId, Map.of("a", 1L)));
        Path collection = Files.createDirectories(root.resolve("pages"));
        Path data = Files.createSymbolicLink(collection.resolve("data"), outside);
        try (DocStore store = DocStore.open(root, "pages")) {
            assertThatThrownBy(() -> store.put(Map.of("a", 2L))).isInstanceOf(StorageException.class)
                    .hasMessageContaining(data.toString());
            assertThatThrownBy(() -> store.stream().toList()).isInstanceOf(StorageException.class)
                    .hasMessageContaining(data.toString());
            assertThatThrownBy(store::count).isInstanceOf(StorageException.class);
            assertThatThrownBy(() -> store.get(outsideId)).isInstanceOf(StorageException.class)
                    .hasMessageContaining(data.toString());
            assertThatThrownBy(() -> store.delete(outsideId)).isInstanceOf(StorageException.class);
            assertThat(bucket.resolve(outsideId + ".jsonc")).exists();
            try (Stream<Path> files = Files.list(bucket)) {
                assertThat(files.count()).isEqualTo(1);
            }
            VerifyReport<StoreStats> verify = store.verify();
            assertThat(verify.ok()).isFalse();
            assertThat(verify.errors()).anySatisfy(e -> assertThat(e).startsWith("Unsafe symbolic link: " + data));
            assertThat(verify.stats().records()).isZero();
        }
    }

    @Test
    void verifyReportsADataFolderOrABucketThatIsAFile() throws Exception {
        try (DocStore store = DocStore.open(root, "pages")) {
            String id = store.put(Map.of("a", 1L)).id();
            String other = id.substring(24, 26).equals("00") ? "01" : "00";
            Path bucketFile = store.collectionRoot().resolve("data").resolve(other);
            Files.writeString(bucketFile, "not a folder");
            VerifyReport<StoreStats> verify = store.verify();
            assertThat(verify.ok()).isFalse();
            assertThat(verify.errors()).containsExactly("Not a folder: " + bucketFile
                    + " (a bucket must be a folder, not a file)");
            assertThat(verify.stats().records()).isEqualTo(1);
        }
        try (DocStore store = DocStore.open(root, "flat")) {
            Files.createDirectories(store.collectionRoot());
            Path dataFile = store.collectionRoot().resolve("data");
            Files.writeString(dataFile, "not a folder");
            VerifyReport<StoreStats> verify = store.verify();
            assertThat(verify.ok()).isFalse();
            assertThat(verify.errors()).containsExactly("Not a folder: " + dataFile
                    + " (the records folder must be a folder, not a file)");
            assertThatThrownBy(() -> store.put(Map.of("a", 1L))).isInstanceOf(StorageException.class)
                    .hasMessageContaining(dataFile.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "../escaped", "/etc", "a/b", "a\\b", "a\0b", "..\\..", "./x"})
    void collectionNamesThatLeaveTheRootAreRefusedBeforeAnythingIsCreated(String name) throws Exception {
        assertThatThrownBy(() -> DocStore.open(root, name)).isInstanceOf(StorageException.class)
                .hasMessageContaining("Invalid collection name").hasMessageContaining(name.replace("\0", "\\0"));
        try (Stream<Path> inTemp = Files.list(temp); Stream<Path> inRoot = Files.list(root)) {
            assertThat(inTemp.toList()).containsExactlyInAnyOrder(root, outside);
            assertThat(inRoot.toList()).isEmpty();
        }
    }

    /** The log and the queue refuse the same names (their own rules; a log may nest with '/'). */
    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "../escaped", "/etc", "a\\b", "a\0b", "..\\..", "x/../../escaped"})
    void logAndQueueNamesThatLeaveTheRootAreRefusedToo(String name) throws Exception {
        assertThatThrownBy(() -> dev.storh.log.SegmentedLog.open(root, name).close())
                .isInstanceOf(StorageException.class).hasMessageContaining("Invalid log collection name");
        assertThatThrownBy(() -> dev.storh.queue.Queue.open(root, name).close())
                .isInstanceOf(StorageException.class).hasMessageContaining("Invalid queue name");
        try (Stream<Path> inTemp = Files.list(temp); Stream<Path> inRoot = Files.list(root)) {
            assertThat(inTemp.toList()).containsExactlyInAnyOrder(root, outside);
            assertThat(inRoot.toList()).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"../../outside/x", "/etc/passwd", "..", "0190f0e0-1234-7abc-8def-abcdef01/345",
        "0190f0e0-1234-7abc-8def-abcdef01\0345", "0190f0e0-1234-7abc-8def-abc/../../345", "..\\..\\x"})
    void idsThatTryToLeaveTheRootAreRefusedEverywhere(String id) throws Exception {
        try (DocStore store = DocStore.open(root, "pages")) {
            store.put(Map.of("a", 1L));
            List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> calls = List.of(
                    () -> store.put(Map.of("a", 1L), id), () -> store.get(id), () -> store.delete(id),
                    () -> store.exists(id), () -> store.pathForId(id),
                    () -> store.putMany(List.of(Map.of("id", id, "data", Map.of("a", 1L)))),
                    () -> store.stream(dev.storh.query.RecordQuery.all().after(id)));
            for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call : calls) {
                assertThatThrownBy(call).isInstanceOf(StorageException.class).hasMessageContaining("Invalid UUIDv7 value");
            }
            Path jsonl = temp.resolve("hostile.jsonl");
            Files.write(jsonl, CanonicalJson.encodeCompact(Map.of("id", id, "data", Map.of("a", 1L))));
            assertThatThrownBy(() -> store.importJsonl(jsonl)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("Invalid UUIDv7 value");
            assertThat(store.count()).isEqualTo(1);
        }
        try (Stream<Path> inOutside = Files.list(outside)) {
            assertThat(inOutside.toList()).isEmpty();
        }
    }
}
