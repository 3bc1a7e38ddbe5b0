package dev.storh.spring.data.core;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.storh.doc.DocStore;
import dev.storh.spring.data.mapping.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.annotation.Id;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Entities read from an unchanged record are handed out again ({@link EntityReadCache}) only for
 * records of immutable values, and never once the record changed: through the template, through
 * another store on the same folder, and while another thread keeps saving.
 */
class EntityReadCacheTests {

    @TempDir
    Path root;

    enum Mood { CALM, LOUD }

    /** Immutable values only: kept. */
    @Document(collection = "notes")
    public record Note(@Id String id, String title, long count, Instant at, Mood mood) {
    }

    /** A list component a caller could change: never kept. */
    @Document(collection = "tagged")
    public record Tagged(@Id String id, List<String> tags) {
    }

    @Test
    void anUnchangedRecordOfImmutableValuesGivesTheSameEntity() {
        try (StorhTemplate template = new StorhTemplate(this.root)) {
            Note saved = template.save(new Note(null, "first", 1, Instant.parse("2026-01-01T00:00:00Z"), Mood.CALM));
            Note read = template.findById(saved.id(), Note.class).orElseThrow();

            assertThat(read).isEqualTo(saved);
            assertThat(template.findById(saved.id(), Note.class)).containsSame(read);

            Note changed = template.save(new Note(saved.id(), "second", 2, saved.at(), Mood.LOUD));
            Note reread = template.findById(saved.id(), Note.class).orElseThrow();
            assertThat(reread).isEqualTo(changed).isNotSameAs(read);
            assertThat(template.findById(saved.id(), Note.class)).containsSame(reread);
        }
    }

    @Test
    void everyOneOfTwoHundredUnchangedRecordsGivesItsEntityAgain() {
        try (StorhTemplate template = new StorhTemplate(this.root)) {
            List<Note> saved = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                saved.add(template.save(new Note(null, "note " + i, i, Instant.parse("2026-01-01T00:00:00Z"), Mood.CALM)));
            }
            List<Note> first = new ArrayList<>();
            for (Note note : saved) {
                first.add(template.findById(note.id(), Note.class).orElseThrow());
            }
            for (int i = 0; i < saved.size(); i++) {
                assertThat(first.get(i)).isEqualTo(saved.get(i));
                assertThat(template.findById(saved.get(i).id(), Note.class)).as("note %d", i).containsSame(first.get(i));
            }
        }
    }

    @Test
    void typesHoldingMutableValuesAreReadAnewEachTime() {
        assertThat(EntityReadCache.cacheable(Note.class)).isTrue();
        assertThat(EntityReadCache.cacheable(Tagged.class)).isFalse();
        assertThat(EntityReadCache.cacheable(String.class)).isFalse();
        try (StorhTemplate template = new StorhTemplate(this.root)) {
            Tagged saved = template.save(new Tagged(null, new ArrayList<>(List.of("a", "b"))));
            Tagged first = template.findById(saved.id(), Tagged.class).orElseThrow();
            first.tags().add("changed by the caller");

            Tagged second = template.findById(saved.id(), Tagged.class).orElseThrow();
            assertThat(second).isNotSameAs(first);
            assertThat(second.tags()).containsExactly("a", "b");
        }
    }

    @Test
    void aRecordChangedByAnotherStoreOnTheFolderIsReadAnew() {
        try (StorhTemplate template = new StorhTemplate(this.root)) {
            Note saved = template.save(new Note(null, "mine", 1, Instant.parse("2026-01-01T00:00:00Z"), Mood.CALM));
            Note read = template.findById(saved.id(), Note.class).orElseThrow();
            try (DocStore other = DocStore.open(this.root, "notes")) {
                Map<String, Object> data = new LinkedHashMap<>(other.get(saved.id()).orElseThrow().data());
                data.put("title", "written by another store, longer");
                other.put(data, saved.id());
            }
            Note reread = template.findById(saved.id(), Note.class).orElseThrow();

            assertThat(reread).isNotSameAs(read);
            assertThat(reread.title()).isEqualTo("written by another store, longer");
        }
    }

    @Test
    void readersNeverSeeAnOlderCountThanTheLastSaveBeforeTheirRead() throws Exception {
        try (StorhTemplate template = new StorhTemplate(this.root)) {
            String id = template.save(new Note(null, "counter", 0, Instant.parse("2026-01-01T00:00:00Z"), Mood.CALM))
                .id();
            int saves = 150;
            AtomicBoolean writing = new AtomicBoolean(true);
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> readers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                Thread reader = new Thread(() -> {
                    long last = -1;
                    try {
                        start.await();
                        while (writing.get()) {
                            long count = template.findById(id, Note.class).orElseThrow().count();
                            if (count < last) {
                                failures.add("count went back from " + last + " to " + count);
                            }
                            last = count;
                        }
                        long after = template.findById(id, Note.class).orElseThrow().count();
                        if (after != saves) {
                            failures.add("after the last save read " + after + ", expected " + saves);
                        }
                    }
                    catch (InterruptedException | RuntimeException ex) {
                        failures.add(ex.toString());
                    }
                });
                reader.start();
                readers.add(reader);
            }
            start.countDown();
            for (int i = 1; i <= saves; i++) {
                template.save(new Note(id, "counter", i, Instant.parse("2026-01-01T00:00:00Z"), Mood.CALM));
                assertThat(template.findById(id, Note.class).orElseThrow().count()).isEqualTo(i);
            }
            writing.set(false);
            for (Thread reader : readers) {
                reader.join();
            }
            assertThat(failures).isEmpty();
        }
    }

}
