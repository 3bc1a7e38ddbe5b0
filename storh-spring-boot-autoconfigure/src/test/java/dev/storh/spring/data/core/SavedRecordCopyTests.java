package dev.storh.spring.data.core;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.storh.spring.data.mapping.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A saved Java record entity is handed back as a copy carrying the stored id (and version) with
 * every other component the very value the caller passed, as Spring Data's modules hand back
 * immutable entities, instead of an entity read back from the stored data. Real files.
 */
class SavedRecordCopyTests {

    @TempDir
    Path root;

    @Document(collection = "notes")
    record Note(@Id String id, String text, Instant at, List<String> tags, @Version Long version) {
    }

    @Document(collection = "tickets")
    record Ticket(@Id UUID id, String title, int seats) {
    }

    /** A compact constructor that refuses a blank title. */
    record Checked(String id, String title) {
        Checked {
            if (title == null || title.isBlank()) {
                throw new IllegalArgumentException("title");
            }
        }
    }

    @Test
    void saveAndSaveAllHandBackTheCallersComponentsWithTheStoredIdAndVersion() {
        StorhTemplate template = new StorhTemplate(this.root);
        List<String> tags = new ArrayList<>(List.of("a", "b"));
        Note note = new Note(null, new String("first"), Instant.parse("2026-12-07T10:15:30.123456789Z"), tags, null);
        Note saved = template.save(note);
        assertThat(saved.id()).isNotNull().hasSize(36);
        assertThat(saved.version()).isZero();
        assertThat(saved.text()).isSameAs(note.text()); // not read back: the caller's own instances
        assertThat(saved.at()).isSameAs(note.at());
        assertThat(saved.tags()).isSameAs(tags);
        assertThat(template.findById(saved.id(), Note.class)).get()
            .satisfies((read) -> assertThat(read.text()).isEqualTo("first").isNotSameAs(note.text()));

        Note updated = template.save(new Note(saved.id(), "second", saved.at(), List.of(), saved.version()));
        assertThat(updated.id()).isEqualTo(saved.id());
        assertThat(updated.version()).isEqualTo(1L);

        List<Note> batch = template.saveAll(List.of(new Note(null, "x", null, List.of(), null),
                new Note(null, "y", null, List.of("t"), null)));
        assertThat(batch).extracting(Note::text).containsExactly("x", "y");
        assertThat(batch).allSatisfy((n) -> assertThat(n.version()).isZero());
        assertThat(batch).extracting(Note::id).doesNotContainNull().doesNotHaveDuplicates();
        assertThat(batch.get(1).tags()).containsExactly("t");

        Ticket ticket = template.save(new Ticket(null, "show", 3));
        assertThat(ticket.id()).isNotNull();
        assertThat(template.findById(ticket.id().toString(), Ticket.class)).contains(ticket);
    }

    @Test
    void aCopyIsRefusedWhenItCannotBeMadeAsAsked() {
        Checked checked = new Checked(null, "t");
        assertThat(RecordCopies.with(checked, Map.of("id", "x"))).isEqualTo(new Checked("x", "t"));
        assertThat(RecordCopies.with(checked, Map.of("title", " "))).as("the compact constructor refuses").isNull();
        assertThat(RecordCopies.with(checked, Map.of("id", 7L))).as("a value of another type").isNull();
        assertThat(RecordCopies.with(checked, Map.of("name", "x"))).as("no such component").isNull();
        assertThat(RecordCopies.with(new Ticket(null, "t", 1), java.util.Collections.singletonMap("seats", null)))
            .as("null for a primitive").isNull();
        assertThat(RecordCopies.with(new StringBuilder("not a record"), Map.of("id", "x"))).isNull();
    }

}
