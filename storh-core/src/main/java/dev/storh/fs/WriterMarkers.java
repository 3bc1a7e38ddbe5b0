package dev.storh.fs;

import dev.storh.StorageException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writer markers and the orphan temp-file sweep.
 *
 * <p>Every writing store instance has a <em>writer prefix</em> {@code <pid>.<8 hex>}; it names its
 * marker {@code <collection>/.storh/writers/<prefix>} ({@link MetaLayout#writerMarker}; an empty file that exists while the instance
 * may write) and its record temp files {@code .<prefix>.<n>.tmp}. These are exactly the original's
 * shapes, so a PHP sweep attributes our temp files to a live owner and leaves them alone.
 *
 * <p>A marker whose process is gone means a writer crashed and may have left temp files: only then
 * does opening a store sweep the collection (constant-time open otherwise). Liveness uses
 * {@link ProcessHandle} (a live process of another user counts as alive, unlike the original's
 * {@code kill(0)}) and also treats a process that started after the marker was written as a reused
 * pid, i.e. dead. Stateless and thread-safe.
 */
public final class WriterMarkers {

    /** Age after which a temp file without a live owner pid is an orphan. */
    public static final Duration ORPHAN_TEMP_AGE = Duration.ofSeconds(60);

    private static final long OWN_PID = ProcessHandle.current().pid();
    private static final Pattern MARKER = Pattern.compile("^(\\d+)\\..*");
    private static final Pattern OWNED_TEMP = Pattern.compile("^\\.(\\d+)\\.[0-9a-f]+\\.\\d+\\.tmp$");
    private static final Duration START_SLACK = Duration.ofSeconds(2);
    /** Random once per process (a pid reused after a crash gets other prefixes); distinct per instance by a counter. */
    private static final int PREFIX_BASE = new SecureRandom().nextInt();
    private static final java.util.concurrent.atomic.AtomicInteger PREFIXES = new java.util.concurrent.atomic.AtomicInteger();

    private WriterMarkers() {
    }

    /**
     * @return a fresh writer prefix {@code <pid>.<8 lowercase hex>}: the hex part is random per
     *     process and differs between the first 2^32 calls of a process (an odd step from a random
     *     start), so that no two instances of a process share a prefix and a pid reused after a crash
     *     does not take the dead process's prefixes; no random draw per call (an open makes one)
     */
    public static String newWriterPrefix() {
        return OWN_PID + "." + HexFormat.of().toHexDigits(PREFIX_BASE + PREFIXES.incrementAndGet() * 0x9E3779B9);
    }

    /**
     * @param collectionRoot a collection folder
     * @return its {@code .storh/writers} folder ({@link MetaLayout#writersDirectory})
     */
    public static Path writersDirectory(Path collectionRoot) {
        return MetaLayout.writersDirectory(collectionRoot);
    }

    /**
     * Creates this instance's marker (an empty file) and fsyncs its folder.
     *
     * @param marker the marker path
     * @throws StorageException {@code "Could not register storage writer marker: <path>"}
     */
    public static void register(Path marker) {
        register(LocalFiles.at(marker.getParent()), marker.getFileName().toString());
    }

    /**
     * {@link #register(Path)} through a byte seam: the marker's folder is created when missing.
     *
     * @param files the store's seam
     * @param marker the marker's name ({@link MetaLayout#writerMarker})
     * @throws StorageException {@code "Could not register storage writer marker: <path>"}
     */
    public static void register(StoreFiles files, String marker) {
        try {
            String dir = AtomicFiles.parentName(marker);
            AtomicFiles.ensureDirectory(files, dir);
            if (!files.exists(marker)) {
                files.create(marker).close();
                files.syncDirectory(dir);
            }
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not register storage writer marker: " + files.path(marker)
                    + ReadOnlyFileSystem.hint(e), e);
        }
    }

    /**
     * Lists the markers of crashed writers in a collection.
     *
     * @param collectionRoot a collection folder
     * @return markers whose name does not start with {@code <digits>.} or whose process is not alive;
     *     empty when there is no {@code .storh/writers} folder
     */
    public static List<Path> staleMarkers(Path collectionRoot) {
        StoreFiles files = LocalFiles.at(collectionRoot);
        return staleMarkers(files).stream().map(files::path).toList();
    }

    /**
     * {@link #staleMarkers(Path)} through a byte seam.
     *
     * @param files the store's seam
     * @return the names of the stale markers; empty when there is no {@code .storh/writers} folder
     * @throws StorageException {@code "Could not list storage writer markers: <path>"}
     */
    public static List<String> staleMarkers(StoreFiles files) {
        List<String> stale = staleMarkersOrNull(files);
        return stale == null ? List.of() : stale;
    }

    /**
     * {@link #staleMarkers}, telling a missing writers folder from an empty one with the same look.
     *
     * @param files the collection's byte seam
     * @return the stale markers, or {@code null} when {@code .storh/writers} is no folder (missing,
     *     or a link, never followed)
     * @throws StorageException {@code "Could not list storage writer markers: <path>"}
     */
    public static List<String> staleMarkersOrNull(StoreFiles files) {
        List<String> stale = new ArrayList<>();
        try {
            if (!isDirectory(files, MetaLayout.WRITERS)) {
                return null;
            }
            for (String name : files.list(MetaLayout.WRITERS)) {
                String marker = MetaLayout.WRITERS + "/" + name;
                Matcher m = MARKER.matcher(name);
                if (!m.matches() || !isAlive(m.group(1), files, marker)) {
                    stale.add(marker);
                }
            }
        } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
            return List.of();
        } catch (IOException e) {
            throw new StorageException("Could not list storage writer markers: " + files.path(MetaLayout.WRITERS), e);
        }
        return stale;
    }

    /**
     * What {@link #recoverOnOpen} found.
     *
     * @param crashedWriter whether a stale writer marker (a writer that died while it could write)
     *     was found, so the collection may hold half-finished work beyond temp files (index drift)
     * @param removedTempFiles orphan temp files deleted
     */
    public record OpenRecovery(boolean crashedWriter, int removedTempFiles) {
    }

    /**
     * The open-time check: when {@code .storh/writers/} is missing, sweep the whole collection
     * and create it; when a stale marker exists, sweep and then delete the stale markers; otherwise
     * do nothing else.
     *
     * @param collectionRoot the collection folder, created when missing
     * @return the number of temp files removed
     * @throws StorageException when the writers folder cannot be created
     */
    public static int sweepOnOpen(Path collectionRoot) {
        return recoverOnOpen(collectionRoot).removedTempFiles();
    }

    /**
     * {@link #sweepOnOpen(Path)} through the store's byte seam.
     *
     * @param files the store's seam
     * @return the number of temp files removed
     * @throws StorageException when the writers folder cannot be created
     */
    public static int sweepOnOpen(StoreFiles files) {
        return recoverOnOpen(files).removedTempFiles();
    }

    /**
     * As {@link #sweepOnOpen}, also telling whether a crashed writer was detected.
     *
     * @param collectionRoot the collection folder, created when missing
     * @return whether a writer crashed, and how many temp files were removed
     * @throws StorageException when the writers folder cannot be created
     */
    public static OpenRecovery recoverOnOpen(Path collectionRoot) {
        return recoverOnOpen(LocalFiles.at(collectionRoot));
    }

    /**
     * {@link #recoverOnOpen(Path)} through the store's byte seam.
     *
     * @param files the store's seam
     * @return whether a writer crashed, and how many temp files were removed
     * @throws StorageException when the writers folder cannot be created
     */
    public static OpenRecovery recoverOnOpen(StoreFiles files) {
        if (!isDirectory(files, MetaLayout.WRITERS)) {
            int removed = isDirectory(files, "") ? sweepTempFiles(files, "", ORPHAN_TEMP_AGE) : 0;
            AtomicFiles.ensureDirectory(files, MetaLayout.WRITERS);
            return new OpenRecovery(false, removed);
        }
        List<String> stale = staleMarkers(files);
        if (stale.isEmpty()) {
            return new OpenRecovery(false, 0);
        }
        int removed = sweepTempFiles(files, "", ORPHAN_TEMP_AGE);
        removeMarkers(files, stale);
        return new OpenRecovery(true, removed);
    }

    /**
     * Deletes markers (quietly: one another process removed meanwhile is fine) and fsyncs their folder.
     *
     * @param markers markers of crashed writers, from {@link #staleMarkers}
     */
    public static void removeMarkers(List<Path> markers) {
        markers.forEach(AtomicFiles::deleteQuietly);
        if (!markers.isEmpty()) {
            AtomicFiles.syncDirectory(markers.get(0).getParent());
        }
    }

    /**
     * {@link #removeMarkers(List)} through the store's byte seam.
     *
     * @param files the store's seam
     * @param markers names from {@link #staleMarkers(StoreFiles)}
     * @throws StorageException when the folder fsync fails
     */
    public static void removeMarkers(StoreFiles files, List<String> markers) {
        markers.forEach(m -> AtomicFiles.deleteQuietly(files, m));
        if (!markers.isEmpty()) {
            AtomicFiles.syncDirectory(files, AtomicFiles.parentName(markers.get(0)));
        }
    }

    /**
     * Removes orphan temp files under a folder, recursively, not following symbolic links. A
     * candidate's name starts with {@code .} and ends with {@code .tmp}; a record temp
     * {@code .<pid>.<hex>.<n>.tmp} is removed when its owner process is dead, any other candidate
     * when it is at least {@link #ORPHAN_TEMP_AGE} old.
     *
     * @param dir the folder to sweep; a missing folder is fine
     * @return the number of files removed
     */
    public static int sweepTempFiles(Path dir) {
        return sweepTempFiles(dir, ORPHAN_TEMP_AGE);
    }

    /**
     * {@link #sweepTempFiles(Path)} with another age for temp files without an owner pid: zero
     * under a lock that every writer of those files holds while it writes them.
     *
     * @param dir the folder to sweep; a missing folder is fine
     * @param orphanAge age from which a temp file without an owner pid is an orphan
     * @return the number of files removed
     */
    public static int sweepTempFiles(Path dir, Duration orphanAge) {
        return sweepTempFiles(LocalFiles.at(dir), "", orphanAge);
    }

    /**
     * {@link #sweepTempFiles(Path, Duration)} through a byte seam; names that vanish or cannot be
     * read while sweeping are skipped.
     *
     * @param files the store's seam
     * @param dir the folder to sweep, {@code ""} for the root; a missing folder is fine
     * @param orphanAge age from which a temp file without an owner pid is an orphan
     * @return the number of files removed
     */
    public static int sweepTempFiles(StoreFiles files, String dir, Duration orphanAge) {
        if (!isDirectory(files, dir)) {
            return 0;
        }
        return sweep(files, dir, Instant.now().minus(orphanAge));
    }

    private static int sweep(StoreFiles files, String dir, Instant orphanBefore) {
        List<String> names;
        try {
            names = files.list(dir);
        } catch (IOException e) {
            return 0;
        }
        int removed = 0;
        for (String name : names) {
            String child = dir.isEmpty() ? name : dir + "/" + name;
            Optional<StoreFiles.Entry> entry;
            try {
                entry = files.stat(child);
            } catch (IOException e) {
                continue;
            }
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.get().kind() == StoreFiles.Entry.Kind.DIRECTORY) {
                removed += sweep(files, child, orphanBefore);
            } else if (entry.get().kind() == StoreFiles.Entry.Kind.FILE && name.startsWith(".") && name.endsWith(".tmp")) {
                FileTime modified = FileTime.fromMillis(entry.get().lastModifiedMillis());
                Matcher owned = OWNED_TEMP.matcher(name);
                boolean orphan = owned.matches()
                        ? !isAlive(parsePid(owned.group(1)), modified)
                        : !modified.toInstant().isAfter(orphanBefore);
                if (orphan && AtomicFiles.deleteQuietly(files, child)) {
                    removed++;
                }
            }
        }
        return removed;
    }

    private static boolean isDirectory(StoreFiles files, String name) {
        try {
            return files.stat(name).map(e -> e.kind() == StoreFiles.Entry.Kind.DIRECTORY).orElse(false);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * @param pid a process id
     * @param since when the pid's marker or temp file was last written, or {@code null}
     * @return whether a process with that pid runs and started before {@code since} (plus two
     *     seconds of slack); this JVM's own pid is always alive
     */
    public static boolean isAlive(long pid, FileTime since) {
        if (pid == OWN_PID) {
            return true;
        }
        if (pid < 1 || pid > Integer.MAX_VALUE) {
            return false;
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        if (since == null) {
            return true;
        }
        Optional<Instant> started = handle.get().info().startInstant();
        return started.isEmpty() || !started.get().isAfter(since.toInstant().plus(START_SLACK));
    }

    /**
     * @param pidDigits the decimal process id a marker or temp file is named by
     * @param files the seam the file is reached through
     * @param name the file
     * @return whether that process runs and started before the file was last written (see
     *     {@link #isAlive(long, FileTime)}); a pid too long for a {@code long} is never alive
     */
    public static boolean isAlive(String pidDigits, StoreFiles files, String name) {
        return isAlive(parsePid(pidDigits), mtime(files, name));
    }

    private static long parsePid(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException tooLong) {
            return -1;
        }
    }

    private static FileTime mtime(StoreFiles files, String name) {
        try {
            return files.stat(name).map(e -> FileTime.fromMillis(e.lastModifiedMillis())).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }
}
