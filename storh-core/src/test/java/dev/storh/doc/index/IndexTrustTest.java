package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.doc.SecondJvmWriter;
import dev.storh.fs.LookCountingFiles;
import dev.storh.query.Direction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Index state an instance checked is used without a look at its files while nothing but this
 * instance can have written them (one look at the writers folder per query), and every write of
 * this instance, of a second instance and of a second JVM is seen by the next query.
 */
class IndexTrustTest {

    @TempDir
    Path root;

    /** @return the looks counted at names under a folder */
    private static int looksUnder(LookCountingFiles files, String folder) {
        return files.looks().entrySet().stream().filter(e -> e.getKey().startsWith(folder)).mapToInt(Map.Entry::getValue).sum();
    }

    private static Map<String, Object> row(String kind, long at) {
        return Map.of("kind", kind, "at", at);
    }

    private static List<String> ids(List<StorageRecord> records) {
        List<String> ids = new ArrayList<>();
        records.forEach(r -> ids.add(r.id()));
        return ids;
    }

    @Test
    void checkedStateCostsOneLookAtTheWritersFolderPerQueryAndOwnWritesAreSeen() throws Exception {
        List<LookCountingFiles> made = new ArrayList<>();
        DocStoreOptions options = DocStoreOptions.builder().files(folder -> {
            LookCountingFiles looks = new LookCountingFiles(folder);
            made.add(looks);
            return looks;
        }).build();
        try (DocStore store = DocStore.open(root, "c", options)) {
            store.put(row("page", 0)); // registers the writer marker
            Thread.sleep(30); // index files written later than the writers folder's time
            store.indexes().field("kind").index().field("at").range().sync();
            for (long i = 1; i <= 40; i++) {
                store.put(row(i % 2 == 0 ? "page" : "post", i));
            }
            LookCountingFiles looks = made.get(made.size() - 1);
            for (int round = 0; round < 2; round++) { // the first round checks the files and vouches for them
                assertThat(store.query().where("kind").eq("page").count()).isEqualTo(21);
                assertThat(store.query().where("at").gte(30L).orderBy("at", Direction.DESC).limit(3).get())
                        .extracting(r -> r.data().get("at")).containsExactly(40L, 39L, 38L);
                assertThat(store.query().where("at").between(5L, 9L).count()).isEqualTo(5);
            }
            looks.reset();
            assertThat(store.query().where("kind").eq("page").count()).isEqualTo(21);
            assertThat(store.query().where("at").between(5L, 9L).count()).isEqualTo(5);
            assertThat(looksUnder(looks, ".storh/indexes")).as("looks at index files of checked state").isZero();
            assertThat(looksUnder(looks, ".storh/writers")).as("looks at the writers folder, one per query").isEqualTo(2);

            String added = store.put(row("page", 41)).id();
            assertThat(store.query().where("kind").eq("page").count()).isEqualTo(22);
            assertThat(store.query().where("at").gte(30L).orderBy("at", Direction.DESC).first().orElseThrow().id())
                    .isEqualTo(added);
            store.delete(added);
            assertThat(store.query().where("kind").eq("page").count()).isEqualTo(21);
            assertThat(store.query().where("at").gte(41L).count()).isZero();
        }
    }

    @Test
    void aSecondInstancesWritesAreSeenByTheFirstInstancesNextQuery() throws Exception {
        try (DocStore first = DocStore.open(root, "c")) {
            first.put(row("page", 0));
            Thread.sleep(30);
            first.indexes().field("kind").index().field("at").range().sync();
            first.put(row("post", 1));
            long pages = 1;
            long latest = 1;
            for (int round = 0; round < 40; round++) {
                for (int look = 0; look < 2; look++) { // the second look is answered from checked state
                    assertThat(first.query().where("kind").eq("page").count()).as("round %d", round).isEqualTo(pages);
                    assertThat(first.query().where("at").gte(0L).orderBy("at", Direction.DESC).first().orElseThrow()
                            .data().get("at")).as("round %d", round).isEqualTo(latest);
                }
                try (DocStore second = DocStore.open(root, "c")) {
                    latest++;
                    second.put(row("page", latest));
                    pages++;
                    if (round % 3 == 0) {
                        assertThat(first.query().where("kind").eq("page").count()).as("round %d, open", round).isEqualTo(pages);
                    }
                }
            }
            assertThat(first.query().where("kind").eq("page").count()).isEqualTo(pages);
            assertThat(first.query().where("at").between(1L, latest).count()).isEqualTo(latest);
        }
    }

    /**
     * Readers on many threads while this instance and a second one write: no count ever goes back,
     * and once both writers are done every reader sees every write.
     */
    @Test
    void readersOnManyThreadsNeverLoseAWriteOfEitherInstance() throws Exception {
        try (DocStore first = DocStore.open(root, "c"); DocStore second = DocStore.open(root, "c")) {
            first.put(row("page", 0));
            Thread.sleep(30);
            first.indexes().field("kind").index().field("at").range().sync();
            int each = 60;
            java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(5);
            try {
                List<java.util.concurrent.Future<?>> readers = new ArrayList<>();
                for (int r = 0; r < 3; r++) {
                    readers.add(pool.submit(() -> {
                        long seen = 0;
                        while (writing.get()) {
                            long now = first.query().where("kind").eq("page").count();
                            assertThat(now).as("a count never goes back").isGreaterThanOrEqualTo(seen);
                            seen = now;
                            first.query().where("at").gte(0L).orderBy("at", Direction.DESC).first().orElseThrow();
                        }
                        return null;
                    }));
                }
                java.util.concurrent.Future<?> own = pool.submit(() -> {
                    for (long i = 1; i <= each; i++) {
                        first.put(row("page", i));
                    }
                    return null;
                });
                java.util.concurrent.Future<?> other = pool.submit(() -> {
                    for (long i = 1; i <= each; i++) {
                        second.put(row("page", 1000 + i));
                    }
                    return null;
                });
                own.get(120, TimeUnit.SECONDS);
                other.get(120, TimeUnit.SECONDS);
                writing.set(false);
                for (java.util.concurrent.Future<?> reader : readers) {
                    reader.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(first.query().where("kind").eq("page").count()).isEqualTo(1 + 2L * each);
            assertThat(first.query().where("at").gte(0L).orderBy("at", Direction.DESC).first().orElseThrow().data().get("at"))
                    .isEqualTo(1000L + each);
            assertThat(first.query().where("at").between(1L, (long) each).count()).isEqualTo(each);
        }
    }

    @Test
    void aSecondJvmsWritesAreSeenByTheNextQuery() throws Exception {
        try (DocStore store = DocStore.open(root, "c")) {
            store.put(Map.of("writer", "parent", "i", 0L));
            Thread.sleep(30);
            store.indexes().field("writer").index().field("i").range().sync();
            for (long i = 1; i <= 20; i++) {
                store.put(Map.of("writer", "parent", "i", i));
            }
            for (int look = 0; look < 2; look++) {
                assertThat(store.query().where("writer").eq("child").count()).isZero();
                assertThat(store.query().where("i").gte(0L).count()).isEqualTo(21);
                assertThat(store.query().where("i").gte(0L).orderBy("i", Direction.DESC).first().orElseThrow()
                        .data().get("writer")).isEqualTo("parent");
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), SecondJvmWriter.class.getName(),
                    root.toString(), "c", "30").redirectErrorStream(true).redirectOutput(root.resolve("child.log").toFile()).start();
            assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as(Files.readString(root.resolve("child.log"))).isZero();

            assertThat(store.query().where("writer").eq("child").count()).isEqualTo(30);
            assertThat(store.query().where("i").gte(0L).count()).isEqualTo(51);
            assertThat(store.query().where("i").gte(21L).count()).isEqualTo(9);
            assertThat(ids(store.query().where("writer").eq("child").get())).hasSize(30);
        }
    }
}
