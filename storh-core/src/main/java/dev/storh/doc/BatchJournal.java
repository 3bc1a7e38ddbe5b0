package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.fs.SyncPool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The batch journal of a collection, {@code .storh/batch-journal} (see docs/batch-journal.md):
 * every put, group commit, {@link DocStore#putMany} and delete writes its records (or its delete)
 * to this one file with one {@code fdatasync} before it renames or unlinks any record file, then
 * changes the record files without fsyncs. The journal stays pending (non-empty) until it is
 * <em>retired</em>: every record it names is made durable (one {@code syncfs} where the seam can;
 * else its file fsynced, then each bucket folder; during recovery written again from the journal
 * when its file does not hold the journal's bytes, as after a power cut), then the journal is cut
 * to nothing and fsynced.
 *
 * <p>Entries apply in order, the last of each id winning, so a later write of an id the journal
 * holds needs no retire first. A streaming write (any ids), the idle checkpoint, close, the size
 * limit, another instance's journal ({@link #retireForeign()}) and an open that finds a crashed
 * writer's marker (which writes again what a power cut lost) retire it. A retire outside recovery
 * leaves a record file that no longer holds the journal's bytes as it is: a program that does not
 * know the journal changed it. A write is one group of framed lines ending with a commit line that
 * names the writing instance; a group without its commit line (a torn append) is ignored. Callers
 * hold the collection write lock. Thread-safe under that lock.
 */
final class BatchJournal {

    /** The journal's size past which the next write retires it before its undo log begins. */
    static final long RETIRE_BYTES = 64L * 1024 * 1024;

    /** How many records one {@link #syncAhead} step fsyncs. */
    static final int AHEAD_STEP = 64;

    /**
     * One committed entry of the journal: a record's id and its file's bytes, or a delete.
     *
     * @param id the record id
     * @param bytes the record file's bytes, or {@code null} for a delete
     */
    record Entry(String id, byte[] bytes) {
    }

    private final StoreFiles files;
    private final DocLayout layout;
    private final String name;
    private final Function<Path, Path> tempFor;
    private boolean known;
    private volatile boolean pending;
    private final Set<String> pendingIds = new java.util.HashSet<>();
    private long ownSize = -1;
    /** Names this instance in its commit lines. */
    private final String writer = Long.toHexString(WRITER_BASE + WRITERS.incrementAndGet() * 0x9E3779B97F4A7C15L);
    /**
     * Random once per process (another process's instances have other names); an odd step per
     * instance keeps the names of a process distinct without a random draw per open.
     */
    private static final long WRITER_BASE = new java.security.SecureRandom().nextLong();
    private static final java.util.concurrent.atomic.AtomicLong WRITERS = new java.util.concurrent.atomic.AtomicLong();
    /** How many groups this instance appended; the last one's commit line is {@code lastCommit}. */
    private long appends;
    private byte[] lastCommit;
    /** The journal as this instance left it when the write under way began ({@link #retireForeign()}). */
    private long markSize = -1;
    private byte[] markCommit;
    private volatile boolean recovering;
    /**
     * The journal's size as {@link #retireForeign()} just looked at it, under the lock hold of the
     * write under way ({@code -1}: absent), or {@link #UNKNOWN}. The next append takes it (once): it
     * then needs neither a look before it (for its undo) nor after it (for {@link #ownSize}), as
     * nothing else changes the journal under the lock. A retire forgets it.
     */
    private long heldSize = UNKNOWN;
    private static final long UNKNOWN = Long.MIN_VALUE;
    /** This instance's journal bytes {@code [0, syncedTo)} are durable in their record files and folders. */
    private long syncedTo;
    /** The records of {@code [syncedTo, aheadEnd)} that {@link #syncAhead} works through, {@code aheadNext} first. */
    private List<Entry> aheadWork = List.of();
    private long aheadEnd;
    private int aheadNext;

    /**
     * @param files the collection's byte seam (an undoable one: an append is cut back by an undo)
     * @param layout the collection's layout
     * @param tempFor the temp file to write a record of a bucket folder through
     */
    BatchJournal(StoreFiles files, DocLayout layout, Function<Path, Path> tempFor) {
        this.files = files;
        this.layout = layout;
        this.name = files.nameOf(layout.batchJournal());
        this.tempFor = tempFor;
    }

    /**
     * Appends a batch and makes it durable with one {@code fdatasync} (the first append of an
     * instance that creates the file also fsyncs {@code .storh/}).
     *
     * @param records the batch's records, in order (a later one of the same id wins)
     * @throws StorageException {@code "Could not write batch journal: <path>"}; the undo of the
     *     write cuts the file back
     */
    void append(List<PreparedRecord> records) {
        List<Entry> entries = new ArrayList<>(records.size());
        records.forEach(p -> entries.add(new Entry(p.id(), p.bytes())));
        write(entries);
    }

    /**
     * Appends the delete of a record the journal holds, with one {@code fdatasync}, so that a
     * replay does not bring the record back (call inside the delete's undo: a failed delete cuts
     * it back).
     *
     * @param id the record's id
     * @throws StorageException {@code "Could not write batch journal: <path>"}
     */
    void appendDelete(String id) {
        write(List.of(new Entry(id, null)));
    }

    private void write(List<Entry> records) {
        // The commit line names this instance and counts its appends: ours() tells this instance's
        // journal from one another instance retired and wrote again to the same size.
        byte[] commit = JournalLines.commit(records.size(), writer, appends + 1);
        ByteArrayOutputStream out = JournalLines.group(records);
        out.writeBytes(commit);
        long before = heldSize;
        heldSize = UNKNOWN;
        boolean created = !known && (before == UNKNOWN ? size() : before) < 0;
        pending = true;
        byte[] bytes = out.toByteArray();
        try (StoreFiles.Output o = before != UNKNOWN && files instanceof UndoFiles undoable
                ? undoable.append(name, before) : files.append(name)) {
            o.write(bytes);
            o.syncData();
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not write batch journal: " + files.path(name), e);
        }
        if (created) {
            AtomicFiles.syncDirectory(files, AtomicFiles.parentName(name));
        }
        known = true;
        records.forEach(p -> pendingIds.add(p.id().toLowerCase(java.util.Locale.ROOT)));
        // Under the lock nothing else appends: an append at the end of a file of a known size ends there.
        ownSize = before == UNKNOWN ? size() : Math.max(before, 0) + bytes.length;
        lastCommit = commit;
        appends++;
    }

    /**
     * @param size the journal's size now
     * @return whether the journal is as this instance's last append or retire left it (the same
     *     size, ending with this instance's last commit line: one short read), or as it was when
     *     the write under way began (its appends were undone)
     */
    private boolean ours(long size) {
        if (size == ownSize && endsWith(size, lastCommit)) {
            return true;
        }
        if (size == markSize && endsWith(size, markCommit)) {
            ownSize = markSize;
            lastCommit = markCommit;
            return true;
        }
        return false;
    }

    private boolean endsWith(long size, byte[] commit) {
        if (commit == null) {
            return size <= 0;
        }
        if (size < commit.length) {
            return false;
        }
        try (InputStream in = files.open(name, size - commit.length)) {
            return Arrays.equals(in.readNBytes(commit.length), commit);
        } catch (IOException e) {
            return false; // unreadable: retired as another instance's
        }
    }

    /**
     * Retires a journal another instance (another process) changed, so that this instance's
     * appends never mix with its records, or one grown past {@link #RETIRE_BYTES}; nothing when the
     * journal is as this instance left it. Call before a write's undo log begins (a folder fsync
     * that fails under an undo is noted, not thrown, and the journal must then stay). Remembers
     * the journal's state, so that an undo that cuts this write's appends back is told from another
     * instance's change.
     */
    void retireForeign() {
        long size = size();
        if ((size > 0 || pending) && (!ours(size) || size > RETIRE_BYTES)) {
            retire();
        } else {
            heldSize = size; // as looked at, under the lock this write holds
        }
        markSize = ownSize;
        markCommit = lastCommit;
    }

    /**
     * @param lowerId a record id, lower case
     * @return whether this instance's pending journal holds a put or delete of it (call after
     *     {@link #retireForeign()})
     */
    boolean holds(String lowerId) {
        return pending && pendingIds.contains(lowerId);
    }

    /**
     * @return whether a journal holds records not yet retired: this instance's, or those another
     *     instance left (one stat when this instance has none)
     */
    boolean pending() {
        return pending || size() > 0;
    }

    /** Retires a pending journal while an open recovers from a crashed writer ({@link #recovering}). */
    void retireIfRecovering() {
        if (recovering) {
            retireIfPending();
        }
    }

    /** Retires the journal when it is pending ({@link #pending()}). */
    void retireIfPending() {
        if (pending()) {
            retire();
        }
    }

    /**
     * Makes every committed record of the journal durable, then empties the journal.
     *
     * @return how many records it made durable (those {@link #syncAhead} did are not counted)
     * @throws StorageException naming a record, folder or the journal that could not be made
     *     durable; the journal then stays as it was
     */
    int retire() {
        heldSize = UNKNOWN;
        // What syncAhead made durable is skipped while the file is as this instance left it.
        long from = !recovering && syncedTo > 0 && ours(size()) ? syncedTo : 0;
        List<Entry> records = lastOfEach(read(from));
        if (records.isEmpty() || recovering || !syncFileSystem()) {
            SyncPool.forEach(records, this::makeDurable);
            syncFolders(records);
        }
        long size = size();
        if (size > 0 || (pending && size == 0)) { // an emptied journal whose fsync failed is fsynced again
            try (StoreFiles.Output o = files.append(name)) {
                if (size > 0) {
                    o.truncate(0);
                }
                o.sync();
            } catch (IOException | RuntimeException e) {
                throw new StorageException("Could not empty batch journal: " + files.path(name), e);
            }
        }
        pending = false;
        pendingIds.clear();
        ownSize = 0;
        lastCommit = null;
        resetAhead();
        return records.size();
    }

    /**
     * Makes every record file and folder the journal names durable with one {@code syncfs(2)}
     * where the seam can ({@link StoreFiles#syncFileSystem}): outside recovery, where no record is
     * written again, that replaces an fsync of each record file and of each bucket folder.
     *
     * @return whether the file system was synced; {@code false}: sync file by file
     * @throws StorageException {@code "Could not sync file system: <journal>"}
     */
    private boolean syncFileSystem() {
        try {
            return files.syncFileSystem(name);
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not sync file system: " + files.path(name), e);
        }
    }

    /**
     * One step of making this instance's pending journal durable ahead of its retirement, so that
     * the retirement (under one hold of the write lock) has little left to do: the first call reads
     * what was appended since the last step, each call then fsyncs up to {@link #AHEAD_STEP} of
     * those records' files, and the last one their folders. Call under the write lock, releasing it
     * between steps so that writers get in. Does nothing to a journal another instance changed or
     * while an open recovers (the retirement does all of it then). A failure is left to the
     * retirement, which reports it.
     *
     * @return whether nothing is left to sync ahead
     */
    boolean syncAhead() {
        long size = size();
        if (!pending || recovering || !ours(size)) {
            return true;
        }
        try {
            if (aheadEnd <= syncedTo) {
                if (size <= syncedTo) {
                    return true;
                }
                if (syncFileSystem()) {
                    syncedTo = size;
                    return true;
                }
                aheadWork = lastOfEach(read(syncedTo));
                aheadEnd = size;
                aheadNext = 0;
            }
            if (aheadNext < aheadWork.size()) {
                List<Entry> step = aheadWork.subList(aheadNext, Math.min(aheadWork.size(), aheadNext + AHEAD_STEP));
                SyncPool.forEach(step, this::makeDurable);
                aheadNext += step.size();
                return false;
            }
            syncFolders(aheadWork);
            syncedTo = aheadEnd;
            aheadWork = List.of();
            return syncedTo >= size;
        } catch (StorageException notSynced) {
            resetAhead();
            return true;
        }
    }

    /** @return whether this instance's journal holds more than a quarter of {@link #RETIRE_BYTES} not synced ahead */
    boolean wantsSyncAhead() {
        return pending && ownSize - syncedTo > RETIRE_BYTES / 4;
    }

    private void resetAhead() {
        syncedTo = 0;
        aheadWork = List.of();
        aheadEnd = 0;
        aheadNext = 0;
    }

    /** @return the last entry of each id, in journal order */
    private static List<Entry> lastOfEach(List<Entry> entries) {
        Map<String, Entry> last = new LinkedHashMap<>();
        entries.forEach(e -> last.put(e.id(), e));
        return new ArrayList<>(last.values());
    }

    /** Fsyncs the bucket folders of the entries and {@code data/} (a batch may have created buckets without fsyncs). */
    private void syncFolders(List<Entry> records) {
        Set<String> folders = new LinkedHashSet<>();
        records.forEach(e -> folders.add(files.nameOf(layout.bucketDir(DocLayout.bucketOf(e.id())))));
        if (!folders.isEmpty()) {
            folders.add(files.nameOf(layout.dataDir()));
        }
        SyncPool.forEach(new ArrayList<>(folders), folder -> {
            if (DocRecovery.isDirectory(files, folder)) { // a folder removed behind the store's back holds nothing to sync
                AtomicFiles.syncDirectory(files, folder);
            }
        });
    }

    /**
     * @param crashed whether the open found a crashed writer: a retire then writes every record
     *     whose file does not hold the journal's bytes again from the journal (a lost write);
     *     otherwise such a file was changed by a program that does not know the journal, and is
     *     left as it is
     */
    void recovering(boolean crashed) {
        this.recovering = crashed;
    }

    /** A record the journal deleted: its file is removed again when recovering (a power cut lost the unlink). */
    private void deleted(Entry e) {
        if (recovering) {
            try {
                files.delete(files.nameOf(layout.recordFile(e.id())));
            } catch (NoSuchFileException gone) {
                // the unlink reached the disk
            } catch (IOException ex) {
                throw new StorageException("Could not delete storage record: " + e.id(), ex);
            }
        }
    }

    /**
     * Fsyncs a record file holding the journal's bytes; writes it again from the journal when
     * recovering (a delete: removes it again when recovering).
     */
    private void makeDurable(Entry e) {
        if (e.bytes() == null) {
            deleted(e);
            return;
        }
        Path target = layout.recordFile(e.id());
        String targetName = files.nameOf(target);
        byte[] now = readOrNull(targetName);
        if (!recovering && now == null) {
            return; // deleted by a program that does not know the journal
        }
        if (!recovering || Arrays.equals(now, e.bytes())) {
            try (StoreFiles.Output o = files.append(targetName)) {
                o.sync();
            } catch (IOException | RuntimeException ex) {
                throw new StorageException("Could not sync storage file: " + target, ex);
            }
            return;
        }
        Path dir = target.getParent();
        AtomicFiles.ensureDirectory(files, files.nameOf(dir));
        AtomicFiles.writeVia(files, files.nameOf(tempFor.apply(dir)), targetName, e.bytes());
    }

    private byte[] readOrNull(String file) {
        try {
            return files.readIfExists(file);
        } catch (IOException e) {
            return null; // unreadable: written again from the journal
        }
    }

    /**
     * @return the committed records of the journal, in order; a torn or corrupt group and all after
     *     it are left out
     * @throws StorageException {@code "Could not read batch journal: <path>"}
     */
    List<Entry> read() {
        return read(0);
    }

    /**
     * @param from where a group starts: the journal's bytes before it are not read
     * @return the committed records from there on, in order
     */
    private List<Entry> read(long from) {
        byte[] bytes;
        try (InputStream in = files.open(name, from)) {
            bytes = in.readAllBytes();
        } catch (NoSuchFileException absent) {
            return List.of();
        } catch (IOException e) {
            throw new StorageException("Could not read batch journal: " + files.path(name), e);
        }
        return JournalLines.committed(bytes);
    }

    /** @return the journal's size, or -1 when there is none */
    private long size() {
        try {
            return files.stat(name).map(StoreFiles.Entry::size).orElse(-1L);
        } catch (IOException e) {
            throw new StorageException("Could not read batch journal: " + files.path(name), e);
        }
    }
}
