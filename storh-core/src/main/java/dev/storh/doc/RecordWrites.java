package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.doc.index.IndexManager;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.GroupCommit;
import dev.storh.id.UuidV7;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The record writes of one collection (see {@link DocStore#put}, {@link DocStore#putMany} and
 * {@link DocStore#delete} for shapes and errors). Every put and delete is durable in the batch
 * journal (one append and {@code fdatasync}) before its record file is renamed into place or
 * unlinked without fsyncs; the journal's retirement makes the files durable later
 * (docs/batch-journal.md). Concurrent single puts are group-committed: one leader writes the
 * waiting puts as one batch (one journal append) under the write lock, and a record refused on its
 * own (a unique violation) fails only its caller. Thread-safe.
 */
final class RecordWrites {

    private final RecordPreparer preparer;
    private final WriteGate gate;
    private final RecordWriter writer;
    private final IndexManager indexes;
    private final RecordReads reads;
    private final UndoFiles files;
    private final Invalidation invalidate;
    private final WriteSession.Support support;
    private final BatchJournal journal;
    private final GroupCommit<PendingPut> puts = new GroupCommit<>(this::writePuts, BatchWriter.BATCH_SIZE);

    /** Drops what the caches hold for a record id. */
    interface Invalidation {
        /**
         * @param lowerId the record whose file changed or went away
         */
        void invalidate(String lowerId);
    }

    RecordWrites(RecordPreparer preparer, WriteGate gate, RecordWriter writer, IndexManager indexes, RecordReads reads,
            UndoFiles files, Invalidation invalidate, BatchJournal journal) {
        this.preparer = preparer;
        this.gate = gate;
        this.writer = writer;
        this.indexes = indexes;
        this.reads = reads;
        this.files = files;
        this.invalidate = invalidate;
        this.journal = journal;
        this.support = new WriteSession.Support(reads::readFromDisk, invalidate, gate::markIndexDrift, gate::wrote);
        gate.syncBeforeRelease(() -> {
            journal.retireIfPending(); // the records first: the marker goes only once they are durable
            indexes.syncDeferred();
        }, journal::pending);
        gate.beforeDirectWrites(journal::retireIfRecovering);
        gate.syncAheadInSteps(journal::syncAhead); // the checkpoint's retire then holds the lock only briefly
    }

    /** @return a streaming write session (putStream, imports): what it wrote before a failure stays */
    WriteSession session() {
        journal.retireIfPending();
        return new WriteSession(writer.batch(), indexes, indexedKeys(), support, null);
    }

    /**
     * @return an atomic write session, under the write lock, whose records reach the disk through
     *     the batch journal first (one fdatasync per group, see docs/batch-journal.md): a failure
     *     undoes all of it; a journal another instance left is retired first
     */
    private WriteSession journaledSession() {
        journal.retireForeign();
        return journaled();
    }

    /** @return an atomic session through the journal, once {@link BatchJournal#retireForeign()} ran */
    private WriteSession journaled() {
        return new WriteSession(writer.batch(journal), indexes, indexedKeys(), support, files.begin());
    }

    /**
     * @param ids the records a session of single puts writes
     * @return {@link #journaledSession()} on a file system; on a seam whose writes are durable on
     *     return ({@link dev.storh.fs.StoreFiles#durableOnReturn()}), a direct session through the
     *     seam's own replace, unless this instance's journal holds one of the ids (a replay must
     *     then not undo the write)
     */
    private WriteSession singlesSession(List<String> ids) {
        if (!files.durableOnReturn()) {
            return journaledSession();
        }
        journal.retireForeign();
        for (String id : ids) {
            if (journal.holds(id.toLowerCase(java.util.Locale.ROOT))) {
                return journaled();
            }
        }
        return new WriteSession(writer.batch(), indexes, indexedKeys(), support, files.begin());
    }

    StorageRecord put(Map<String, ?> data, String id) {
        PreparedRecord prepared = preparer.prepare(data, id);
        if (gate.heldByCurrentThread()) {
            // Inside withWriteLock (e.g. a version check): write directly, never wait for a batch
            // whose leader would need the lock this thread holds.
            WriteSession session = singlesSession(List.of(prepared.id()));
            try {
                session.put(prepared);
            } catch (RuntimeException e) {
                session.abort(e);
                throw e;
            }
            session.finish();
            return prepared.record();
        }
        PendingPut pending = new PendingPut(prepared);
        puts.submit(pending);
        if (pending.error != null) {
            throw pending.error;
        }
        return prepared.record();
    }

    /** A put waiting for its group commit; the leader records a failure of this record alone. */
    private static final class PendingPut {
        final PreparedRecord record;
        RuntimeException error;

        PendingPut(PreparedRecord record) {
            this.record = record;
        }
    }

    /**
     * Group commit of concurrent single puts (the batch is written like a bulk write: temp files
     * fsynced in parallel, renamed in order, one fsync per bucket folder). A record refused on its
     * own fails its caller only; an I/O failure undoes the batch and fails every caller.
     */
    private void writePuts(List<PendingPut> batch) {
        gate.withJournalLock(() -> {
            WriteSession session = singlesSession(batch.stream().map(p -> p.record.id()).toList());
            for (PendingPut p : batch) {
                try {
                    session.put(p.record);
                } catch (RuntimeException e) {
                    if (session.failure() != null) {
                        throw e; // undone: every caller of the batch fails
                    }
                    p.error = e;
                }
            }
            session.finish();
            return null;
        });
    }

    List<StorageRecord> putMany(Iterable<? extends Map<String, ?>> items) {
        List<PreparedRecord> prepared = new ArrayList<>();
        for (Map<String, ?> item : items) {
            prepared.add(preparer.prepareItem(item));
        }
        boolean large = gate.withJournalLock(() -> {
            WriteSession session = journaledSession();
            session.putAll(prepared);
            session.finish();
            return journal.wantsSyncAhead();
        });
        if (large) {
            gate.syncAheadSoon(); // between batches, so that retiring the journal at its size limit is cheap
        }
        List<StorageRecord> records = new ArrayList<>(prepared.size());
        prepared.forEach(p -> records.add(p.record()));
        return records;
    }

    long putStream(Iterable<? extends Map<String, ?>> items) {
        return gate.withWriteLock(() -> {
            WriteSession session = session();
            long n = 0;
            try {
                for (Map<String, ?> item : items) {
                    session.put(preparer.prepareItem(item));
                    n++;
                }
            } finally {
                session.finish();
            }
            return n;
        });
    }

    boolean delete(String id) {
        String lower = UuidV7.normalize(id);
        return gate.withJournalLock(() -> {
            Path path = reads.checkedPathUnderLock(lower);
            String name = files.nameOf(path);
            journal.retireForeign();
            java.util.Set<String> indexedKeys = indexedKeys();
            StorageRecord old = indexedKeys.isEmpty() ? null : RecordFiles.readOrNull(files, path);
            if (old == null && !journal.holds(lower) && !exists(name)) {
                return false; // nothing to delete, nothing a replay could bring back
            }
            WriteSession session = new WriteSession(writer.batch(), indexes, indexedKeys, support, files.begin());
            // On a seam durable on return the unlink alone is durable, unless the journal holds a put of it.
            boolean journaled = !files.durableOnReturn() || journal.holds(lower);
            boolean deleted;
            try {
                // Durable in the journal first: a replay removes the file again if the unlink is lost,
                // and never brings back a put of it the journal holds.
                if (journaled) {
                    journal.appendDelete(lower);
                }
                // The index changes go first and the unlink last: an index write that fails then
                // leaves the record file where it was, and an unlink that fails is undone by putting
                // the index files' bytes back (through the same temp writes and renames that worked).
                if (old != null) {
                    session.deleting(lower, old);
                }
                // A journaled unlink's folder is fsynced when the journal retires. The unlink is the
                // last change: finish() then has no record and no index change left to write, so
                // nothing can fail after it and the undo need not keep the file's bytes.
                deleted = journaled ? unlink(name) : AtomicFiles.deleteDurably(files, name);
                session.finish();
            } catch (IOException | RuntimeException e) {
                session.abort(e);
                throw new StorageException("Could not delete storage record: " + id + " (" + path + ")", e);
            } finally {
                invalidate.invalidate(lower);
            }
            return deleted;
        });
    }

    /**
     * @return the keys the indexes read, under the write lock: none, without a look at the
     *     manifests, when the gate found no {@code .storh/indexes/} on taking the lock
     */
    private java.util.Set<String> indexedKeys() {
        return gate.indexFolderAbsent() ? java.util.Set.of() : indexes.indexedKeys();
    }

    private boolean exists(String name) {
        try {
            return files.exists(name);
        } catch (IOException e) {
            return true; // unreadable: the delete tries, and reports what fails
        }
    }

    private boolean unlink(String name) throws IOException {
        try {
            files.deleteAsLastChange(name);
            return true;
        } catch (java.nio.file.NoSuchFileException gone) {
            return false;
        }
    }
}
