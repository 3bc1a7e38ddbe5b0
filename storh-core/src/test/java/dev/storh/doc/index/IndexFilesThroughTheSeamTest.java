package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.query.FieldPath;
import dev.storh.query.QueryBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every read of the index files goes through the byte seam: the collection's {@code .storh/indexes/}
 * tree lives in another folder than the one the engine is told about ({@link ShadowIndexFiles}), so
 * a read, existence check, size or listing that went to the local file system directly would find no
 * index at all. With that seam, seeded random writes, deletes, reopens and reindexes, then indexed
 * queries and counts (equality, unique, range, compound and path indexes), unique checks and
 * {@code verify()} must answer as a scan of the records does; the engine-visible index folder must stay
 * absent; and the seam must have served the reads of every kind of index file.
 * Seeds: a fixed list, or {@code -Dstorh.seed=<n>} for one seed.
 */
class IndexFilesThroughTheSeamTest {

    private static final long[] SEEDS = {5L, 31L, 20261201L};

    @TempDir
    Path root;

    @Test
    void indexReadsGoThroughTheByteSeamAndAnswerAsAScan() {
        String override = System.getProperty("storh.seed");
        for (long seed : override == null || override.isBlank() ? SEEDS : new long[] {Long.parseLong(override.trim())}) {
            runSeed(seed);
        }
    }

    private void runSeed(long seed) {
        System.out.println("IndexFilesThroughTheSeamTest seed " + seed + " (rerun with -Dstorh.seed=" + seed + ")");
        Random random = new Random(seed);
        Path dir = root.resolve("seed-" + seed);
        Path shadow = root.resolve("shadow-" + seed);
        Set<String> touched = new ConcurrentSkipListSet<>();
        DocStoreOptions options = DocStoreOptions.builder().files(folder -> folder.getFileName().toString().equals("r")
                ? new ShadowIndexFiles(LocalFiles.at(folder), LocalFiles.at(shadow), touched) : LocalFiles.at(folder)).build();
        List<String> written = new ArrayList<>();
        DocStore store = DocStore.open(dir, "r", options);
        AtomicReference<DocStore> open = new AtomicReference<>(store);
        try {
            store.indexes().field("e").field("c").field("u").unique().field("r").range()
                    .definePath(FieldPath.of("r", "a"), false, false).sync();
            store = IndexVsScanRandomTest.randomWrites(store, random, written, 60, () -> DocStore.open(dir, "r", options), open::set);
            String label = "seed " + seed;
            assertThat(store.verify().errors()).as(label + " verify").isEmpty();
            assertAnswersEqualAScan(store, random, written, label);

            String holder = store.put(Map.of("u", "held by one record")).id();
            DocStore last = store;
            assertThatThrownBy(() -> last.put(Map.of("u", "held by one record"))).as(label)
                    .isInstanceOf(UniqueConstraintException.class).hasMessageContaining(holder);

            store.reindex();
            assertThat(store.verify().errors()).as(label + " verify after reindex").isEmpty();
            assertAnswersEqualAScan(store, random, written, label + " after reindex");

            Path engineVisible = dir.resolve("r/.storh/indexes");
            assertThat(engineVisible).as(label + ": nothing reached the index folder outside the seam").doesNotExist();
            assertThat(touched).as(label).anyMatch(n -> n.equals("read .storh/indexes/manifest.jsonc"))
                    .anyMatch(n -> n.equals("read .storh/indexes/paths.jsonc"))
                    .anyMatch(n -> n.matches("read \\.storh/indexes/entries/eq/[0-9a-f]+/.+\\.jsonc"))
                    .anyMatch(n -> n.matches("read \\.storh/indexes/entries/compound/[0-9a-f]+-[0-9a-f]+/c-.+\\.jsonc"))
                    .anyMatch(n -> n.matches("read \\.storh/indexes/entries/range/[0-9a-f]+\\.jsonl"))
                    .anyMatch(n -> n.matches("read \\.storh/indexes/entries/range/[0-9a-f]+\\.unindexed\\.jsonc"))
                    .anyMatch(n -> n.matches("read \\.storh/indexes/entries/paths/.+\\.jsonl"))
                    .anyMatch(n -> n.matches("list \\.storh/indexes/entries/eq/[0-9a-f]+"))
                    .anyMatch(n -> n.equals("list .storh/indexes"));

            // verify reads the files the seam serves: damage there is found, and reindex repairs it
            Path eqFolder = shadow.resolve(".storh/indexes/entries/eq/" + IndexKeys.hex("e"));
            Path valueFile;
            try (Stream<Path> files = Files.list(eqFolder)) {
                valueFile = files.filter(p -> p.toString().endsWith(".jsonc")).findFirst().orElseThrow();
            }
            Files.writeString(valueFile, "{\"field\":\"e\",\"key\":\"s-00\",\"count\":0,\"value\":null,\"ids\":[]}\n");
            assertThat(store.verify().errors()).as(label + " verify of a damaged value file").isNotEmpty();
            store.reindex();
            assertThat(store.verify().errors()).as(label + " verify after repair").isEmpty();
        } catch (IOException e) {
            throw new AssertionError(e);
        } finally {
            open.get().close();
        }
    }

    private static void assertAnswersEqualAScan(DocStore store, Random random, List<String> written, String label) {
        QueryBuilder scan = QueryBuilder.on(IndexVsScanRandomTest.scanReference(store));
        for (int i = 0; i < 60; i++) {
            QueryBuilder shape = IndexVsScanRandomTest.randomQuery(random, store.query(), written);
            QueryBuilder indexed = IndexVsScanRandomTest.replay(shape, store.query());
            QueryBuilder scanned = IndexVsScanRandomTest.replay(shape, scan);
            String query = label + " query " + indexed;
            assertThat(IndexVsScanRandomTest.ids(indexed.get())).as(query).isEqualTo(IndexVsScanRandomTest.ids(scanned.get()));
            assertThat(indexed.count()).as("count " + query).isEqualTo(scanned.count());
        }
        for (Object v : IndexVsScanRandomTest.VALUES) {
            for (QueryBuilder q : List.of(store.query().where("e").eq(v), store.query().where("e").eq(v).limit(2),
                    store.query().where("u").eq(v), store.query().where("r").gte(v), store.query().where("r").lt(v).limit(3),
                    store.query().where("e").eq(v).where("c").eq(7L), store.query().where(FieldPath.of("r", "a")).eq(v))) {
                assertThat(q.explain().usesIndexes() || !IndexKeys.isIndexable(v)).as("%s: an index serves %s", label, q).isTrue();
                QueryBuilder s = IndexVsScanRandomTest.replay(q, scan);
                assertThat(IndexVsScanRandomTest.ids(q.get())).as("%s %s", label, q).isEqualTo(IndexVsScanRandomTest.ids(s.get()));
                assertThat(q.count()).as("%s count %s", label, q).isEqualTo(s.count());
            }
        }
        assertThat(store.query().get().stream().map(StorageRecord::id).toList()).as(label).hasSize((int) store.count());
    }

    /**
     * A seam that keeps every name under {@code .storh/indexes} in another folder than the engine's
     * root (and records which of those names were read, listed or checked); the other names go to the
     * engine's root. The collection's real index folder therefore stays absent.
     */
    static final class ShadowIndexFiles extends ForwardingFiles {

        private static final String PREFIX = ".storh/indexes";

        private final StoreFiles shadow;
        private final Set<String> touched;

        ShadowIndexFiles(StoreFiles files, StoreFiles shadow, Set<String> touched) {
            super(files);
            this.shadow = shadow;
            this.touched = touched;
        }

        private static boolean shadowed(String name) {
            String n = name.replace('\\', '/');
            return n.equals(PREFIX) || n.startsWith(PREFIX + "/");
        }

        private StoreFiles to(String name, String what) {
            if (!shadowed(name)) {
                return files;
            }
            if (what != null) {
                touched.add(what + " " + name.replace('\\', '/'));
            }
            return shadow;
        }

        private StoreFiles both(String a, String b) throws IOException {
            if (shadowed(a) != shadowed(b)) {
                throw new IOException("a rename across the index folder's boundary: " + a + " -> " + b);
            }
            return to(a, null);
        }

        @Override
        public InputStream open(String name) throws IOException {
            return to(name, "read").open(name);
        }

        @Override
        public InputStream open(String name, long offset) throws IOException {
            return to(name, "read").open(name, offset);
        }

        @Override
        public byte[] readAll(String name) throws IOException {
            return to(name, "read").readAll(name);
        }

        @Override
        public byte[] readAll(String name, long sizeSeen) throws IOException {
            return to(name, "read").readAll(name, sizeSeen);
        }

        @Override
        public Input openInput(String name) throws IOException {
            return to(name, "read").openInput(name);
        }

        @Override
        public Output create(String name) throws IOException {
            return to(name, null).create(name);
        }

        @Override
        public Output append(String name) throws IOException {
            return to(name, null).append(name);
        }

        @Override
        public void rename(String from, String to) throws IOException {
            both(from, to).rename(from, to);
        }

        @Override
        public boolean exchange(String a, String b) throws IOException {
            return both(a, b).exchange(a, b);
        }

        @Override
        public void syncDirectory(String dir) throws IOException {
            to(dir, null).syncDirectory(dir);
        }

        @Override
        public List<String> list(String dir) throws IOException {
            if (shadowed(dir)) {
                return to(dir, "list").list(dir);
            }
            List<String> names = files.list(dir);
            String d = dir.replace('\\', '/');
            if (PREFIX.startsWith(d.isEmpty() ? "" : d + "/")) {
                String child = PREFIX.substring(d.isEmpty() ? 0 : d.length() + 1).split("/")[0];
                if (shadow.exists(d.isEmpty() ? child : d + "/" + child) && !names.contains(child)) {
                    names = new ArrayList<>(names);
                    names.add(child);
                }
            }
            return names;
        }

        @Override
        public void delete(String name) throws IOException {
            to(name, null).delete(name);
        }

        @Override
        public dev.storh.fs.CollectionLock lock(String name) {
            return to(name, null).lock(name);
        }

        @Override
        public Optional<Entry> stat(String name) throws IOException {
            return to(name, "stat").stat(name);
        }

        @Override
        public boolean exists(String name) throws IOException {
            return to(name, "stat").exists(name);
        }

        @Override
        public void createDirectories(String dir) throws IOException {
            to(dir, null).createDirectories(dir);
        }

        @Override
        public Object identity(String name) throws IOException {
            return to(name, "stat").identity(name);
        }

        @Override
        public Optional<String> version(String name) throws IOException {
            return to(name, "stat").version(name);
        }

        @Override
        public Optional<String> likelyFileVersion(String name) throws IOException {
            return to(name, "stat").likelyFileVersion(name);
        }

        @Override
        public Optional<String> versionInSeenFolder(String name) throws IOException {
            return to(name, "stat").versionInSeenFolder(name);
        }

        @Override
        public String writeIfVersion(String name, byte[] bytes, String expectedVersion) throws IOException {
            return to(name, null).writeIfVersion(name, bytes, expectedVersion);
        }
    }
}
