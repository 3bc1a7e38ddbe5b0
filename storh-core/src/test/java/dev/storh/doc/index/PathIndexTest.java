package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import dev.storh.query.FieldPath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Path indexes on a bookshop collection: nested fields, list elements (multikey), case-insensitive
 * equality and prefix, unique with any number of null or missing values; their files beside the
 * original's (whose manifest and trees stay as the original writes them), rebuilt when missing,
 * checked by {@code verify()}; refused puts write nothing; concurrent unique puts have one winner.
 */
class PathIndexTest {

    private static final FieldPath PUBLISHER = FieldPath.of("publisher", "name");
    private static final FieldPath TAGS = FieldPath.of("tags");
    private static final FieldPath RATINGS = FieldPath.of("reviews", "rating");
    private static final FieldPath ISBN = FieldPath.of("isbn");

    @TempDir
    Path root;

    private static Map<String, Object> book(String title, String publisher, List<String> tags, List<Long> ratings, String isbn) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("title", title);
        data.put("publisher", Map.of("name", publisher));
        data.put("tags", tags);
        List<Object> reviews = new ArrayList<>();
        ratings.forEach(r -> reviews.add(Map.of("rating", r)));
        data.put("reviews", reviews);
        if (isbn != null) {
            data.put("isbn", isbn);
        }
        return data;
    }

    private DocStore shop() {
        DocStore store = DocStore.open(root, "books");
        store.indexes().field("title").range().definePath(PUBLISHER, false, false).definePath(PUBLISHER, false, true)
                .definePath(TAGS, false, false).definePath(RATINGS, false, false).definePath(ISBN, true, false).sync();
        return store;
    }

    private static List<String> titles(List<StorageRecord> records) {
        return records.stream().map(r -> (String) r.data().get("title")).toList();
    }

    @Test
    void nestedMultikeyAndCaseInsensitiveQueriesAreServedByPathIndexes() {
        try (DocStore store = shop()) {
            store.put(book("Dune", "Chilton", List.of("scifi", "rare"), List.of(5L, 4L), "111"));
            store.put(book("Emma", "Murray", List.of("classic"), List.of(3L), null));
            store.put(book("Ubik", "Doubleday", List.of("scifi"), List.of(2L, 5L), "222"));
            store.put(book("Solaris", "chilton books", List.of("RARE"), List.of(), "333"));

            assertThat(titles(store.query().where(PUBLISHER).eq("Chilton").get())).containsExactly("Dune");
            assertThat(titles(store.query().where(TAGS).has("rare").get())).containsExactly("Dune");
            assertThat(titles(store.query().where(TAGS).ignoringCase().has("rare").get())).containsExactly("Dune", "Solaris");
            assertThat(titles(store.query().where(RATINGS).eq(5L).get())).containsExactly("Dune", "Ubik");
            assertThat(titles(store.query().where(RATINGS).lt(3L).get())).containsExactly("Ubik");
            assertThat(titles(store.query().where(PUBLISHER).ignoringCase().prefix("CHILTON").get()))
                    .containsExactly("Dune", "Solaris");
            assertThat(titles(store.query().where(PUBLISHER).ignoringCase().eq("MURRAY").get())).containsExactly("Emma");
            assertThat(store.query().where(PUBLISHER).ignoringCase().prefix("chil").count()).isEqualTo(2);
            assertThat(titles(store.query().where(PUBLISHER).prefix("D").orderBy(PUBLISHER, dev.storh.query.Direction.ASC)
                    .get())).containsExactly("Ubik");

            for (var q : List.of(store.query().where(PUBLISHER).eq("Chilton"), store.query().where(TAGS).has("rare"),
                    store.query().where(RATINGS).gte(4L), store.query().where(PUBLISHER).ignoringCase().prefix("c"))) {
                assertThat(q.explain().usesIndexes()).as("%s", q).isTrue();
            }
            assertThat(titles(store.query().where(PUBLISHER).gt("a").get())).as("the case-sensitive index: 'a' > 'C'")
                    .containsExactly("Solaris");
            assertThat(store.query().where(TAGS).contains("ar").explain().usesIndexes()).isFalse();
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void theOriginalsFilesStayAsTheOriginalWritesThem() throws Exception {
        try (DocStore store = shop()) {
            store.put(book("Dune", "Chilton", List.of("scifi"), List.of(5L), "111"));
            Path indexes = root.resolve("books/.storh/indexes");
            String manifest = Files.readString(indexes.resolve("manifest.jsonc"));
            assertThat(manifest).isEqualTo("{\n    \"fields\": [\n        {\n            \"field\": \"title\",\n"
                    + "            \"unique\": false,\n            \"range\": true\n        }\n    ]\n}\n");
            assertThat(Files.readString(indexes.resolve("paths.jsonc"))).contains("\"publisher\"", "\"name\"", "\"isbn\"");
            try (var listing = Files.list(indexes.resolve("entries"))) {
                assertThat(listing.map(p -> p.getFileName().toString()).sorted().toList()).containsExactly("paths", "range");
            }
            PathIndexDefinition publisher = new PathIndexDefinition(PUBLISHER, false, false);
            byte[] main = Files.readAllBytes(IndexLayout.pathMain(indexes.resolve("entries"), publisher));
            assertThat(new String(main, StandardCharsets.UTF_8))
                    .startsWith("{\"path\":[\"publisher\",\"name\"],\"ignoreCase\":false}\n");
        }
    }

    @Test
    void anIndexWhoseFilesTheOriginalRemovedIsRebuiltOnUseAndVerifyNamesTheGap() throws Exception {
        try (DocStore store = shop()) {
            store.put(book("Dune", "Chilton", List.of("rare"), List.of(5L), "111"));
            // The original's rebuild deletes entries/ and writes only the trees it knows.
            dev.storh.fs.AtomicFiles.deleteTree(root.resolve("books/.storh/indexes/entries/paths"));
            assertThat(store.verify().errors()).anyMatch(e -> e.startsWith("Missing path index file:") && e.contains("tags"));
            assertThat(titles(store.query().where(TAGS).has("rare").get())).containsExactly("Dune");
            assertThatThrownBy(() -> store.put(book("Copy", "X", List.of(), List.of(), "111")))
                    .isInstanceOf(UniqueConstraintException.class).hasMessageContaining("isbn");
            store.reindex();
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void verifyReportsARecordChangedBehindThePathIndex() throws Exception {
        try (DocStore store = shop()) {
            String id = store.put(book("Dune", "Chilton", List.of("rare"), List.of(5L), "111")).id();
            Path file;
            try (var files = Files.walk(root.resolve("books/data"))) {
                file = files.filter(p -> p.toString().endsWith(".jsonc")).findFirst().orElseThrow();
            }
            Files.writeString(file, Files.readString(file).replace("Chilton", "Gollancz"));
            assertThat(store.verify().errors()).contains("Index mismatch (path): publisher.name " + id);
            store.repair();
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void uniquePathIndexesLetAnyNumberOfRecordsLackTheValueOrHoldNull() {
        try (DocStore store = shop()) {
            store.put(book("A", "P", List.of(), List.of(), null));
            store.put(book("B", "P", List.of(), List.of(), null));
            Map<String, Object> withNull = book("C", "P", List.of(), List.of(), null);
            withNull.put("isbn", null);
            store.put(withNull);
            store.put(new LinkedHashMap<>(withNull));
            String first = store.put(book("D", "P", List.of(), List.of(), "978")).id();
            assertThatThrownBy(() -> store.put(book("E", "P", List.of(), List.of(), "978")))
                    .isInstanceOf(UniqueConstraintException.class)
                    .hasMessageContaining("isbn").hasMessageContaining(first);
            assertThat(store.count()).as("the refused put wrote nothing").isEqualTo(5);
            store.put(book("D2", "P", List.of(), List.of(), "978"), first); // a record keeps its own value
            assertThatThrownBy(() -> store.putMany(List.of(book("F", "P", List.of(), List.of(), "1"),
                    book("G", "P", List.of(), List.of(), "1")))).isInstanceOf(UniqueConstraintException.class);
            assertThat(store.query().where(ISBN).eq(null).count()).isEqualTo(2);
        }
    }

    @Test
    void twoStoreInstancesSeeEachOthersUniqueValuesAndEntries() {
        try (DocStore a = shop(); DocStore b = DocStore.open(root, "books")) {
            a.put(book("Dune", "Chilton", List.of("rare"), List.of(5L), "111"));
            assertThatThrownBy(() -> b.put(book("Copy", "X", List.of(), List.of(), "111")))
                    .isInstanceOf(UniqueConstraintException.class).hasMessageContaining("isbn");
            b.put(book("Ubik", "Chilton", List.of("rare"), List.of(2L), "222"));
            assertThat(titles(a.query().where(PUBLISHER).eq("Chilton").get())).containsExactly("Dune", "Ubik");
            assertThat(titles(b.query().where(TAGS).has("rare").get())).containsExactly("Dune", "Ubik");
            assertThat(b.verify().errors()).isEmpty();
        }
    }

    @Test
    void aCaseFoldedUniqueIndexRefusesTheSameValueInAnotherCase() {
        try (DocStore store = DocStore.open(root, "users")) {
            store.indexes().definePath(FieldPath.of("email"), true, true).sync();
            store.put(Map.of("email", "Ann@Example.org"));
            assertThatThrownBy(() -> store.put(Map.of("email", "ann@example.ORG")))
                    .isInstanceOf(UniqueConstraintException.class).hasMessageContaining("field: email (value ann@example.ORG");
            store.put(Map.of("email", List.of("b@x", "B@X"))); // one record may repeat its own value
        }
    }

    @Test
    void concurrentPutsOfOneUniqueValueHaveOneWinner() throws Exception {
        try (DocStore store = shop()) {
            int threads = 8;
            CountDownLatch start = new CountDownLatch(1);
            AtomicInteger won = new AtomicInteger();
            ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int n = t;
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < 20; i++) {
                            try {
                                store.put(book("T" + n + "-" + i, "P", List.of("t" + n), List.of((long) i), "isbn-" + i));
                                won.incrementAndGet();
                            } catch (UniqueConstraintException expected) {
                                // another thread holds the value
                            }
                            store.query().where(TAGS).has("t" + n).count();
                        }
                    } catch (Throwable e) {
                        unexpected.add(e);
                    }
                });
                running.add(thread);
                thread.start();
            }
            start.countDown();
            for (Thread thread : running) {
                thread.join();
            }
            assertThat(unexpected).isEmpty();
            assertThat(won.get()).isEqualTo(20);
            assertThat(store.count()).isEqualTo(20);
            assertThat(store.verify().errors()).isEmpty();
        }
    }

    @Test
    void badPathsFailNamingTheField() {
        try (DocStore store = DocStore.open(root, "bad")) {
            assertThatThrownBy(() -> store.indexes().definePath(null, false, false)).isInstanceOf(StorageException.class)
                    .hasMessage("Index field cannot be empty.");
            assertThatThrownBy(() -> store.indexes().definePath(FieldPath.of("publisher", ""), false, false))
                    .isInstanceOf(StorageException.class).hasMessageContaining("[publisher, ]");
            assertThatThrownBy(() -> FieldPath.parse("publisher..name")).isInstanceOf(StorageException.class)
                    .hasMessageContaining("publisher..name");
            assertThatThrownBy(() -> store.query().where(PUBLISHER).regex("(").get()).isInstanceOf(StorageException.class)
                    .hasMessageContaining("publisher.name");
        }
    }

    @Test
    void aTopLevelKeyWithADotStaysItsOwnIndex() {
        try (DocStore store = DocStore.open(root, "dots")) {
            store.indexes().definePath(FieldPath.of("a.b"), false, false).definePath(FieldPath.of("a", "b"), false, false).sync();
            String dotted = store.put(Map.of("a.b", 1L)).id();
            String nested = store.put(Map.of("a", Map.of("b", 1L))).id();
            assertThat(store.query().where(FieldPath.of("a.b")).eq(1L).get()).extracting(StorageRecord::id).containsExactly(dotted);
            assertThat(store.query().where(FieldPath.of("a", "b")).eq(1L).get()).extracting(StorageRecord::id)
                    .containsExactly(nested);
            assertThat(store.indexes().pathDefinitions()).hasSize(2);
            assertThat(Arrays.asList(store.indexes().indexedKeys().toArray())).containsExactly("a", "a.b");
        }
    }

    @Test
    void aPathIndexDefinedByAnotherWriterAfterThisStoreOpenedWithoutAnyIsSeen() throws Exception {
        try (DocStore reader = DocStore.open(root, "late")) {
            String a = reader.put(book("A", "Acme", List.of("x"), List.of(5L), null)).id();
            reader.put(book("B", "Bolt", List.of("y"), List.of(3L), null));
            assertThat(Files.exists(root.resolve("late/.storh/indexes/paths.jsonc"))).isFalse();
            assertThat(reader.indexes().pathDefinitions()).isEmpty();
            try (DocStore writer = DocStore.open(root, "late")) {
                writer.indexes().definePath(PUBLISHER, false, false).sync();
            }
            assertThat(Files.exists(root.resolve("late/.storh/indexes/paths.jsonc"))).isTrue();
            assertThat(reader.indexes().pathDefinitions()).extracting(PathIndexDefinition::path).containsExactly(PUBLISHER);
            assertThat(reader.query().where(PUBLISHER).eq("Acme").get()).extracting(StorageRecord::id).containsExactly(a);
            assertThat(reader.query().where(PUBLISHER).eq("Acme").explain().plan()).isEqualTo(dev.storh.query.QueryPlan.INDEX_SCAN);
        }
        try (DocStore reopened = DocStore.open(root, "late")) {
            assertThat(reopened.indexes().pathDefinitions()).extracting(PathIndexDefinition::path).containsExactly(PUBLISHER);
        }
    }
}
