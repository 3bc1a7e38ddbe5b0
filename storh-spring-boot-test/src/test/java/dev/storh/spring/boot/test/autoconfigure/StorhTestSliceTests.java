package dev.storh.spring.boot.test.autoconfigure;

import java.nio.file.Path;
import java.util.Map;

import dev.storh.log.SegmentedLog;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.sample.notes.Note;
import dev.storh.spring.sample.notes.NoteRepository;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StorhTest}: storh beans and repositories only, on a temporary root.
 */
@StorhTest(properties = "storh.logs.events.max-segment-bytes=4KB")
class StorhTestSliceTests {

    @Autowired
    NoteRepository notes;

    @Autowired
    @Qualifier("events")
    SegmentedLog events;

    @Autowired
    StorhStores stores;

    @Autowired
    ApplicationContext context;

    @Test
    void repositoriesLogsAndQueuesWorkOnATemporaryRoot() {
        Path root = this.stores.collectionsFolder();
        assertThat(root.getFileName().toString()).startsWith("storh-test-");
        assertThat(root.getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath());
        Note saved = this.notes.save(new Note(null, "hello"));
        assertThat(this.notes.findById(saved.id())).contains(saved);
        assertThat(this.notes.findByText("hello")).containsExactly(saved);
        this.events.put(Map.of("type", "note.created", "id", saved.id()));
        assertThat(root.resolve("events")).isDirectory();
    }

    @Test
    void applicationComponentsAreLeftOut() {
        assertThat(this.context.getBeansOfType(NotInTheSlice.class)).isEmpty();
        assertThat(this.context.containsBean("storhHealthIndicator")).isFalse();
    }

}
