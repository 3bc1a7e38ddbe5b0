package dev.storh.spring.boot.actuate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.sample.cities.City;
import dev.storh.spring.sample.notes.Note;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StorhHealthIndicator} on real folders (spec/docstore.md §7 for writer markers).
 */
class StorhHealthIndicatorTests {

	@TempDir
	Path temp;

	@Test
	void upOnAFreshRootWhichItCreates() throws Exception {
		Path folder = this.temp.resolve("fresh/storh");

		Health health = new StorhHealthIndicator(folder).health();

		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("root", folder.toString())
			.containsEntry("collections", 0)
			.containsEntry("staleWriters", List.of());
		assertThat(folder).isDirectory();
		// the probe file is gone
		assertThat(list(folder)).isEmpty();
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
		assertThat((String) health.getDetails().get("error")).contains("Could not create collections folder")
			.contains(folder.toString());
	}

	@Test
	void downWithAStaleWriterMarkerOfADeadProcess() throws Exception {
		Path folder = this.temp.resolve("root");
		Path writers = Files.createDirectories(folder.resolve("c/.storh/writers"));
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

}
