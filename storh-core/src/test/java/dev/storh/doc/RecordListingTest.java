package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.cache.Cache;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.LookCountingFiles;
import dev.storh.id.UuidV7;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packed, lazily merged record listing against a plain walk of the folder, and the saved
 * bucket counts against outside writers and damaged files.
 */
class RecordListingTest {

    private static final long[] SEEDS = {1L, 7L, 42L, 2026L};

    @TempDir
    Path root;

    private static long[] seeds() {
        String given = System.getProperty("storh.seed");
        return given == null ? SEEDS : new long[] {Long.parseLong(given)};
    }

    /** A seam that counts folder listings. */
    private static final class CountingFiles extends ForwardingFiles {
        final AtomicInteger lists = new AtomicInteger();

        CountingFiles(Path folder) {
            super(LocalFiles.at(folder));
        }

        @Override
        public List<String> list(String dir) throws IOException {
            lists.incrementAndGet();
            return files.list(dir);
        }
    }

    private static String record(String id, long n) {
        return "{\"id\":\"" + id + "\",\"data\":{\"n\":" + n + "}}";
    }

    private static void write(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    /** What the original's listing gives: every *.jsonc below data/, by name, the copy in its own bucket first. */
    private static List<String> walk(Path data) throws IOException {
        TreeMap<String, Path> byName = new TreeMap<>();
        try (Stream<Path> all = Files.walk(data)) {
            for (Path p : (Iterable<Path>) all.filter(f -> f.getFileName().toString().endsWith(".jsonc"))::iterator) {
                String id = DocLayout.stripRecordExtension(p.getFileName().toString());
                boolean own = id.length() >= 26 && p.getParent().getFileName().toString().equals(DocLayout.bucketOf(id));
                if (!byName.containsKey(id) || own) {
                    byName.put(id, p);
                }
            }
        }
        return new ArrayList<>(byName.keySet());
    }

    @Test
    void listingMergesBucketsAndStraysInIdOrderAsAWalkDoes() throws Exception {
        for (long seed : seeds()) {
            Path base = root.resolve("seed-" + seed);
            Random random = new Random(seed);
            try (DocStore store = DocStore.open(base, "c")) {
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < 120; i++) {
                    ids.add(store.put(Map.of("n", (long) i)).id());
                }
                Path data = base.resolve("c/data");
                // Copies and odd names a hand or another tool may leave.
                String copied = ids.get(random.nextInt(ids.size()));
                write(data.resolve("zz/" + copied + ".jsonc"), record(copied, -1));
                String elsewhere = UuidV7.generate();
                write(data.resolve("zz/" + elsewhere + ".jsonc"), record(elsewhere, -2));
                String nested = UuidV7.generate();
                Path deep = data.resolve(DocLayout.bucketOf(nested) + "/sub");
                write(deep.resolve(nested + ".jsonc"), record(nested, -3));
                String loose = UuidV7.generate();
                write(data.resolve(loose + ".jsonc"), record(loose, -4));
                String upper = UuidV7.generate().toUpperCase();
                write(data.resolve(DocLayout.bucketOf(upper.toLowerCase()) + "/" + upper + ".jsonc"),
                        record(upper, -5));
                write(data.resolve("00/not-an-id.jsonc"), "{}");
                List<String> expected = walk(data);
                assertThat(RecordListing.list(LocalFiles.at(base.resolve("c")), data).stream()
                        .map(RecordListing.Entry::id).toList()).as("seed %d", seed).isEqualTo(expected);
                List<String> valid = expected.stream().filter(UuidV7::isValid).toList();
                assertThat(store.ids().toList()).as("seed %d", seed).isEqualTo(valid);
                assertThat(store.count()).as("seed %d", seed).isEqualTo(valid.size());
                try (Stream<StorageRecord> all = store.stream(dev.storh.query.RecordQuery.all().continueOnError((id, e) -> { }))) {
                    List<StorageRecord> records = all.toList();
                    assertThat(records.stream().map(StorageRecord::id).toList()).as("seed %d", seed)
                            .isEqualTo(valid);
                    // The copy outside its bucket loses to the file where its id belongs.
                    assertThat(records.stream().filter(r -> r.id().equals(copied)).findFirst().orElseThrow().data())
                            .as("seed %d", seed).isNotEqualTo(Map.of("n", -1L));
                }
            }
        }
    }

    /** Sets every bucket folder's time an hour back, as in a collection written long ago. */
    static void age(Path data) throws IOException {
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
        try (Stream<Path> buckets = Files.list(data)) {
            for (Path b : (Iterable<Path>) buckets::iterator) {
                Files.setLastModifiedTime(b, old);
            }
        }
    }

    /** A seam that cannot tell folders apart (as blob storage): its folder times are not trusted. */
    private static final class NoIdentityFiles extends ForwardingFiles {
        NoIdentityFiles(Path folder) {
            super(LocalFiles.at(folder));
        }

        @Override
        public Object identity(String name) throws IOException {
            files.identity(name);
            return null;
        }

        @Override
        public java.util.Optional<Stated> statWithIdentity(String name) throws IOException {
            return files.stat(name).map(entry -> new Stated(entry, null));
        }
    }

    @Test
    void aListingLooksAtEachBucketOnceForItsTimeAndIdentity() throws Exception {
        List<LookCountingFiles> seams = new ArrayList<>();
        DocStoreOptions options = DocStoreOptions.builder().cache(Cache.none()).files(folder -> {
            LookCountingFiles f = new LookCountingFiles(folder);
            seams.add(f);
            return f;
        }).build();
        try (DocStore store = DocStore.open(root, "c", options)) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                ids.add(store.put(Map.of("n", (long) i)).id());
            }
            Set<String> buckets = new TreeSet<>();
            ids.forEach(id -> buckets.add("data/" + DocLayout.bucketOf(id)));
            seams.forEach(LookCountingFiles::reset);
            assertThat(store.ids().toList()).containsExactlyInAnyOrderElementsOf(ids);
            Map<String, Integer> looks = new TreeMap<>();
            seams.forEach(seam -> seam.looks().forEach((name, n) -> looks.merge(name, n, Integer::sum)));
            Map<String, Integer> bucketLooks = new TreeMap<>(looks);
            bucketLooks.keySet().retainAll(buckets);
            assertThat(bucketLooks.keySet()).isEqualTo(buckets);
            assertThat(bucketLooks.values()).as("looks per bucket folder: %s", bucketLooks).containsOnly(1);
        }
    }

    @Test
    void aSeamWithoutIdentitiesListsEveryBucketEachTime() throws Exception {
        DocStoreOptions options = DocStoreOptions.builder().files(NoIdentityFiles::new).build();
        try (DocStore store = DocStore.open(root, "c", options)) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                ids.add(store.put(Map.of("n", (long) i)).id());
            }
            Path data = root.resolve("c/data");
            age(data);
            assertThat(store.count()).isEqualTo(40);
            // Another writer adds a file to a bucket whose time then looks unchanged.
            Path bucket = store.pathForId(ids.get(0)).getParent();
            FileTime before = Files.getLastModifiedTime(bucket);
            String other = ids.get(0).substring(0, 24) + DocLayout.bucketOf(ids.get(0)) + "0000000000";
            write(bucket.resolve(other + ".jsonc"), record(other, 99));
            Files.setLastModifiedTime(bucket, before);
            assertThat(store.count()).isEqualTo(41);
            assertThat(store.ids().toList()).contains(other);
        }
    }

    @Test
    void firstCountAfterAStartReadsSavedCountsAndSeesEveryOutsideChange() throws Exception {
        List<CountingFiles> seams = new ArrayList<>();
        DocStoreOptions counted = DocStoreOptions.builder().cache(Cache.none()).files(folder -> {
            CountingFiles f = new CountingFiles(folder);
            seams.add(f);
            return f;
        }).build();
        Path data = root.resolve("c/data");
        List<String> ids = new ArrayList<>();
        try (DocStore store = DocStore.open(root, "c")) {
            for (int i = 0; i < 400; i++) {
                ids.add(store.put(Map.of("n", (long) i)).id());
            }
        }
        age(data);
        try (DocStore store = DocStore.open(root, "c", counted)) {
            assertThat(store.count()).isEqualTo(400); // lists every bucket once, then saves at close
        }
        assertThat(Files.exists(root.resolve("c/.storh/listing-counts"))).isTrue();
        seams.clear();
        try (DocStore store = DocStore.open(root, "c", counted)) {
            int before = seams.stream().mapToInt(s -> s.lists.get()).sum();
            assertThat(store.count()).isEqualTo(400);
            int after = seams.stream().mapToInt(s -> s.lists.get()).sum();
            assertThat(after - before).as("folders listed by the first count").isEqualTo(1); // data/ only
            // Another writer (no shared memory, as another process) adds and removes records.
            try (DocStore other = DocStore.open(root, "c", DocStoreOptions.builder().cache(Cache.none()).build())) {
                other.put(Map.of("n", 1000L));
                other.delete(ids.get(0));
                other.delete(ids.get(1));
            }
            assertThat(store.count()).isEqualTo(399);
            assertThat(store.ids().toList()).hasSize(399).doesNotContain(ids.get(0), ids.get(1));
        }
        // A crash leaves saved counts older than the files: the changed buckets no longer match them.
        byte[] stale = Files.readAllBytes(root.resolve("c/.storh/listing-counts"));
        try (DocStore other = DocStore.open(root, "c", DocStoreOptions.builder().cache(Cache.none()).build())) {
            for (int i = 0; i < 50; i++) {
                other.put(Map.of("n", 2000L + i));
            }
        }
        Files.write(root.resolve("c/.storh/listing-counts"), stale);
        try (DocStore store = DocStore.open(root, "c", counted)) {
            assertThat(store.count()).isEqualTo(449);
        }
        // Damaged or torn counts are ignored.
        String[] damages = {"", "storh-listing-counts 1\n00\t1\t", "garbage\n00\t1\t999\tx\n",
            "storh-listing-counts 1\n00\tnot-a-number\t5\tk\n"};
        for (String damaged : damages) {
            Files.writeString(root.resolve("c/.storh/listing-counts"), damaged);
            try (DocStore store = DocStore.open(root, "c", counted)) {
                assertThat(store.count()).as("counts file %s", damaged).isEqualTo(449);
            }
        }
    }
}
