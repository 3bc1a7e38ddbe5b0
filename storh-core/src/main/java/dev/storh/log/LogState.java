package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.ReadOnlyFileSystem;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A log's in-memory picture of its files: the segments in scan order (sealed, then active), the
 * state index, and what the manifest on disk said when it was last read or written.
 *
 * <p>Every method that reads or changes files ({@link #load}, {@link #refresh}, {@link #roll},
 * {@link #writeManifest}) must be called with the collection lock held. In-memory changes are made
 * under this object's monitor and only after the files they describe are durable, so lock-free
 * readers see either the old or the new picture.
 *
 * <p><b>Other processes</b> (weak spot W1). The original never notices other processes' writes. Here,
 * {@link #refresh} catches up with them ({@link LogCatchUp}).
 */
final class LogState {

    final Path dir;
    /** The byte seam under the collection folder; every file of the log is reached through it. */
    final StoreFiles files;
    final int interval;
    /** Whether the file system is read-only: nothing is created, cut or rewritten. */
    final boolean readOnly;

    volatile List<Segment> sealed = List.of();
    volatile Segment active;
    volatile StateIndex index = new StateIndex();
    volatile Object stamp;
    /** Bytes of torn tails cut by this instance so far. */
    volatile long bytesCut;
    /** Set when segments were rewritten but the picture could not be rebuilt: the next refresh rebuilds it. */
    volatile boolean rebuild;
    /** Bumped by every full rebuild: files may have been replaced, so cached read handles are stale. */
    volatile long generation;
    /**
     * False only while no segment of the picture holds damage ({@link Segment#damaged}, a bad tail):
     * set by every scan that finds some (only a scan records damage), and set exactly by a full
     * rebuild when it publishes its picture.
     */
    volatile boolean mayBeDamaged;
    /** Whether every segment file of the picture is still there, known from the folder's time. */
    final SegmentPresence presence;
    private long nextSegment = 1;
    private List<Object> invalidSealed = List.of();
    private Map<String, Object> extra = Map.of();

    LogState(StoreFiles files, Path dir, int interval, boolean readOnly) {
        this.files = files;
        this.readOnly = readOnly;
        this.dir = dir;
        this.interval = interval;
        this.presence = new SegmentPresence(this);
    }

    /**
     * @param file a file name in {@code segments/}
     * @return its path, for messages
     */
    Path path(String file) {
        return files.path(LogFiles.segment(file));
    }

    /**
     * @param file a file name in {@code segments/}
     * @return its size, or -1 when it is missing or unreadable
     */
    long size(String file) {
        StoreFiles.Entry entry = entry(file);
        return entry == null ? -1 : entry.size();
    }

    /**
     * @param file a file name in {@code segments/}
     * @return what a {@code stat} tells of it, or {@code null} when it is missing or unreadable
     */
    StoreFiles.Entry entry(String file) {
        try {
            return files.stat(LogFiles.segment(file)).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * @param file a file name in {@code segments/}
     * @return it, open for positional reads
     * @throws IOException {@code NoSuchFileException} when missing
     */
    StoreFiles.Input open(String file) throws IOException {
        return files.openInput(LogFiles.segment(file));
    }

    /** @return the manifest's path, for messages */
    Path manifestPath() {
        return files.path(LogFiles.MANIFEST);
    }

    /**
     * Full rebuild from disk: reads the manifest (creating a fresh one and an
     * empty {@code seg-000001.ndjson} when missing), creates a missing active file, scans every segment.
     *
     * @param truncate whether torn tails are cut
     * @throws StorageException when the manifest is unreadable or a segment cannot be read
     */
    void load(boolean truncate) {
        Manifest.Data m = Manifest.read(files);
        boolean fresh = m == null;
        if (fresh && readOnly) {
            throw new StorageException("No log to read at " + dir + ": " + LogFiles.MANIFEST
                    + " is missing and " + ReadOnlyFileSystem.READ_ONLY);
        }
        if (fresh) {
            m = new Manifest.Data(1, List.of(), List.of(), null, Map.of());
        }
        List<Segment> newSealed = new ArrayList<>();
        for (Map<String, Object> raw : m.sealed()) {
            newSealed.add(Segment.fromManifest(raw, true));
        }
        long next = m.nextSegment();
        Segment newActive;
        if (m.active() != null) {
            newActive = Segment.fromManifest(m.active(), false);
        } else {
            long n = firstFreeNumber(Math.max(1, next));
            newActive = new Segment(LogFiles.segmentName(n), null, false, new java.util.LinkedHashMap<>());
            next = n + 1;
            fresh = true;
        }
        if (!readOnly) {
            createIfMissing(newActive.file, true);
        }
        long claimed = 0;
        for (Segment s : newSealed) {
            claimed += Math.max(0, s.claimedRecords);
        }
        // The equality counts are not built here: the first unlimited count builds them (LogCounts), so an
        // open or a recover reads each line's envelope only.
        StateIndex built = new StateIndex(claimed + 1024);
        for (Segment s : newSealed) {
            bytesCut += SegmentScanner.scan(this, s, built, truncate, true);
        }
        bytesCut += SegmentScanner.scan(this, newActive, built, truncate, true);
        built.endRebuild();
        Object readStamp = Manifest.stamp(files);
        boolean damage = !newActive.damaged.isEmpty() || newActive.badTail != null;
        for (Segment s : newSealed) {
            damage |= !s.damaged.isEmpty() || s.badTail != null;
        }
        synchronized (this) {
            mayBeDamaged = damage;
            built.adopt(index);
            sealed = List.copyOf(newSealed);
            active = newActive;
            index = built;
            nextSegment = Math.max(next, LogFiles.segmentNumber(newActive.file) + 1);
            invalidSealed = m.invalidSealed();
            extra = m.extra();
            stamp = readStamp;
            generation++;
            rebuild = false;
        }
        if (fresh) {
            writeManifest();
        }
        presence.forget();
        presence.present(); // every file scanned: one listing shows the picture is whole
    }

    /**
     * Catches up with other processes' writes ({@link LogCatchUp}).
     *
     * @param truncate whether torn tails are cut (writers) or left invisible (readers)
     * @param activeSize the active segment's current size if the caller knows it, else -1
     * @return whether anything changed
     */
    boolean refresh(boolean truncate, long activeSize) {
        return LogCatchUp.refresh(this, truncate, activeSize);
    }

    /**
     * Takes another process's manifest's segment numbering and the keys it keeps as they are, after a
     * roll that this instance followed (the segments themselves are set by the caller).
     *
     * @param m the manifest read
     */
    synchronized void adoptManifest(Manifest.Data m) {
        nextSegment = Math.max(m.nextSegment(), LogFiles.segmentNumber(active.file) + 1);
        invalidSealed = m.invalidSealed();
        extra = m.extra();
    }

    /**
     * Writes the manifest from the in-memory segments (skipped when the bytes on disk are the same).
     */
    void writeManifest() {
        writeManifest(false);
    }

    /**
     * @param always write even when the bytes on disk are the same, so other processes see a new
     *     manifest identity and rebuild (after a repair rewrote segments)
     */
    void writeManifest(boolean always) {
        writeManifest(always, true);
    }

    private void writeManifest(boolean always, boolean syncFolder) {
        byte[] bytes;
        synchronized (this) {
            bytes = Manifest.encode(nextSegment, sealed, invalidSealed, active, extra);
        }
        try {
            Manifest.write(files, bytes, always, syncFolder);
        } finally {
            stamp = Manifest.stamp(files); // a failed swap put the old manifest back under a new identity
        }
    }

    /**
     * Seals the active segment and starts a new one. Nothing happens when the active
     * segment has no records. The manifest rename is the commit point; on failure the in-memory
     * picture is put back.
     *
     * @throws StorageException {@code "Could not roll missing active segment."} naming the path
     */
    void roll() {
        roll(true);
    }

    /**
     * {@link #roll()}, optionally leaving the collection folder's fsync after the manifest's rename
     * to the caller ({@link Manifest#write(StoreFiles, byte[], boolean, boolean)}): a batch of appends
     * that rolls several times fsyncs the folder once, before it returns.
     *
     * @param syncManifestFolder whether the manifest's rename is made durable before this returns
     * @throws StorageException as {@link #roll()}
     */
    void roll(boolean syncManifestFolder) {
        roll(syncManifestFolder, null);
    }

    /**
     * {@link #roll(boolean)}, fsyncing the active segment's last lines side by side with the roll's
     * own files ({@link RollCommit}).
     *
     * @param syncManifestFolder whether the manifest's rename is made durable before this returns
     * @param dataSync the fsync of the lines written to the active segment since its last fsync, run
     *     before the manifest's rename (or not at all when the roll fails before it), or {@code null}
     * @throws StorageException as {@link #roll()}, or the data fsync's failure
     */
    void roll(boolean syncManifestFolder, ParallelSync.Task dataSync) {
        Segment old = active;
        if (old.records == 0) {
            return;
        }
        StoreFiles.Entry file = entry(old.file);
        if (file == null || file.kind() != StoreFiles.Entry.Kind.FILE) {
            throw new StorageException("Could not roll missing active segment. Missing: " + path(old.file));
        }
        String indexName = LogFiles.indexName(old.file);
        long n = firstFreeNumber(Math.max(nextSegment, LogFiles.segmentNumber(old.file) + 1));
        Segment fresh = new Segment(LogFiles.segmentName(n), null, false, new java.util.LinkedHashMap<>());
        long known = presence.beforeOwnChange();
        try {
            createIfMissing(fresh.file, false); // RollCommit fsyncs segments/ before the manifest names it
            swapActive(old, fresh, indexName, n, syncManifestFolder, dataSync);
            old.sizeSeen = file.size(); // under the collection lock, after this instance's own lines
            presence.afterOwnChange(known);
        } catch (RuntimeException e) {
            // nothing references them: take them away so a failed roll leaves the folder as it was
            AtomicFiles.deleteQuietly(files, LogFiles.segment(indexName));
            AtomicFiles.deleteQuietly(files, LogFiles.segment(fresh.file));
            throw e;
        }
    }

    /** Seals {@code old} and makes {@code fresh} active in memory, then writes the roll's files; on failure puts the picture back. */
    private void swapActive(Segment old, Segment fresh, String indexName, long n, boolean syncManifestFolder,
            ParallelSync.Task dataSync) {
        long oldNext;
        List<Segment> oldSealed;
        byte[] manifest;
        synchronized (this) {
            oldNext = nextSegment;
            oldSealed = sealed;
            old.seal(indexName);
            List<Segment> s = new ArrayList<>(oldSealed);
            s.add(old);
            sealed = List.copyOf(s);
            active = fresh;
            nextSegment = n + 1;
            manifest = Manifest.encode(nextSegment, sealed, invalidSealed, active, extra);
        }
        try {
            RollCommit.write(files, LogFiles.segment(indexName), SparseIndex.encode(old.sparse), manifest, syncManifestFolder,
                    dataSync);
        } catch (RuntimeException e) {
            synchronized (this) {
                old.index = null;
                old.sparse = new ArrayList<>(old.sparse); // sealing froze it; appends go on
                sealed = oldSealed;
                active = old;
                nextSegment = oldNext;
            }
            throw e;
        } finally {
            stamp = Manifest.stamp(files); // a failed swap put the old manifest back under a new identity
        }
    }

    /**
     * Replaces the sealed list after a compaction's manifest commit.
     *
     * @param outputs the compacted segments
     */
    synchronized void replaceSealed(List<Segment> outputs) {
        sealed = List.copyOf(outputs);
    }

    /**
     * @return a consistent list of segment views in scan order, for a stream
     */
    synchronized List<Segment.View> views() {
        List<Segment.View> views = new ArrayList<>(sealed.size() + 1);
        sealed.forEach(s -> views.add(s.view()));
        views.add(active.view());
        return views;
    }

    /**
     * @return the total size of the {@code .ndjson} files the manifest references
     */
    long bytes() {
        return bytes(false);
    }

    /**
     * The total size of the {@code .ndjson} files the manifest references, from one {@code stat} of
     * each, or, for a sealed segment whose size was seen before and then ended exactly at its committed
     * end, from that size when the caller knows that no other writer can have changed the files since
     * this instance caught up and that no file of {@code segments/} was added or removed (sealed
     * segments are never appended to, and every writer that rewrites one registers a marker).
     *
     * @param trustSealed whether sealed sizes seen before may be used, as above
     * @return the bytes
     */
    long bytes(boolean trustSealed) {
        long total = 0;
        for (Segment s : sealed) {
            long seen = s.sizeSeen;
            if (!trustSealed || seen < 0 || seen != s.end) {
                seen = size(s.file);
                s.sizeSeen = seen;
            }
            total += Math.max(0, seen);
        }
        return total + Math.max(0, size(active.file));
    }

    long nextSegment() {
        return nextSegment;
    }

    private long firstFreeNumber(long from) {
        long n = from;
        while (exists(LogFiles.segment(LogFiles.segmentName(n)))) {
            n++;
        }
        return n;
    }

    /**
     * @param name a name under the collection folder
     * @return whether something has it; an unreadable name counts as taken
     */
    boolean exists(String name) {
        try {
            return files.exists(name);
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * @param name a name under the collection folder
     * @return whether a regular file has it (not a folder, not a symbolic link)
     */
    boolean isFile(String name) {
        try {
            return files.stat(name).map(e -> e.kind() == StoreFiles.Entry.Kind.FILE).orElse(false);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Creates a folder below the seam's root and its missing parents, then fsyncs each new folder's
     * parent so the new entries survive a power loss.
     *
     * @param files the collection's byte seam
     * @param folder a folder name, {@code /}-separated
     * @throws StorageException {@code "Could not create storage directory: <path>"}
     */
    static void mkdirs(StoreFiles files, String folder) {
        String parent = AtomicFiles.parentName(folder);
        try {
            if (files.stat(folder).map(e -> e.kind() == StoreFiles.Entry.Kind.DIRECTORY).orElse(false)) {
                return;
            }
            if (!parent.isEmpty()) {
                mkdirs(files, parent);
            }
            files.createDirectories(folder);
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not create storage directory: " + files.path(folder)
                    + ReadOnlyFileSystem.hint(e), e);
        }
        AtomicFiles.syncDirectory(files, parent);
    }

    /**
     * Creates an empty segment file (and {@code segments/}).
     *
     * @param file the segment's file name
     * @param sync whether to fsync {@code segments/} now (weak spot W13); false when the caller does it
     *     before anything names the file
     */
    private void createIfMissing(String file, boolean sync) {
        String name = LogFiles.segment(file);
        if (exists(name)) {
            return;
        }
        mkdirs(files, LogFiles.SEGMENTS);
        try {
            files.append(name).close();
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not create segment file: " + path(file) + ReadOnlyFileSystem.hint(e), e);
        }
        presence.regularFile(file);
        if (sync) {
            AtomicFiles.syncDirectory(files, LogFiles.SEGMENTS);
        }
    }
}
