package dev.storh.spring.boot.actuate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.sample.cities.City;
import dev.storh.spring.sample.notes.Note;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StorhHealthIndicator} on real folders: read-only, counting each kind of store.
 */
class StorhHealthIndicatorTests {

    @TempDir
    Path temp;

    @Test
    void upOnAFreshRootWithoutCreatingIt() throws Exception {
        Path folder = this.temp.resolve("fresh/storh");

        Health health = new StorhHealthIndicator(folder).health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("root", folder.toString())
            .containsEntry("exists", false)
            .containsEntry("collections", 0)
            .containsEntry("logs", 0)
            .containsEntry("queues", 0)
            .containsEntry("staleWriters", List.of());
        // health is read-only: nothing was created
        assertThat(this.temp.resolve("fresh")).doesNotExist();
    }

    @Test
    void downWhenTheRootIsNotWritableWithoutWritingAProbe() throws Exception {
        Path folder = Files.createDirectories(this.temp.resolve("read-only"));
        Assumptions.assumeTrue(folder.toFile().setWritable(false, false), "cannot drop write permission");
        try {
            Assumptions.assumeFalse(Files.isWritable(folder), "running as root: permission bits do not apply");
            Health health = new StorhHealthIndicator(folder).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat((String) health.getDetails().get("error")).contains(folder.toString()).contains("not writable");
        }
        finally {
            folder.toFile().setWritable(true, false);
        }
        assertThat(list(folder)).isEmpty();
    }

    @Test
    void countsEachKindOfStoreAndWritesNothing() throws Exception {
        Path folder = this.temp.resolve("kinds");
        try (StorhTemplate template = new StorhTemplate(folder);
                SegmentedLog events = SegmentedLog.open(folder, "events");
                Queue jobs = Queue.open(folder, "jobs")) {
            template.save(City.of("Oslo", "NO", 709_000L, true));
            events.put(Map.of("type", "login"));
            jobs.enqueue(Map.of("task", "resize"));
            List<String> before = tree(folder);

            Health health = new StorhHealthIndicator(folder).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("collections", 1)
                .containsEntry("logs", 1)
                .containsEntry("queues", 1)
                .containsEntry("others", 0);
            assertThat(tree(folder)).isEqualTo(before);
        }
    }

    @Test
    void downWhenTheRootIsARegularFile() throws Exception {
        Path file = this.temp.resolve("not-a-folder");
        Files.writeString(file, "data");

        Health health = new StorhHealthIndicator(file).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("root", file.toString());
        assertThat((String) health.getDetails().get("error")).contains(file.toString()).contains("not a directory");
        assertThat(Files.readString(file)).isEqualTo("data");
    }

    @Test
    void downWhenTheRootCannotBeCreatedBecauseItsParentIsAFile() throws Exception {
        Path file = this.temp.resolve("parent-file");
        Files.writeString(file, "data");
        Path folder = file.resolve("storh");

        Health health = new StorhHealthIndicator(folder).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) health.getDetails().get("error")).contains(folder.toString())
            .contains("cannot be created: " + file + " is not a directory");
    }

    @Test
    void downWithAStaleWriterMarkerOfADeadProcess() throws Exception {
        Path folder = this.temp.resolve("root");
        Path writers = Files.createDirectories(folder.resolve("c/.storh/writers"));
        Files.createDirectories(folder.resolve("c/data"));
        // pid 99999999 is above any Linux pid_max, so that writer cannot be alive
        Path stale = Files.createFile(writers.resolve("99999999.deadbeef"));

        Health health = new StorhHealthIndicator(folder).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("collections", 1)
            .containsEntry("staleWriters", List.of(stale.toAbsolutePath().toString()));
    }

    @Test
    void upWithLiveWritersAndCountsCollections() throws Exception {
        Path folder = this.temp.resolve("live");
        try (StorhTemplate template = new StorhTemplate(folder)) {
            template.save(City.of("Oslo", "NO", 709_000L, true));
            template.save(new Note(null, "hello"));
            // this process's markers exist and are alive
            assertThat(list(folder.resolve("cities/.storh/writers"))).hasSize(1);

            Health health = new StorhHealthIndicator(folder).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("collections", 2).containsEntry("staleWriters", List.of());
        }
    }

    private static List<Path> list(Path folder) throws Exception {
        try (Stream<Path> files = Files.list(folder)) {
            return files.toList();
        }
    }

    /** Every path below the folder with its size and modification time. */
    private static List<String> tree(Path folder) throws Exception {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.sorted().map((path) -> {
                try {
                    return folder.relativize(path) + " " + Files.size(path) + " " + Files.getLastModifiedTime(path);
                }
                catch (java.io.IOException ex) {
                    throw new java.io.UncheckedIOException(ex);
                }
            }).toList();
        }
    }

}
