package dev.storh.spring.boot.actuate;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import dev.storh.fs.WriterMarkers;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.util.Assert;

/**
 * Health of the storh collections folder: UP when the folder is writable and no collection has a
 * stale writer marker, DOWN otherwise (spec/docstore.md §7).
 * <p>
 * Each check creates the folder if it is missing, then creates and deletes a probe file
 * {@code .storh-health-<16 hex>.tmp} in it, so the check reflects what the process can really do
 * (permission bits alone would let root pass). It then lists
 * {@code <folder>/<collection>/.storh/writers/} of every collection and collects the markers whose
 * writer process is dead ({@link WriterMarkers#staleMarkers(Path)}): a writer crashed and may
 * have left temp files, swept when the collection is next opened.
 * <p>
 * Details: {@code root} (absolute folder path), {@code collections} (number of collection
 * folders, names not starting with {@code .}), {@code staleWriters} (absolute paths of stale
 * markers), and {@code error} when the folder is not usable. A DOWN status is logged at WARN with
 * the path. Thread-safe; every call touches the disk.
 */
public class StorhHealthIndicator extends AbstractHealthIndicator {

	private static final Log logger = LogFactory.getLog(StorhHealthIndicator.class);

	private static final SecureRandom RANDOM = new SecureRandom();

	private final Path collectionsFolder;

	/**
	 * @param collectionsFolder the folder holding one sub-folder per collection
	 */
	public StorhHealthIndicator(Path collectionsFolder) {
		super("storh health check failed");
		Assert.notNull(collectionsFolder, "'collectionsFolder' must not be null");
		this.collectionsFolder = collectionsFolder.toAbsolutePath().normalize();
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		Path folder = this.collectionsFolder;
		builder.withDetail("root", folder.toString());
		String error = checkWritable(folder);
		if (error != null) {
			logger.warn("storh collections folder is not usable: " + error);
			builder.down().withDetail("error", error);
			return;
		}
		List<Path> collections = new ArrayList<>();
		List<String> staleWriters = new ArrayList<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
			for (Path entry : entries) {
				if (!entry.getFileName().toString().startsWith(".")
						&& Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
					collections.add(entry);
				}
			}
		}
		catch (IOException ex) {
			String message = "Could not list collections folder " + folder + ": " + ex;
			logger.warn(message);
			builder.down().withDetail("error", message);
			return;
		}
		collections.sort(null);
		for (Path collection : collections) {
			if (Files.isDirectory(WriterMarkers.writersDirectory(collection))) {
				for (Path marker : WriterMarkers.staleMarkers(collection)) {
					staleWriters.add(marker.toAbsolutePath().toString());
				}
			}
		}
		builder.withDetail("collections", collections.size()).withDetail("staleWriters", staleWriters);
		if (staleWriters.isEmpty()) {
			builder.up();
		}
		else {
			logger.warn("storh collections folder " + folder + " has stale writer markers of crashed writers: "
					+ staleWriters);
			builder.down();
		}
	}

	/**
	 * @return {@code null} when the folder exists (or was created) and a probe file can be created
	 * and deleted in it, else a message naming the path and the failure
	 */
	private static String checkWritable(Path folder) {
		if (Files.exists(folder) && !Files.isDirectory(folder)) {
			return folder + " exists but is not a directory";
		}
		try {
			Files.createDirectories(folder);
		}
		catch (IOException ex) {
			return "Could not create collections folder " + folder + ": " + ex;
		}
		byte[] random = new byte[8];
		RANDOM.nextBytes(random);
		Path probe = folder.resolve(".storh-health-" + HexFormat.of().formatHex(random) + ".tmp");
		try {
			Files.createFile(probe);
		}
		catch (IOException ex) {
			return "Collections folder " + folder + " is not writable: could not create " + probe + ": " + ex;
		}
		try {
			Files.delete(probe);
		}
		catch (IOException ex) {
			return "Collections folder " + folder + " is not writable: could not delete " + probe + ": " + ex;
		}
		return null;
	}

}
