package dev.storh.spring.boot.actuate;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.storh.doc.DocLayout;
import dev.storh.fs.WriterMarkers;
import dev.storh.log.LogFiles;
import dev.storh.queue.QueueFiles;
import dev.storh.spring.boot.stores.StorhStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.util.Assert;

/**
 * Health of the storh collections folder: UP when the folder can be written and no store has a
 * stale writer marker, DOWN otherwise.
 * <p>
 * Read-only: a check creates, deletes and writes nothing. It asks the file system whether the
 * folder (or, while it does not exist yet, its nearest existing parent, where storh will create
 * it on the first write) is a directory this process may write ({@link Files#isWritable}, the
 * permission bits and ACLs; a process running as root passes it even on a read-only bind mount,
 * where the first write would fail). It then lists the folder and each store's
 * {@code .storh/writers/} and collects the markers whose writer process is dead
 * ({@link WriterMarkers#staleMarkers(Path)}): a writer crashed and may have left temp files,
 * swept when the store is next opened or repaired.
 * <p>
 * Details: {@code root} (absolute folder path), {@code exists} (whether the folder exists yet),
 * {@code collections}, {@code logs}, {@code queues} (store folders of each kind, told apart by
 * their files: {@code data/} for a collection, {@code manifest.jsonc}, {@code segments/} or
 * {@code partitions/} for a log, {@code queue.log} for a queue), {@code others} (folders that are
 * none of these, e.g. a collection that was opened but never written), {@code staleWriters}
 * (absolute paths of stale markers), and {@code error} when the folder is not usable. A DOWN
 * status is logged at WARN with the path. Thread-safe.
 */
public class StorhHealthIndicator extends AbstractHealthIndicator {

    private static final Log logger = LogFactory.getLog(StorhHealthIndicator.class);

    private final Path collectionsFolder;

    /**
     * @param collectionsFolder the folder holding one sub-folder per store
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
        String error = StorhStore.checkWritable(folder, true);
        boolean exists = Files.isDirectory(folder);
        builder.withDetail("exists", exists);
        if (error != null) {
            logger.warn("storh collections folder is not usable: " + error);
            builder.down().withDetail("error", error);
            return;
        }
        int collections = 0;
        int logs = 0;
        int queues = 0;
        int others = 0;
        List<String> staleWriters = new ArrayList<>();
        if (exists) {
            List<Path> stores = new ArrayList<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
                for (Path entry : entries) {
                    if (!entry.getFileName().toString().startsWith(".")
                            && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                        stores.add(entry);
                    }
                }
            }
            catch (IOException ex) {
                String message = "Could not list collections folder " + folder + ": " + ex;
                logger.warn(message);
                builder.down().withDetail("error", message);
                return;
            }
            stores.sort(null);
            for (Path store : stores) {
                if (Files.isRegularFile(store.resolve(QueueFiles.LOG_NAME))) {
                    queues++;
                }
                else if (Files.exists(store.resolve(LogFiles.MANIFEST)) || Files.isDirectory(store.resolve(LogFiles.SEGMENTS))
                        || Files.isDirectory(store.resolve(LogFiles.PARTITIONS))) {
                    logs++;
                }
                else if (Files.isDirectory(DocLayout.of(store).dataDir())) {
                    collections++;
                }
                else {
                    others++;
                }
                if (Files.isDirectory(WriterMarkers.writersDirectory(store))) {
                    for (Path marker : WriterMarkers.staleMarkers(store)) {
                        staleWriters.add(marker.toAbsolutePath().toString());
                    }
                }
            }
        }
        builder.withDetail("collections", collections)
            .withDetail("logs", logs)
            .withDetail("queues", queues)
            .withDetail("others", others)
            .withDetail("staleWriters", staleWriters);
        if (staleWriters.isEmpty()) {
            builder.up();
        }
        else {
            logger.warn("storh collections folder " + folder + " has stale writer markers of crashed writers: "
                    + staleWriters);
            builder.down();
        }
    }

}
